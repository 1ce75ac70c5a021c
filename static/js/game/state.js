// The game's state as the page holds it, and the queue that talks to the server.
//
// Requests go out one at a time, each with the version of the state the server last sent.
// While they wait, the digits typed show at once (and later keys are judged against them).
// A 409 for a stale version means another window moved first: the server's state comes
// back and what was queued behind is dropped, never applied to a board it was not meant for.

export const root = document.querySelector("[data-game]");
export const api = root.dataset.api;
export const csrf = document.querySelector('meta[name="csrf-token"]').content;
export const board = root.querySelector("[data-board]");
export const cells = [...board.querySelectorAll("[data-cell]")];
export const $ = (selector) => root.querySelector(selector);
// Which cells see which: the engine's geometry, sent with the page.
export const PEERS = JSON.parse(document.getElementById("board-peers").textContent).map((p) => new Set(p));
const CLOCK_ONLY = new Set(["/pause", "/resume"]);

const initial = JSON.parse(document.getElementById("game-state").textContent);

// Everything the page knows, in one place the other modules read and change.
export const game = {
  state: initial,
  received: performance.now(),
  selected: Math.max(0, initial.puzzle.indexOf("0")),
  notesMode: false,
  digitMode: 0, // a digit chosen first, placed in each cell tapped next (0: none)
  revealed: new Set(), // cells revealed from this page
  hint: null, // the server's hint object, as told (see hints.js)
  checkCell: null,
  walk: null, // {path, index}
  broken: false, // the page lost its session: it must be reloaded
  wasPlaying: initial.status === "playing",
  manualPause: false, // the player paused by hand (as opposed to the page being hidden)
  active: true, // someone used the page since it last told the server they are there
};

// What the other modules do when the state changes or an answer carries more than a state.
export const hooks = {
  render() {},
  boardChanged() {},
  answered() {},
};

const queue = []; // {path, body, cell?, value?, optional?}
let sending = false;
const pending = new Map(); // cell -> value typed but not yet saved

export function valueAt(i) {
  return pending.has(i) ? pending.get(i) : Number(game.state.values[i]);
}

export function isPending(i) {
  return pending.has(i);
}

export async function request(path, body, method = "POST") {
  const response = await fetch(api + path, {
    method,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
    body: method === "POST" ? JSON.stringify(body || {}) : undefined,
    credentials: "same-origin",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { error: `The server answered ${response.status}.` };
  }
  return { ok: response.ok, status: response.status, data };
}

export function accept(next) {
  if (!next || typeof next.values !== "string") return;
  const changed = next.version !== game.state.version;
  game.state = next;
  game.received = performance.now();
  if (changed) hooks.boardChanged();
  hooks.render();
}

// `change` is a digit shown at once ({cell, value}); `optional` marks an endpoint the
// server may not have yet: its 404 is said, and does not end the page.
export function send(path, body = {}, change = null, optional = false) {
  if (game.broken) return;
  const item = { path, body, optional, ...(change || {}) };
  if (change) pending.set(change.cell, change.value);
  queue.push(item);
  if (!CLOCK_ONLY.has(path)) setSaved("Saving…");
  pump();
}

function settle(item) {
  if (item.cell !== undefined && !queue.some((q) => q.cell === item.cell)) pending.delete(item.cell);
}

async function pump() {
  if (sending) return;
  sending = true;
  try {
    while (queue.length && !game.broken) {
      const item = queue[0];
      const sent = game.state.version;
      let result;
      try {
        result = await request(item.path, { ...item.body, version: sent });
      } catch {
        setSaved("Offline — retrying");
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await resync(item, sent);
        continue;
      }
      queue.shift();
      settle(item);
      handle(item, result, sent);
    }
  } finally {
    sending = false;
    if (!game.broken) setSaved(game.state.status === "playing" && !queue.length ? "Saved" : "");
    hooks.render();
  }
}

// After a request that got no answer: if the server has moved on and shows the change,
// it got it; otherwise the request goes out again, on the board as it now stands.
async function resync(item, sent) {
  try {
    const result = await request("", null, "GET");
    if (!result.ok) return;
    const moved = result.data.version > sent && !CLOCK_ONLY.has(item.path);
    const shows = item.cell === undefined || Number(result.data.values[item.cell]) === item.value;
    if (moved && shows) {
      queue.shift();
      settle(item);
    }
    accept(result.data);
  } catch {
    // Still offline: the loop tries again.
  }
}

function handle(item, result, sent) {
  const { ok, status, data } = result;
  if (ok) {
    accept(data);
    hooks.answered(item, data);
    return;
  }
  if (!data.state && item.optional && (status === 404 || status === 405)) {
    say(data.error || "That is not available yet.");
    return;
  }
  if (!data.state) {
    // A 403 (the session changed: logged in or out in another tab) or a 404.
    game.broken = true;
    queue.length = 0;
    pending.clear();
    setSaved("Not saved");
    say(`${data.error || "This page is out of date."} Reload the page to go on.`, true);
    return;
  }
  if (status === 409 && data.state.version !== sent) {
    // Another window changed the game: what was queued was meant for the old board.
    const clock = queue.filter((q) => CLOCK_ONLY.has(q.path));
    queue.length = 0;
    queue.push(...clock);
    pending.clear();
  }
  accept(data.state);
  say(data.error);
}

export function setSaved(text) {
  $("[data-saved]").textContent = text;
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
