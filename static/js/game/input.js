// Input: the pointer, the keyboard, the pad and the controls.
//
// Two ways to place a digit, switched by the visible input switch (kept as the player's
// `digit_first` setting): cell first (select a cell, then a digit) or digit first (choose
// a digit, then tap the cells it goes in; tap the chosen digit again, or press Esc, to
// stop). In cell first, a digit tapped with no cell selected, or held, is chosen too. Tap
// the selected cell again, or anywhere off the board and the pad, to deselect it.

import { replayActions } from "./replay.js";
import { render } from "./draw.js";
import { share } from "./end.js";
import { closeHint, closeWalk, showHow, walkTo } from "./hints.js";
import { $, canChange, cells, csrf, game, root, say, send, valueAt, where } from "./state.js";

const HOLD_MS = 450;

// Pause and resume go through the same queue as moves, so they reach the server in the
// order they happened (a quick tab switch right after loading must end up paused).
export function setPaused(paused, manual = false) {
  if (game.state.status !== "playing" || game.broken) return;
  if (manual) game.manualPause = paused;
  send(paused ? "/pause" : "/resume");
}

function pausedNow() {
  return game.state.status === "playing" && (game.state.paused || game.manualPause);
}

export function select(i, focus = true) {
  game.selected = i === null ? null : Math.max(0, Math.min(80, i));
  render();
  if (focus && game.selected !== null) cells[game.selected].focus();
}

function isGiven(i) {
  return game.state.puzzle[i] !== "0";
}

function input(digit, asNote = game.notesMode) {
  if (!canChange()) return;
  const { selected } = game;
  if (selected === null) return chooseDigit(digit);
  if (isGiven(selected)) return say("That is a given: it cannot change.");
  say("");
  if (asNote) {
    if (valueAt(selected)) return say("Clear the digit first to write notes in this cell.");
    send("/moves", { cell: selected, digit, mode: "note" });
  } else {
    const value = valueAt(selected) === digit ? 0 : digit;
    send("/moves", { cell: selected, digit: value, mode: "value" }, { cell: selected, value });
  }
}

// Digit first: the digit stays chosen, and each cell tapped takes it.
function chooseDigit(digit) {
  game.digitMode = game.digitMode === digit ? 0 : digit;
  say(game.digitMode ? `${digit} chosen: tap the cells it goes in. Tap ${digit} again to stop.` : "");
  render();
}

// The cell last selected by a tap: tapping it again lets go of it (a selection made with the
// keys, or the page's own starting one, is not let go of by a first tap).
let tapped = null;

function tapCell(i) {
  const { digitMode } = game;
  if (!digitMode && game.selected === i && tapped === i) {
    tapped = null;
    return select(null, false);
  }
  tapped = i;
  select(i);
  if (digitMode && canChange() && !isGiven(i)) input(digitMode);
}

function tapDigit(digit) {
  if (game.digitMode || game.digitFirst) return chooseDigit(digit); // another, or the same to stop
  if (game.selected === null || isGiven(game.selected)) return chooseDigit(digit);
  input(digit);
}

// The input switch: digit first or cell first, kept as a setting for the next games.
game.digitFirst = root.dataset.digitFirst === "true";
function drawSwitch() {
  const button = $('[data-action="input-mode"]');
  button.setAttribute("aria-checked", String(game.digitFirst));
  button.querySelector("[data-input-mode-state]").textContent = game.digitFirst ? "Digit first" : "Cell first";
}
function switchInput() {
  game.digitFirst = !game.digitFirst;
  if (!game.digitFirst) game.digitMode = 0;
  say(game.digitFirst ? "Digit first: choose a digit, then tap its cells." : "Cell first: tap a cell, then its digit.");
  drawSwitch();
  render();
  const body = new URLSearchParams({ digit_first: game.digitFirst ? "1" : "0" });
  fetch(root.dataset.inputUrl, { method: "POST", body, headers: { "X-CSRFToken": csrf }, credentials: "same-origin" }).catch(() => {});
}

function erase() {
  const { selected, state } = game;
  if (!canChange() || selected === null || isGiven(selected)) return;
  if (!valueAt(selected) && !(state.notes[selected] || []).length) return;
  send("/moves", { cell: selected, digit: 0, mode: "value" }, { cell: selected, value: 0 });
}

// An in-page question with OK and Cancel (a <dialog>): resolves to true for OK.
function ask(text, ok) {
  const dialog = $("[data-confirm]");
  $("[data-confirm-text]").textContent = text;
  $("[data-confirm-ok]").textContent = ok;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
    $("[data-confirm-cancel]").focus();
  });
}

async function reveal() {
  if (!canChange()) return;
  const cell = game.selected;
  if (cell === null || isGiven(cell)) return say("Select an empty or wrong cell to reveal.");
  if (!(await ask(`Reveal the digit in ${where(cell)}? The game will count as helped.`, "Reveal"))) return;
  send("/reveal", { cell });
}

