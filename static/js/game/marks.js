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
