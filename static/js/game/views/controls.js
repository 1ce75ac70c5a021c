// The controls drawn from the model: the toolbar and the other actions (open or not),
// pause and resume, notes mode, the input switch, and the board hidden while paused. Only
// draws.
//
// Imports the marks' controls (paint.js) and the catalog's words (../i18n.js).

import { gettext, pgettext } from "../i18n.js";
import { drawMarkControls } from "./paint.js";

const OPEN_ONLY = ["erase", "notes", "hint", "check", "reveal", "give-up", "fill-notes"];

export function drawControls(root, board, model) {
  const $ = (selector) => root.querySelector(selector);
  const { state } = model;
  const playing = state.status === "playing";
  const paused = playing && state.paused;
  const open = model.open();
  $('[data-action="undo"]').disabled = !open || !state.can_undo;
  $('[data-action="redo"]').disabled = !open || !state.can_redo;
  for (const name of OPEN_ONLY) $(`[data-action="${name}"]`).disabled = !open;
  const pause = $('[data-action="pause"]');
  const pausedNow = model.pausedNow();
  pause.disabled = !playing || model.broken;
  pause.setAttribute("aria-pressed", String(pausedNow));
  pause.title = pausedNow ? gettext("Resume (P)") : gettext("Pause (P)");
  $("[data-pause-label]").textContent = pausedNow ? gettext("Resume") : gettext("Pause");
  $('[data-action="notes"]').setAttribute("aria-pressed", String(model.notesMode));
  $("[data-notes-state]").textContent = model.notesMode ? pgettext("notes", "on") : pgettext("notes", "off");
  $('[data-action="bivalue"]').setAttribute("aria-pressed", String(model.bivalueMode));
  const input = $('[data-action="input-mode"]');
  const digitFirst = model.digitFirstNow();
  input.setAttribute("aria-checked", String(digitFirst));
  input.querySelector("[data-input-mode-state]").textContent = digitFirst ? gettext("Digit first") : gettext("Cell first");
  $("[data-input-help]").textContent = digitFirst ? gettext("Tap a digit, then cells") : gettext("Tap a cell, then a digit");
  drawMarkControls(root, model);
  root.classList.toggle("notes-mode", model.notesMode);
  root.classList.toggle("digit-mode", !!model.digitMode);
  $("[data-pause-cover]").hidden = !paused;
  board.classList.toggle("hidden-board", paused);
  board.setAttribute("aria-hidden", String(paused));
  board.inert = paused; // nothing in it takes the focus while it is hidden
  root.classList.toggle("over", !playing);
  root.classList.toggle("walking", !!model.walk);
}