// A check counts as help: asked first while the game could still be a clean solve.
async function check() {
  if (!canChange()) return;
  const { state } = game;
  const clean = state.hints + state.reveals === 0 && !state.marked;
  const text = "Check your board for mistakes? The game will count as helped: no leaderboard, no best time.";
  if (clean && !(await ask(text, "Check"))) return;
  send("/check");
}

async function giveUp() {
  if (game.state.status !== "playing" || game.broken) return;
  if (await ask("Give up and see the solution? The game ends here.", "Give up")) send("/give-up");
}

// Undo and redo only when there is something to take back or do again: no request else.
export const actions = {
  undo: () => canChange() && game.state.can_undo && send("/undo"),
  redo: () => canChange() && game.state.can_redo && send("/redo"),
  "input-mode": switchInput,
  erase,
  notes: () => {
    game.notesMode = !game.notesMode;
    render();
  },
  "fill-notes": () => canChange() && send("/fill-notes", {}, null, true),
  hint: () => canChange() && send("/hint", { level: 1 }),
  "hint-more": () => canChange() && send("/hint", { level: Math.min(3, (game.hint ? game.hint.level : 0) + 1) }),
  "apply-hint": () => canChange() && game.hint && send("/apply-hint", {}, null, true),
  "hint-close": closeHint,
  pause: () => setPaused(!pausedNow(), true),
  resume: () => setPaused(false, true),
  check,
  reveal,
  "give-up": giveUp,
  "show-how": showHow,
  "walk-prev": () => walkTo(game.walk.index - 1),
  "walk-next": () => walkTo(game.walk.index + 1),
  "walk-close": closeWalk,
  share,
  print: () => window.print(),
  ...replayActions,
};

// Keys act on the board while the focus is anywhere in the game or nowhere in particular:
// after a pad button or a hint's button too. In a dialog or a form field they keep their
// usual meaning.
export function keysForGame(target) {
  if (target === document.body || target === document.documentElement) return true;
  return root.contains(target) && !target.closest("dialog, input, select, textarea");
}

const MOVES = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 };

function onKey(event) {
  if (event.altKey || !keysForGame(event.target)) return;
  const key = event.key;
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
  if (game.walk) {
    // The walkthrough: the arrows step through it.
    if (key === "ArrowLeft" || key === "ArrowRight") {
      event.preventDefault();
      return walkTo(game.walk.index + (key === "ArrowRight" ? 1 : -1));
    }
    if (key === "Escape") return closeWalk();
    return;
  }
  const selected = game.selected ?? 0;
  if (key in MOVES) {
    event.preventDefault();
    if (game.selected === null) return select(selected);
    const step = MOVES[key];
    let next = selected + step;
    if (step === -1 && selected % 9 === 0) next = selected + 8;
    if (step === 1 && selected % 9 === 8) next = selected - 8;
    if (next < 0) next += 81;
    if (next > 80) next -= 81;
    return select(next);
  }
  if (key === "Home" || key === "End") {
    event.preventDefault();
    return select(selected - (selected % 9) + (key === "End" ? 8 : 0));
  }
  if (key === "Escape") {
    if (game.digitMode) return chooseDigit(game.digitMode);
    if (game.hint) return closeHint();
    return select(null, false);
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
  if (key === "f" || key === "F") return actions["fill-notes"]();
  if (key === "p" || key === "P") return actions.pause();
}

// Holding a pad digit chooses it (digit first); the click that ends the hold does no more.
function listenForHolds() {
  let timer = null;
  let held = null;
  root.addEventListener("pointerdown", (event) => {
    const button = event.target.closest("[data-digit]");
    if (!button || button.disabled) return;
    held = null;
    timer = setTimeout(() => {
      held = button;
      chooseDigit(Number(button.dataset.digit));
    }, HOLD_MS);
  });
  const cancel = () => clearTimeout(timer);
  for (const name of ["pointerup", "pointercancel", "pointerleave"]) root.addEventListener(name, cancel);
  root.addEventListener("contextmenu", (event) => {
    if (event.target.closest("[data-digit]")) event.preventDefault(); // a long press on a phone
  });
  root.addEventListener(
    "click",
    (event) => {
      const button = event.target.closest("[data-digit]");
      if (button && button === held) {
        held = null;
        event.stopImmediatePropagation();
      }
    },
    true,
  );
}

export function listen() {
  listenForHolds();
  drawSwitch();
  // A tap anywhere off the board and the controls lets go of the selected cell.
  document.addEventListener("click", (event) => {
    if (game.selected === null || game.digitMode) return;
    if (event.target.closest("[data-board], .controls, .sheet, dialog, a, button, input, label")) return;
    select(null, false);
  });
  root.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (cell) return tapCell(Number(cell.dataset.cell));
    const digit = event.target.closest("[data-digit]");
    if (digit) return tapDigit(Number(digit.dataset.digit));
    const action = event.target.closest("[data-action]");
    if (action && actions[action.dataset.action]) actions[action.dataset.action]();
  });
  document.addEventListener("keydown", onKey);
}
