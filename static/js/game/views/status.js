// The game's header and message lines drawn from the model: the status (the hook
// data-status says what the server judged), the counters, the timer, the saving line, the
// message line and the live region a hint is read out in. Only draws.
//
// Imports the clock's face (../clock.js) and the catalog's words (../i18n.js).

import { clock } from "../clock.js";
import { pgettext } from "../i18n.js";

const statusWords = (status) =>
  ({ playing: pgettext("game status", "Playing"), solved: pgettext("game status", "Solved"), gave_up: pgettext("game status", "Gave up") })[status];

export function drawStatus(root, model) {
  const $ = (selector) => root.querySelector(selector);
  const { state } = model;
  const statusEl = $("[data-status]");
  // A solve seen on this device alone is still "playing" to the hook.
  statusEl.dataset.status = state.unconfirmed ? "playing" : state.status;
  statusEl.textContent = state.status === "playing" && state.paused ? pgettext("game status", "Paused") : statusWords(state.status);
  const mistakes = $("[data-mistakes]");
  // Shown only in a game played with mistakes marked, in play and at the end alike.
  mistakes.closest(".counter").hidden = state.mistakes === null || !state.marked;
  mistakes.textContent = String(state.mistakes ?? 0);
  $("[data-hints]").textContent = String(state.hints + state.reveals);
  drawTimer(root, model);
}

export function drawTimer(root, model) {
  root.querySelector("[data-timer]").textContent = clock(model.seconds());
}

// The saving line: the whole words stay the element's text (for screen readers and wider
// screens); `short` is what a phone's one-line header has room for. A wait's countdown is
// read out once: its next seconds are drawn with the live region quiet.
export function drawSaved(root, [text, short]) {
  const saved = root.querySelector("[data-saved]");
  const count = / \d+ s$/;
  const ticked = saved.textContent !== text && saved.textContent.replace(count, "") === text.replace(count, "");
  if (ticked) saved.setAttribute("aria-live", "off");
  else saved.removeAttribute("aria-live");
  saved.textContent = text;
  if (short) saved.dataset.short = short;
  else delete saved.dataset.short;
}

// The message line (a live region): `alert` for what must interrupt.
export function drawMessage(root, text, alert = false) {
  const message = root.querySelector("[data-message]");
  message.textContent = text || "";
  message.setAttribute("role", alert ? "alert" : "status");
}

// A live region's words, read out once: set anew after a moment (so that the same words
// twice are read twice), never appended.
export function announcer(region) {
  let pending = null;
  return (text) => {
    clearTimeout(pending);
    region.textContent = "";
    if (text) pending = setTimeout(() => (region.textContent = text), 50);
  };
}
