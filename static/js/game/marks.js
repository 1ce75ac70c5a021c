// What a hint or a walkthrough step marks on the board, and putting a hint away. Drawing
// reads these; the hint panel (hints.js) sets them. Imports only the state.

import { $, announce, board, game } from "./state.js";

export const list = (value) => (Array.isArray(value) ? value.filter(Number.isInteger) : []);

// The cells the hint or the walkthrough draws: cell -> "region" | "cause" | "target"
// (target over cause, cause over region).
export function hintCells() {
  const roles = new Map();
  const mark = (cells, role) => cells.forEach((c) => roles.set(c, role));
  if (game.walk) {
    const step = game.walk.path[game.walk.index];
    mark(list(step.cells), "cause");
    mark(list((step.placements || []).map(([c]) => c)), "target");
    return roles;
  }
  const hint = game.hint;
  if (!hint) return roles;
  mark(regionOf(hint), "region");
  mark(list(hint.cause), "cause");
  mark(targets(hint), "target");
  return roles;
}

export function regionOf(hint) {
  return list(hint.region);
}

export function targets(hint) {
  if (Array.isArray(hint.target)) return list(hint.target);
  return hint.level >= 2 ? list(hint.cells) : []; // an older answer: the cells involved
}

// The hint put away: its panel and its drawing on the board.
export function clearHint() {
  if (game.hint) announce("");
  game.hint = null;
  const panel = $("[data-hint-panel]");
  panel.hidden = true;
  delete panel.dataset.hintLevel;
  delete panel.dataset.technique;
}

// Keeps the board and a panel under it on the screen together, the board first: on a phone
// the panel sits right under the board, and the page scrolls no further than the board's top.
// With remember, where the page was before it scrolled is kept for scrollBack.
let scrolledFrom = null;

export function keepInView(panel, { remember = false } = {}) {
  requestAnimationFrame(() => {
    const header = document.querySelector(".site-header");
    const top = header && getComputedStyle(header).position === "sticky" ? header.getBoundingClientRect().bottom : 0;
    const boardBox = board.getBoundingClientRect();
    const panelBox = panel.getBoundingClientRect();
    let delta = 0;
    if (panelBox.bottom > window.innerHeight) delta = panelBox.bottom - window.innerHeight + 8;
    delta = Math.min(delta, boardBox.top - top - 4); // the board's top stays in sight
    if (boardBox.top < top) delta = boardBox.top - top - 4;
    if (!delta) return;
    if (remember && scrolledFrom === null) scrolledFrom = window.scrollY;
    window.scrollBy({ top: delta, behavior: "instant" });
  });
}

// The page back where it was before a remembered keepInView: a closed hint gives the
// game's header (time, help, saving) back to a screen that had room for it.
export function scrollBack() {
  if (scrolledFrom === null) return;
  window.scrollTo({ top: scrolledFrom, behavior: "instant" });
  scrolledFrom = null;
}
