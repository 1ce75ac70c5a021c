// Input: the pointer, the keyboard, the pad and the controls.
//
// Two ways to place a digit: select a cell, then a digit (cell first); or choose a digit
// first (tap it with no cell selected, or hold it), then tap the cells it goes in; tap the
// chosen digit again, or press Esc, to leave that mode. Esc also clears the selection.

import { replayActions } from "./replay.js";
import { render } from "./draw.js";
import { share } from "./end.js";
import { closeHint, closeWalk, showHow, walkTo } from "./hints.js";
import { $, canChange, cells, game, root, say, send, valueAt, where } from "./state.js";

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

function tapCell(i) {
  const { digitMode } = game;
  select(i);
  if (digitMode && canChange() && !isGiven(i)) input(digitMode);
}

function tapDigit(digit) {
  if (game.digitMode) return chooseDigit(digit); // another digit, or the same one to stop
  if (game.selected === null || isGiven(game.selected)) return chooseDigit(digit);
  input(digit);
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

async function giveUp() {
  if (game.state.status !== "playing" || game.broken) return;
  if (await ask("Give up and see the solution? The game ends here.", "Give up")) send("/give-up");
}

export const actions = {
  undo: () => canChange() && send("/undo"),
  redo: () => canChange() && send("/redo"),
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
  check: () => canChange() && send("/check"),
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
function keysForGame(target) {
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
