// The game page: a board that sends every change to the server and shows what it saved.
// state.js holds the state and the request queue, draw.js draws it, input.js takes the
// player's input, hints.js the help, end.js the end of a game.

import { render, tick } from "./draw.js";
import { clearHint, showCheck, showHint } from "./hints.js";
import { listen, select, setPaused } from "./input.js";
import { listenToReplay } from "./replay.js";
import { api, csrf, game, hooks, PEERS, root, say, where } from "./state.js";

hooks.render = render;
hooks.boardChanged = () => {
  // The board changed: a check's mark and a hint's highlight were about the old one.
  game.checkCell = null;
  clearHint();
  sayTrouble();
};

// A conflict or a marked mistake the last change brought is said in words (the message line
// is a live region), not only drawn.
const known = { conflicts: new Set(game.state.conflicts || []), wrong: new Set(game.state.wrong || []) };
function sayTrouble() {
  const { state } = game;
  const conflicts = new Set(state.conflicts || []);
  const wrong = new Set(state.wrong || []);
  const told = [];
  if (state.status !== "playing") {
    known.conflicts = conflicts;
    known.wrong = wrong;
    return; // the end of a game says the rest
  }
  const fresh = [...conflicts].filter((i) => !known.conflicts.has(i));
  // A pair of clashing cells is one conflict: said once, from the cell just filled if it is one.
  const said = new Set();
  for (const i of fresh.sort((a, b) => (b === game.selected) - (a === game.selected))) {
    if (said.has(i)) continue;
    const digit = state.values[i];
    const partners = [...PEERS[i]].filter((j) => state.values[j] === digit && conflicts.has(j));
    partners.forEach((j) => said.add(j));
    said.add(i);
    const others = partners.map(where).join(" and ");
    told.push(`Conflict: the ${digit} in ${where(i)} is also in ${others || "its row, column or box"}.`);
  }
  for (const i of wrong) {
    if (!known.wrong.has(i)) told.push(`The ${state.values[i]} in ${where(i)} is a mistake.`);
  }
  known.conflicts = conflicts;
  known.wrong = wrong;
  if (told.length) say(told.join(" "));
}
hooks.answered = (item, data) => {
  if (data.hint) showHint(data.hint);
  if (data.check) showCheck(data.check);
  if (item.path === "/reveal") {
    const cell = item.body.cell;
    game.revealed.add(cell);
    say(`Revealed: the ${data.values[cell]} in ${where(cell)}.`);
    render();
  }
  if (item.path === "/apply-hint" && Number.isInteger(data.select)) select(data.select);
  if (item.path === "/fill-notes") say("Every empty cell now holds the digits it can take.");
};

setInterval(tick, 1000);

document.addEventListener("visibilitychange", () => {
  if (game.state.status !== "playing") return;
  if (document.visibilityState === "hidden") setPaused(true);
  else if (!game.manualPause) setPaused(false);
});

// Leaving the page: the queue may not get to run, so the pause goes out on its own.
window.addEventListener("pagehide", () => {
  if (game.state.status !== "playing" || game.broken) return;
  fetch(api + "/pause", { method: "POST", keepalive: true, headers: { "X-CSRFToken": csrf }, credentials: "same-origin" });
});

// Once a minute, if the player did something on the page, tell the server they are
// still there; a page nobody touches lets the server's clock stop after five minutes.
for (const event of ["keydown", "pointerdown"]) document.addEventListener(event, () => (game.active = true));
setInterval(() => {
  const { state } = game;
  const shown = document.visibilityState === "visible";
  if (game.active && shown && state.status === "playing" && !state.paused && !game.manualPause) setPaused(false);
  game.active = false;
}, 60000);

listen();
listenToReplay();

// Opening the page means playing: the clock (started when the game was) goes on, unless
// the page opened in a background tab.
render();
if (game.state.status === "playing") setPaused(document.visibilityState !== "visible");
root.dataset.ready = "true"; // for scripts and tests: the page now takes input
