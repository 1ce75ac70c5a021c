// A chain drawn over the board: each link a line between two candidates' places, strong
// solid, weak dashed, with an arrow at the candidate it leads to (hooks: data-hint-link,
// data-from, data-to). Only draws.
//
// Imports nothing.

const NS = "http://www.w3.org/2000/svg";
const SIZE = 900; // the board in the drawing's units: 100 a cell

// Where a candidate sits in its cell's 3 by 3 notes: "20:4" -> [x, y].
function spot(node) {
  const [cell, digit] = node.split(":").map(Number);
  const k = digit - 1;
  return [(cell % 9) * 100 + (k % 3) * (100 / 3) + 50 / 3, Math.floor(cell / 9) * 100 + Math.floor(k / 3) * (100 / 3) + 50 / 3];
}

function element(name, attributes) {
  const el = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  return el;
}

function overlay(board) {
  const svg = element("svg", { class: "hint-links", viewBox: `0 0 ${SIZE} ${SIZE}`, "aria-hidden": "true", focusable: "false" });
  const marker = element("marker", {
    id: "hint-arrow",
    viewBox: "0 0 10 10",
    refX: 9,
    refY: 5,
    markerWidth: 5,
    markerHeight: 5,
    orient: "auto",
  });
  marker.append(element("path", { d: "M0,0 L10,5 L0,10 z" }));
  const defs = element("defs", {});
  defs.append(marker);
  svg.append(defs);
  board.append(svg);
  return svg;
}

// The links drawn, stopped short of each candidate's digit; none, no drawing.
export function drawLinks(board, links) {
  let svg = board.querySelector(":scope > svg.hint-links");
  const key = JSON.stringify(links);
  if (!links.length) {
    if (svg) svg.remove();
    return;
  }
  if (svg && svg.dataset.drawn === key) return;
  if (!svg) svg = overlay(board);
  svg.querySelectorAll("[data-hint-link]").forEach((line) => line.remove());
  for (const link of links) {
    const [x1, y1] = spot(link.from);
    const [x2, y2] = spot(link.to);
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    const gap = Math.min(12, length / 3);
    const [dx, dy] = [((x2 - x1) / length) * gap, ((y2 - y1) / length) * gap];
    svg.append(
      element("line", {
        x1: x1 + dx,
        y1: y1 + dy,
        x2: x2 - dx,
        y2: y2 - dy,
        "data-hint-link": link.kind,
        "data-from": link.from,
        "data-to": link.to,
        "marker-end": "url(#hint-arrow)",
      }),
    );
  }
  svg.dataset.drawn = key;
}
