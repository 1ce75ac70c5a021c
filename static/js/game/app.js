// The game page's start, and its only entry script: reads what the page was given (the
// server's state, the board's geometry, the player's settings, what this device kept),
// builds the model, the link to the server, the help, the replay, the actions and the
// input, and wires them: the model tells of every change, the views draw it. The page's
// clock, its visibility, its activity and its leaving are heard here too.
//
// Imports the model (model.js), the link (link.js), the API (http.js), the records
// (queue.js), the views (views/), the page's help (hints.js), the replay (replay.js), the
// actions (actions.js), the input (input.js), the first-visit explanation (intro.js) and
// the scrolling (scroll.js).

import { Actions } from "./actions.js";
import { HelpDesk } from "./hints.js";
import { freshToken, GameApi } from "./http.js";
import { Input } from "./input.js";
import { setUpIntro } from "./intro.js";
import { Link } from "./link.js";
import { Game } from "./model.js";
import { pageRecords } from "./queue.js";
import { Replay } from "./replay.js";
import { scroller } from "./scroll.js";
import { drawCells, drawWave } from "./views/cells.js";
import { drawControls } from "./views/controls.js";
import { celebrate, drawEnd, drawPractice } from "./views/end.js";
import { drawPad } from "./views/pad.js";
import { drawHint, drawReplay, drawWalk } from "./views/panels.js";
import { announcer, drawMessage, drawSaved, drawStatus, drawTimer } from "./views/status.js";

const root = document.querySelector("[data-game]");
const board = root.querySelector("[data-board]");
const cells = [...board.querySelectorAll("[data-cell]")];
const pad = [...root.querySelectorAll("[data-digit]")];
const readData = (id) => JSON.parse(document.getElementById(id).textContent);
const flag = (name, otherwise) => (otherwise ? root.dataset[name] !== "false" : root.dataset[name] === "true");

const records = pageRecords(); // another player's records are dropped before any is read
const gameId = root.dataset.game;
const device = records.deviceId();
const api = new GameApi(root.dataset.api, document.querySelector('meta[name="csrf-token"]').content);
const scroll = scroller(board);
const announce = announcer(root.querySelector("[data-announce]"));
const page = { root, cells, scroll, announce };

const served = readData("game-state"); // the state as the server served the page
const game = new Game({
  state: served,
  peers: readData("board-peers"), // the engine's geometry, sent with the page
  prefs: {
    autoNotes: flag("autoNotes"),
    autoRemove: flag("autoRemove", true),
    compactPlaces: flag("compactPlaces"),
    digitFirst: flag("digitFirst"),
  },
  kept: records.readGame(gameId),
  store: {
    read: () => records.readGame(gameId),
    write: (record) => records.writeGame(gameId, { ...record, url: location.pathname, title: document.title }),
    forget: () => records.forgetGame(gameId),
  },
  newId: () => records.nextId(device),
  clock: () => performance.now(),
  now: () => Date.now(),
  on: { changed: draw, say: (text, alert) => drawMessage(root, text, alert), announce },
});

const link = new Link({
  game,
  api,
  device,
  page: `${device}:${Math.round(performance.timeOrigin)}`, // this page, for the clock's calls
  online: () => navigator.onLine,
  every: root.dataset.sendEvery ? Number(root.dataset.sendEvery) : undefined, // the site's SEND_EVERY_MS
  asked: root.dataset.sendEveryAsked ? Number(root.dataset.sendEveryAsked) : undefined, // served strained
  renewToken: async () => {
    const token = await freshToken(location.pathname, api.csrf);
    if (token) api.csrf = token;
    return !!token;
  },
  answered,
  changed: drawSavedLine,
});
const help = new HelpDesk({ model: game, api, page });
const replay = new Replay({ model: game, api, page });
const actions = new Actions({ model: game, link, api, help, replay, page });
const input = new Input({ model: game, link, actions, help, page });

function draw(model, { ended = false } = {}) {
  drawCells(cells, model);
  drawPad(pad, model);
  drawStatus(root, model);
  drawControls(root, board, model);
  drawHint(root, model);
  drawWalk(root, model);
  drawReplay(root, model);
  drawPractice(root, model);
  drawEnd(root, model);
  drawSavedLine();
  if (ended) endedHere(model);
}

function drawSavedLine() {
  const { sync } = link;
  drawSaved(root, game.savedWords(sync.offline, sync.held(), sync.sending));
}

// The game ended on this page, just now.
function endedHere(model) {
  const panel = root.querySelector("[data-finished]");
  if (model.state.status === "solved") celebrate(root);
  panel.focus({ preventScroll: true });
  scroll.keepInView(panel); // as far as the board's top row allows: never under the header
}

