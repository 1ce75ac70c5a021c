// The durable side of the page: each game's changes not yet saved on the server, the
// board as last drawn and the server's last state, kept in the browser's storage
// (localStorage: written at once, before a change is sent, and still there after the tab
// is closed, reloaded or killed). Each change has a client id, this browser's id and a
// counter, so that the server stores it once however often it is sent.
//
// Imports nothing. The offline page (static/js/pwa.js) reads the same records.

const PREFIX = "sudoku.game.";
const DEVICE = "sudoku.device";
const COUNTER = "sudoku.counter";

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage refused (a private mode, say): the page still plays, unsaved on reload
  }
}

function randomId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(36).padStart(2, "0")).join("").slice(0, 20);
}

// This browser's id, made once.
export function deviceId() {
  const store = storage();
  let id = store && store.getItem(DEVICE);
  if (!id || !/^[A-Za-z0-9_-]{8,40}$/.test(id)) {
    id = randomId();
    if (store) store.setItem(DEVICE, id);
  }
  return id;
}

let fallbackCounter = 0;

// A new client id: unique for this browser (the counter only grows).
export function nextId(device) {
  const store = storage();
  const last = Number((store && store.getItem(COUNTER)) || fallbackCounter) || 0;
  const next = last + 1;
  fallbackCounter = next;
  if (store) store.setItem(COUNTER, String(next));
  return `${device}-${next}`;
}

export function readGame(id) {
  const store = storage();
  if (!store) return null;
  try {
    return JSON.parse(store.getItem(PREFIX + id) || "null");
  } catch {
    return null;
  }
}

// The record: {state, board, queue, url, title, savedAt}. False when it could not be kept.
export function writeGame(id, record) {
  const store = storage();
  if (!store) return false;
  try {
    store.setItem(PREFIX + id, JSON.stringify({ ...record, savedAt: Date.now() }));
    return true;
  } catch {
    return false; // storage full
  }
}

export function forgetGame(id) {
  const store = storage();
  if (store) store.removeItem(PREFIX + id);
}

// Every game kept on this device: [{id, ...record}], the most recent first.
export function keptGames() {
  const store = storage();
  if (!store) return [];
  const found = [];
  for (let k = 0; k < store.length; k++) {
    const key = store.key(k);
    if (!key || !key.startsWith(PREFIX)) continue;
    try {
      found.push({ id: key.slice(PREFIX.length), ...JSON.parse(store.getItem(key)) });
    } catch {
      // a record that cannot be read is skipped
    }
  }
  return found.sort((a, b) => (b.savedAt || 0) - (a.savedAt || 0));
}

// At log-out: every game kept here is forgotten, except changes not yet sent, which wait
// for their player to open the game again.
export function forgetAll() {
  for (const kept of keptGames()) {
    if (!(kept.queue || []).length) forgetGame(kept.id);
  }
}
