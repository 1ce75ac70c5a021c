// The game as the page holds it: the server's last state, the board computed in the page
// (board.js) and the changes not yet saved (queue.js, sent by sync.js).
//
// A change (a digit, a note, erase, undo, redo, fill all notes) is applied to the page's
// board, written to the browser's storage and drawn at once; it goes to the server in the
// next batch. The server is the judge: when every change is answered and its board differs
// from the page's, or it refused a change (another device changed that cell), the board
// is redrawn from what it stored, and a refusal is said in words. Help, reveals, pause and
// the end of the game are the server's own calls: they wait until the changes before them
// are saved, and need the network (said so when it is not there).

import { Board } from "./board.js";
import { callApi } from "./http.js";
import { deviceId, forgetGame, nextId, readGame, writeGame } from "./queue.js";
import { Sync } from "./sync.js";

export const root = document.querySelector("[data-game]");
export const api = root.dataset.api;
// The CSRF token (renewed when a page kept offline comes back with an old one).
export let csrf = document.querySelector('meta[name="csrf-token"]').content;
export const board = root.querySelector("[data-board]");
export const cells = [...board.querySelectorAll("[data-cell]")];
export const $ = (selector) => root.querySelector(selector);
// Which cells see which: the engine's geometry, sent with the page.
export const PEERS = JSON.parse(document.getElementById("board-peers").textContent).map((p) => new Set(p));
const CLOCK_ONLY = new Set(["/pause", "/resume"]);
const LOCAL = new Set(["/moves", "/undo", "/redo", "/fill-notes"]);
const prefs = { autoNotes: root.dataset.autoNotes === "true", autoRemove: root.dataset.autoRemove !== "false" };
const gameId = root.dataset.game;
const device = deviceId();

// The server's last word, and what this device kept (a page from the offline cache may be
// older than the state last answered).
const kept = readGame(gameId);
let server = JSON.parse(document.getElementById("game-state").textContent);
if (kept && kept.state && kept.state.version > server.version) server = kept.state;
let queue = (kept && kept.queue) || [];
let local = startingBoard();

function startingBoard() {
  if (kept && kept.board) {
    const restored = Board.restore(server.puzzle, PEERS, kept.board);
    if (queue.length || restored.sameAs(server)) return restored;
  }
  return Board.fromState(server, PEERS);
}

// Everything the page knows, in one place the other modules read and change. `state` is
// the server's state with the page's own board in it.
export const game = {
  state: server,
  received: performance.now(),
  selected: 0,
  notesMode: false,
  digitMode: 0, // a digit chosen first, placed in each cell tapped next (0: none)
  revealed: new Set(), // cells revealed from this page
  hint: null, // the server's hint object, as told (see hints.js)
  checkCell: null,
  walk: null, // {path, index}
  broken: false, // the page lost its session: it must be reloaded
  wasPlaying: server.status === "playing",
  manualPause: false, // the player paused by hand (as opposed to the page being hidden)
  active: true, // someone used the page since it last told the server they are there
};

// What the other modules do when the state changes or an answer carries more than a state.
export const hooks = {
  render() {},
  boardChanged() {},
  answered() {},
};

let pausedHere = null; // a pause or resume made on the page that the server has not answered

function view() {
  const shown = { ...server };
  if (pausedHere !== null && server.status === "playing") shown.paused = pausedHere;
  shown.values = local.grid();
  shown.notes = local.notes;
  shown.complete = local.complete.map((c) => (c ? "1" : "0")).join("");
  shown.conflicts = local.conflicts();
  const playing = server.status === "playing";
  const alone = !queue.length && !local.history.length; // undo and redo are the server's
  shown.can_undo = playing && (local.canUndo() || (alone && !!server.can_undo));
  shown.can_redo = playing && (local.canRedo() || (alone && !!server.can_redo));
  // A digit the server marked wrong is still wrong only while it is still there.
  shown.wrong = (server.wrong || []).filter((i) => shown.values[i] === server.values[i]);
  if (playing && local.solved()) {
    shown.status = "solved"; // the server confirms it, with its clock and its judgement
    shown.unconfirmed = true;
  }
  game.state = shown;
}
view();
game.selected = Math.max(0, server.puzzle.indexOf("0"));

let unkept = false; // the browser's storage refused the last write (full, or turned off)

// Ids this page has seen answered or given up: never taken up again from the storage.
const settled = new Set();

function settle(changes) {
  changes.forEach((c) => settled.add(c.id));
}

function keep() {
  // Another tab on this game may have kept changes of its own since: they are taken up and
  // sent from here too (the server stores each once), so that closing that tab loses none.
  const stored = readGame(gameId);
  const mine = new Set(queue.map((c) => c.id));
  const theirs = ((stored && stored.queue) || []).filter((c) => !mine.has(c.id) && !settled.has(c.id));
  if (theirs.length) queue = [...theirs, ...queue];
  // A game over with nothing left to send needs no keeping: the server has it all.
  if (server.status !== "playing" && !queue.length) return forgetGame(gameId) || true;
  const record = { state: server, board: local.snapshot(), queue, url: location.pathname, title: document.title };
  unkept = !writeGame(gameId, record);
  return !unkept;
}