// A call's answer, once its state is taken: what it carries besides.
function answered(call, data) {
  if (data.hint) help.showHint(data.hint);
  if (data.check) help.showCheck(data.check);
  if (call.command === "reveal") game.revealedHere(call.body.cell, data.values);
  if (call.command === "apply-hint" && Number.isInteger(data.select)) input.select(data.select);
}

game.keep();
drawSavedLine();
link.start();
window.addEventListener("online", () => link.sync.wentOnline());
window.addEventListener("offline", () => link.sync.wentOffline());

// Leaving the page: changes waiting go once more (the next visit sends them anyway; the
// server stores each once), unless the server asked to wait, and the pause goes out on its
// own, as the calls may not get to run.
window.addEventListener("pagehide", () => {
  if (game.broken) return;
  const { sync } = link;
  if (game.queue.length && !sync.offline && !sync.held()) api.parting("changes", { device, changes: game.queue.slice(0, 200) });
  if (game.state.status === "playing") api.parting("pause", { page: link.page });
});

// The clock, and the seconds left of a wait the server asked for.
let held = false;
setInterval(() => {
  drawTimer(root, game);
  if (held || link.sync.held()) drawSavedLine();
  held = link.sync.held() > 0;
}, 1000);

document.addEventListener("visibilitychange", () => {
  if (game.state.status !== "playing") return;
  if (document.visibilityState === "hidden") actions.setPaused(true);
  else if (!game.manualPause) actions.setPaused(false); // its answer brings the game as it is now
});

// The other device's changes: looked for every few seconds while the page is in front
// (as seldom as the batches go, when a strained server asked for a longer cadence), and
// at once when it comes back (from the browser's history, another window). A pause the
// other device made is taken back while this page is the one in front.
const LOOK_MS = 10000;
const lookEvery = () => Math.max(LOOK_MS, link.sync.every);
async function lookForNews(within = 0) {
  if (document.visibilityState !== "visible") return;
  await link.look(within); // on the clock's turn, not when a batch's answer just brought it
  const { state } = game;
  if (state.status === "playing" && state.paused && !game.manualPause && !link.busy()) actions.setPaused(false);
}
(function lookLater() {
  const every = lookEvery();
  setTimeout(() => {
    lookForNews(every);
    lookLater();
  }, every);
})();
window.addEventListener("focus", () => lookForNews());
window.addEventListener("pageshow", (event) => event.persisted && lookForNews());

// Once a minute, if the player did something on the page, tell the server they are still
// there, unless a batch of changes told it within the minute; a page nobody touches lets
// the server's clock stop after five minutes.
const ACTIVE_MS = 60000;
let active = true;
for (const event of ["keydown", "pointerdown"]) document.addEventListener(event, () => (active = true));
setInterval(() => {
  const { state } = game;
  const shown = document.visibilityState === "visible";
  const told = link.sync.answeredWithin(ACTIVE_MS);
  if (active && shown && !told && state.status === "playing" && !state.paused && !game.manualPause) actions.setPaused(false);
  active = false;
}, ACTIVE_MS);

input.listen();
replay.listen();
setUpIntro(root, () => api.csrf);
drawWave(cells);

// What was tapped and typed before this script ran (static/js/early.js kept it), played
// now, in order, as if it came now.
function playEarlyInput() {
  const early = window.earlyInput;
  if (!early) return;
  for (const tap of early.stop()) {
    if ("cell" in tap) input.tapCell(tap.cell);
    else if ("digit" in tap) input.tapDigit(tap.digit);
    else if (tap.action) input.byName[tap.action]();
    else document.body.dispatchEvent(new KeyboardEvent("keydown", { ...tap.key, bubbles: true, cancelable: true }));
  }
}

// Opening the page means playing: the clock (started when the game was) goes on, unless
// the page opened in a background tab. A page the server has just served, whose clock it
// heard of within the minute (a game just started: its page follows at once), sends no
// word: the clock runs, and the first batch or the minute's word keeps it running.
const HEARD_LATELY = 240; // the seconds the clock runs on then, at least (of 300)
function clockHeardOfLately() {
  const fresh = !served.paused && served.runs_for >= HEARD_LATELY;
  return fresh && navigator.onLine && game.server.version === served.version;
}
game.changed();
if (game.state.status === "playing") {
  const hidden = document.visibilityState !== "visible";
  if (hidden || !clockHeardOfLately()) actions.setPaused(hidden);
}
playEarlyInput();
root.dataset.ready = "true"; // for scripts and tests: the page now takes input
