// Keys for every action, and the help overlay (`?`) that lists them with the two ways of
// entering digits. The board's own keys (arrows, digits, N, F, P, Backspace, Ctrl+Z) live
// in input.js; these are the rest. A key acts while the game has the focus, never in a
// dialog or a form field.

import { actions, keysForGame } from "./input.js";
import { $, game } from "./state.js";

const help = $("[data-help]");

function visible(action) {
  const button = $(`[data-action="${action}"]`);
  return button && !button.hidden && !button.disabled && !button.closest("[hidden]");
}

// H opens a hint, then each next level; A applies it; C checks; R reveals; G gives up (each
// asks first where it costs); I switches the input; ? shows the keys.
const KEYS = {
  h: () => (game.hint && game.hint.level < 3 ? actions["hint-more"]() : !game.hint && actions.hint()),
  a: () => visible("apply-hint") && actions["apply-hint"](),
  c: () => visible("check") && actions.check(),
  r: () => visible("reveal") && actions.reveal(),
  g: () => visible("give-up") && actions["give-up"](),
  i: () => actions["input-mode"](),
  "?": () => openHelp(),
};

export function openHelp() {
  if (help.open) return;
  help.showModal();
  help.querySelector("[data-help-close]").focus();
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  if (!keysForGame(event.target)) return;
  const key = event.key === "?" ? "?" : event.key.toLowerCase();
  if (!(key in KEYS) || (event.shiftKey && key !== "?")) return;
  if (game.walk) return; // the walkthrough keeps its own keys
  event.preventDefault();
  KEYS[key]();
}

actions.help = openHelp;
document.addEventListener("keydown", onKey);