export function valueAt(i) {
  return local.values[i];
}

// Cells with a change not yet saved on the server.
export function isPending(i) {
  return queue.some((c) => c.cell === i);
}

export function request(path, body, method = "POST") {
  return callApi(api + path, csrf, body, method);
}

// The server's state, as an answer brought it. With nothing waiting to be saved, its board
// is the board (the server is the judge); with changes waiting, the page's board stays
// until they are answered.
export function accept(next, redraw = false) {
  if (!next || typeof next.values !== "string") return;
  const before = game.state.version;
  const moved = next.version !== server.version;
  server = next;
  game.received = performance.now();
  if (redraw || (!queue.length && !sync.sending && !local.sameAs(server))) {
    local = Board.fromState(server, PEERS);
    for (const change of queue) apply(change);
  }
  keep();
  view();
  if (moved || before !== game.state.version) hooks.boardChanged();
  hooks.render();
}

// A queued change carried out on the page's board again (after a redraw from the server).
function apply(change) {
  try {
    if (change.kind === "move") local.move(change.cell, change.digit, change.mode, prefs);
    else if (change.kind === "fill-notes") local.fillNotes();
    else if (change.kind === "undo") local.undo();
    else if (change.kind === "redo") local.redo();
  } catch {
    // the server will refuse it too, and say so
  }
}

function queueChange(kind, fields = {}) {
  const change = { id: nextId(device), kind, ...fields, base: server.version, at: Date.now() };
  queue.push(change);
  keep(); // stored before it is sent
  sync.soon();
}

// A change made on the page: applied, kept, drawn now, sent soon.
function change(path, body) {
  let entry = null;
  try {
    if (path === "/moves") entry = local.move(body.cell, body.digit, body.mode || "value", prefs);
    else if (path === "/fill-notes") entry = local.fillNotes();
    else if (path === "/undo") entry = local.undo();
    else if (path === "/redo") entry = local.redo();
  } catch (error) {
    return say(error.message);
  }
  const kind = { "/moves": "move", "/fill-notes": "fill-notes", "/undo": "undo", "/redo": "redo" }[path];
  const alone = !queue.length && !local.history.length;
  if (!entry && !(alone && ((kind === "undo" && server.can_undo) || (kind === "redo" && server.can_redo)))) return;
  queueChange(kind, kind === "move" ? { cell: body.cell, digit: body.digit, mode: body.mode || "value" } : {});
  if (path === "/fill-notes") say("Every empty cell now holds the digits it can take.");
  view();
  hooks.boardChanged();
  hooks.render();
  showSaved();
}

// `optional` marks an endpoint the server may not have yet: its 404 is said, and does not
// end the page.
export function send(path, body = {}, _change = null, optional = false) {
  if (game.broken) return;
  if (LOCAL.has(path)) return change(path, body);
  if (CLOCK_ONLY.has(path) && (sync.offline || !navigator.onLine)) {
    // Offline, the page pauses on its own (the board hidden); the server's clock goes by
    // its own rules for the time it did not hear from the page.
    pausedHere = path === "/pause";
    view();
    hooks.render();
  }
  calls.push({ path, body, optional });
  runCalls();
}

// The server's own calls (help, reveal, the clock, giving up), one at a time, each once
// the changes made before it are saved.
const calls = [];
let calling = false;
const OFFLINE_WORDS = {
  "/hint": "Hints need the network, and this device is offline. Your moves are kept here.",
  "/apply-hint": "Applying a hint needs the network, and this device is offline.",
  "/check": "Checking the board needs the network, and this device is offline.",
  "/reveal": "Revealing a cell needs the network, and this device is offline.",
  "/give-up": "Giving up needs the network, and this device is offline.",
};

async function runCalls() {
  if (calling) return;
  calling = true;
  try {
    while (calls.length && !game.broken) {
      const item = calls[0];
      if (sync.offline || !navigator.onLine) {
        calls.shift();
        if (OFFLINE_WORDS[item.path]) say(OFFLINE_WORDS[item.path]);
        continue;
      }
      if (queue.length || sync.sending) return; // runs again once the changes are answered
      calls.shift();
      const sent = server.version;
      let result;
      try {
        result = await request(item.path, { ...item.body, version: sent });
      } catch {
        if (OFFLINE_WORDS[item.path]) say(OFFLINE_WORDS[item.path].replace("this device is offline", "the server did not answer"));
        continue;
      }
      handle(item, result);
    }
  } finally {
    calling = false;
    showSaved();
  }
}

function handle(item, result) {
  const { ok, status, data } = result;
  if (CLOCK_ONLY.has(item.path) && !calls.some((c) => CLOCK_ONLY.has(c.path))) pausedHere = null;
  if (ok) {
    accept(data);
    hooks.answered(item, data);
    return;
  }
  if (!data.state && item.optional && (status === 404 || status === 405)) {
    say(data.error || "That is not available yet.");
    return;
  }
  if (!data.state) return lose(data);
  accept(data.state);
  say(data.error);
}

