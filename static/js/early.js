// The game page's first taps. Loaded first, as a classic script in the page's head, so it
// runs before the board is drawn and long before the page's own script (dist/game.js, built
// from game/app.js) has arrived and started on a slow network: until then it keeps every
// tap on a cell, a pad digit, Notes or Erase and every key of the game, in order, and shows
// the cell chosen and the digit placed, as the game would. The game's script takes them (stop()),
// then plays them as if they came now: nothing tapped while the page loads is lost.
//
// Imports nothing; what it keeps is on window.earlyInput. Strict, in a block: nothing else
// of it is global.
"use strict";
{
  const kept = [];
  const ACTIONS = ["notes", "erase"];
  let notes = false; // Notes tapped: the digits tapped are notes, drawn by the game
  const KEYS = /^([0-9]|Backspace|Delete|Escape|Arrow(Up|Down|Left|Right)|Home|End|[nN])$/;

  const root = () => document.querySelector("[data-game]");
  const cellFirst = () => root().dataset.digitFirst !== "true";

  // What the game draws for a tap, drawn at once (the game's first draw replaces it).
  function show(tap) {
    const board = root().querySelector("[data-board]");
    const selected = board.querySelector(".cell.selected");
    if ("cell" in tap) {
      if (selected) selected.classList.remove("selected");
      board.querySelector(`[data-cell="${tap.cell}"]`).classList.add("selected");
    } else if ("digit" in tap && selected && !notes && !selected.hasAttribute("data-given")) {
      selected.querySelector(".value").textContent = String(tap.digit);
    } else if (tap.action === "notes") {
      notes = !notes;
    }
  }

  function onClick(event) {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !root()) return;
    const cell = target.closest("[data-board] [data-cell]");
    const digit = target.closest("[data-digit]");
    const action = target.closest("[data-action]");
    let tap = null;
    if (cell) tap = { cell: Number(cell.dataset.cell) };
    else if (digit) tap = { digit: Number(digit.dataset.digit) };
    else if (action && ACTIONS.includes(action.dataset.action)) tap = { action: action.dataset.action };
    if (!tap) return;
    kept.push(tap);
    if (cellFirst()) show(tap);
  }

  function onKey(event) {
    if (!root() || event.altKey || event.ctrlKey || event.metaKey || !KEYS.test(event.key)) return;
    const target = event.target;
    if (target !== document.body && target !== document.documentElement && !root().contains(target)) return;
    const { key, code, shiftKey } = event;
    kept.push({ key: { key, code, shiftKey } });
    if (key === "n" || key === "N") notes = !notes;
    event.preventDefault();
  }

  document.addEventListener("click", onClick, true);
  document.addEventListener("keydown", onKey, true);

  window.earlyInput = {
    // Stops keeping, and hands over what was kept: {cell}, {digit}, {action} or {key: {key,
    // code, shiftKey}}, oldest first.
    stop() {
      document.removeEventListener("click", onClick, true);
      document.removeEventListener("keydown", onKey, true);
      return kept.splice(0);
    },
  };
}
