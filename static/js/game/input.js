// Input: the pointer, the keyboard, the pad and the controls.

import { closeHint, closeWalk, showHow, walkTo } from "./hints.js";
import { $, board, canChange, cells, game, root, say, send, valueAt } from "./state.js";
import { render } from "./draw.js";

// Pause and resume go through the same queue as moves, so they reach the server in the
// order they happened (a quick tab switch right after loading must end up paused).
export function setPaused(paused, manual = false) {
  if (game.state.status !== "playing" || game.broken) return;
  if (manual) game.manualPause = paused;
  send(paused ? "/pause" : "/resume");
}

function select(i) {
  game.selected = Math.max(0, Math.min(80, i));
  render();
  cells[game.selected].focus();
}

function input(digit, asNote = game.notesMode) {
  if (!canChange()) return;
  const { selected, state } = game;
  if (state.puzzle[selected] !== "0") return say("That is a given: it cannot change.");
  say("");
  if (asNote) {
    if (valueAt(selected)) return say("Clear the digit first to write notes in this cell.");
    send("/moves", { cell: selected, digit, mode: "note" });
  } else {
    const value = valueAt(selected) === digit ? 0 : digit;
    send("/moves", { cell: selected, digit: value, mode: "value" }, { cell: selected, value });
  }
}

function erase() {
  const { selected, state } = game;
  if (!canChange() || state.puzzle[selected] !== "0") return;
  if (!valueAt(selected) && !(state.notes[selected] || []).length) return;
  send("/moves", { cell: selected, digit: 0, mode: "value" }, { cell: selected, value: 0 });
}

const actions = {
  undo: () => canChange() && send("/undo"),
  redo: () => canChange() && send("/redo"),
  erase,
  notes: () => {
    game.notesMode = !game.notesMode;
    render();
  },
  hint: () => canChange() && send("/hint", { level: 1 }),
  "hint-more": () => canChange() && send("/hint", { level: Math.min(3, (game.hint ? game.hint.level : 0) + 1) }),
  "hint-close": closeHint,
  pause: () => setPaused(true, true),
  resume: () => setPaused(false, true),
  check: () => canChange() && send("/check"),
  reveal: () => {
    if (!canChange()) return;
    if (game.state.puzzle[game.selected] !== "0") return say("Select an empty or wrong cell to reveal.");
    if (confirm("Reveal this cell? The game will count as assisted.")) send("/reveal", { cell: game.selected });
  },
  "give-up": () => {
    if (game.state.status === "playing" && !game.broken && confirm("Give up and see the solution?")) send("/give-up");
  },
  "show-how": showHow,
  "walk-prev": () => walkTo(game.walk.index - 1),
  "walk-next": () => walkTo(game.walk.index + 1),
  "walk-close": closeWalk,
};

// Keys act on the board while the focus is in the game (board, pad, toolbar) or nowhere in
// particular; in a form or a panel they keep their usual meaning, and the arrow keys move
// on the board only when the focus is on it.
function keysForGame(target) {
  if (target === document.body) return true;
  return root.contains(target) && !target.closest(".panel, input, select, textarea");
}

function onKey(event) {
  if (event.altKey || !keysForGame(event.target)) return;
  const key = event.key;
  const { selected } = game;
  if (event.ctrlKey || event.metaKey) {
    // Ctrl on most keyboards, Cmd on a Mac.
    if (event.repeat) return;
    if (key === "z" || key === "Z") {
      event.preventDefault();
      return event.shiftKey ? actions.redo() : actions.undo();
    }
    if (key === "y" || key === "Y") {
      event.preventDefault();
      return actions.redo();
    }
    return;
  }
  const onBoard = event.target === document.body || board.contains(event.target);
  const moves = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 };
  if (key in moves && onBoard) {
    event.preventDefault();
    const step = moves[key];
    let next = selected + step;
    if (step === -1 && selected % 9 === 0) next = selected + 8;
    if (step === 1 && selected % 9 === 8) next = selected - 8;
    if (next < 0) next += 81;
    if (next > 80) next -= 81;
    return select(next);
  }
  if ((key === "Home" || key === "End") && onBoard) {
    event.preventDefault();
    return select(selected - (selected % 9) + (key === "End" ? 8 : 0));
  }
  if (event.repeat) return; // a key held down enters its digit once
  const code = /^(Digit|Numpad)([0-9])$/.exec(event.code || "");
  const digit = /^[0-9]$/.test(key) ? Number(key) : code ? Number(code[2]) : null;
  if (digit !== null) {
    event.preventDefault();
    return digit === 0 ? erase() : input(digit, game.notesMode !== event.shiftKey);
  }
  if (key === "Backspace" || key === "Delete") {
    event.preventDefault();
    return erase();
  }
  if (key === "n" || key === "N") return actions.notes();
  if (key === "p" || key === "P") return game.manualPause ? actions.resume() : actions.pause();
}

export function listen() {
  root.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (cell) return select(Number(cell.dataset.cell));
    const digit = event.target.closest("[data-digit]");
    if (digit) return input(Number(digit.dataset.digit));
    const action = event.target.closest("[data-action]");
    if (action && actions[action.dataset.action]) actions[action.dataset.action]();
  });
  document.addEventListener("keydown", onKey);
}