// The page lost its session (logged out or in elsewhere: a 403, a 404): it stops sending.
// The changes stay kept on this device.
function lose(data) {
  game.broken = true;
  sync.stopped = true;
  calls.length = 0;
  setSaved("Not saved", "Unsaved");
  say(`${data.error || "This page is out of date."} Reload the page to go on.`, true);
  hooks.render();
}

const sync = new Sync({
  api,
  csrf,
  device,
  take: () => queue,
  answered(data, sent) {
    const done = new Set([...(data.applied || []), ...(data.refused || []).map((r) => r.id)]);
    settle(queue.filter((c) => done.has(c.id)));
    queue = queue.filter((c) => !done.has(c.id));
    const refused = data.refused || [];
    accept(data.state, refused.length > 0);
    if (refused.length) {
      const words = refused.map((r) => r.reason || `Your change in ${where(r.cell)} was not saved.`);
      say(`${[...new Set(words)].join(" ")} The board shows the game as stored.`, true);
    }
    runCalls();
  },
  failed(status, data, sent) {
    if (data && data.state) {
      // The game is over or set aside: what was sent cannot go in, nor what waits.
      const lost = queue.length;
      settle(queue);
      queue = [];
      accept(data.state, true);
      say(`${data.error || "The game changed."}${lost ? ` ${lost === 1 ? "One change was" : `${lost} changes were`} not saved.` : ""}`, true);
      return runCalls();
    }
    if (status === 400) {
      // The server cannot read these changes: they would be refused again and again.
      const ids = new Set(sent.map((c) => c.id));
      settle(sent);
      queue = queue.filter((c) => !ids.has(c.id));
      say(`${sent.length === 1 ? "A change" : `${sent.length} changes`} could not be saved: ${data.error || "the server refused them"}`, true);
      request("", null, "GET").then((r) => r.ok && accept(r.data, true), () => {});
      return runCalls();
    }
    if (status === 403 && !tokenRenewed) {
      // A page kept offline may carry a token from before a log-in elsewhere: the page
      // as the server now serves it has the current one. Tried once.
      tokenRenewed = true;
      sync.stopped = true; // nothing goes out on the old token meanwhile
      renewToken().then((renewed) => {
        if (!renewed) return lose(data || {});
        sync.stopped = false;
        sync.soon(0);
      });
      return;
    }
    lose(data || {});
  },
  changed: () => showSaved(),
});

let tokenRenewed = false;

async function renewToken() {
  try {
    const response = await fetch(location.pathname, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok) return false;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const meta = page.querySelector('meta[name="csrf-token"]');
    if (!meta || !meta.content || meta.content === csrf) return false;
    csrf = sync.csrf = meta.content;
    return true;
  } catch {
    return false;
  }
}

// Whether everything is saved, and how many changes wait, in words.
function showSaved() {
  if (game.broken) return setSaved("Not saved", "Unsaved");
  const n = queue.length;
  const changes = n === 1 ? "1 change" : `${n} changes`;
  if (sync.offline && n) return setSaved(`Offline: ${changes} ${unkept ? "waiting (this browser's storage is full)" : "kept on this device"}`, `Off ${n}`);
  if (n) return setSaved(`Saving ${changes}…`, `↑ ${n}`);
  if (sync.offline) return setSaved("Offline: all saved", "Off");
  setSaved(server.status === "playing" ? "Saved" : "");
}

// A page closed with changes waiting sends them once more on its way out (the next visit
// sends them anyway; the server stores each once).
window.addEventListener("pagehide", () => {
  if (!queue.length || game.broken || sync.offline) return;
  const body = JSON.stringify({ device, changes: queue.slice(0, 200) });
  fetch(api + "/changes", { method: "POST", keepalive: true, body, credentials: "same-origin", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf } }).catch(() => {});
});

keep();
showSaved();
if (queue.length) sync.soon(0);

// The saving line in words; `short`, what a phone's one-line header has room for (the whole
// words stay the element's text, for screen readers and for wider screens).
export function setSaved(text, short = "") {
  const saved = $("[data-saved]");
  saved.textContent = text;
  if (short) saved.dataset.short = short;
  else delete saved.dataset.short;
}

export function say(text, alert = false) {
  const message = $("[data-message]");
  message.textContent = text || "";
  message.setAttribute("role", alert ? "alert" : "status");
}

// A live region's words, read out once: set anew (after a moment, so that the same words
// twice are read twice), never appended.
let announcing = null;
export function announce(text) {
  const region = $("[data-announce]");
  clearTimeout(announcing);
  region.textContent = "";
  if (text) announcing = setTimeout(() => (region.textContent = text), 50);
}

export function canChange() {
  const { state } = game;
  return state.status === "playing" && !state.paused && !game.walk && !game.broken;
}

export function where(i) {
  return `row ${Math.floor(i / 9) + 1}, column ${(i % 9) + 1}`;
}

export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? `${h}:` : "") + `${mm}:${String(sec).padStart(2, "0")}`;
}
