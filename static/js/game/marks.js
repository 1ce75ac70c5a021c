// What a hint or a step of the walkthrough marks on the board: each cell's part in it
// ("region", "cause", "target"), and where a hint takes the selection. A hint as the
// server tells it: {level 1-3, region: [cells], cause: [cells], target: [cells], ...};
// older answers gave the cells involved as `cells`.
//
// Imports nothing.

const list = (value) => (Array.isArray(value) ? value.filter(Number.isInteger) : []);

export function regionOf(hint) {
  return list(hint.region);
}

export function targets(hint) {
  if (Array.isArray(hint.target)) return list(hint.target);
  return hint.level >= 2 ? list(hint.cells) : []; // an older answer: the cells involved
}

// The cells drawn: cell -> "region" | "cause" | "target" (target over cause, cause over
// region). The walkthrough's step, when one is shown, else the hint.
export function hintCells(hint, walk) {
  const roles = new Map();
  const mark = (cells, role) => cells.forEach((c) => roles.set(c, role));
  if (walk) {
    const step = walk.path[walk.index];
    mark(list(step.cells), "cause");
    mark(list((step.placements || []).map(([c]) => c)), "target");
    return roles;
  }
  if (!hint) return roles;
  mark(regionOf(hint), "region");
  mark(list(hint.cause), "cause");
  mark(targets(hint), "target");
  return roles;
}

// The chain a hint (at levels 2 and 3) or the walkthrough's step draws on the candidates:
// {on, off: Map cell -> digits it marks true or false, links: [{from, to, kind}]}, each end
// "cell:digit", kind "strong" or "weak". A hint gives links as {from, to, kind}, a step of
// the walkthrough as [cell, digit, cell, digit, kind].
export function hintChain(hint, walk) {
  const source = walk ? walk.path[walk.index] : hint && hint.level >= 2 ? hint : null;
  const on = new Map();
  const off = new Map();
  const links = [];
  if (!source) return { on, off, links };
  const add = (map, pairs) =>
    (Array.isArray(pairs) ? pairs : []).forEach(([c, d]) => {
      if (Number.isInteger(c) && Number.isInteger(d)) map.set(c, [...(map.get(c) || []), d].sort());
    });
  add(on, source.on);
  add(off, source.off);
  for (const link of Array.isArray(source.links) ? source.links : []) {
    if (Array.isArray(link)) {
      const [a, da, b, db, kind] = link;
      links.push({ from: `${a}:${da}`, to: `${b}:${db}`, kind: kind === "strong" ? "strong" : "weak" });
    } else if (link && link.from && link.to) {
      links.push({ from: String(link.from), to: String(link.to), kind: link.kind === "strong" ? "strong" : "weak" });
    }
  }
  return { on, off, links };
}
