// The durable side of the page: each game's changes not yet saved on the server, the
// board as last drawn and the server's last state, kept in the browser's storage
// (localStorage: written at once, before a change is sent, and still there after the tab
// is closed, reloaded or killed). Each change has a client id, this browser's id and a
// counter, so that the server stores it once however often it is sent.
//
// The records belong to one owner at a time, as the server names them (the owner mark on
// the page's <html>, see puzzles/accounts/owners.py): one browser may serve several
// players in turn. When the records are opened, before any is read or drawn, a page of
// another owner than the records' (another account logged in, or the last one's session
// ended elsewhere) drops every record of the last one, unsent changes included (what the
// next player cannot send, and must not read); so does a session past its end. Each
// record carries its owner's mark too, and a page reads and writes its own owner's only.
//
// `Records` (`openRecords`) takes the storage and the page's owner as arguments, so a test
// hands in its own; `pageRecords` opens the page's own, once, the first time a script of
// the page asks (static/js/pwa.js, on every page, asks as it loads), so nothing is read
// as the module loads. Imports nothing. The offline page reads the same records.

const PREFIX = "sudoku.game.";
const DEVICE = "sudoku.device";
const COUNTER = "sudoku.counter";
const OWNER = "sudoku.owner"; // {mark, expires, issued}: whose records these are
const PLAYER = "sudoku.player"; // {mark, name}: the name the owner logged in with

function ownerOfRecords(store) {
  try {
    const owner = JSON.parse(store.getItem(OWNER) || "null");
    return owner && typeof owner.mark === "string" ? owner : null;
  } catch {
    return null;
  }
}

// Every record but those of `mark`'s owner, forgotten.
function dropRecordsBut(store, mark) {
  const keys = [];
  for (let k = 0; k < store.length; k++) {
    const key = store.key(k);
    if (key && key.startsWith(PREFIX)) keys.push(key);
  }
  for (const key of keys) {
    let owner = null;
    try {
      owner = JSON.parse(store.getItem(key)).owner;
    } catch {
      // unreadable: nobody's
    }
    if (mark === null || owner !== mark) store.removeItem(key);
  }
  if (mark === null || nameKept(store).mark !== mark) store.removeItem(PLAYER);
}

function nameKept(store) {
  try {
    return JSON.parse(store.getItem(PLAYER)) || {};
  } catch {
    return {};
  }
}

// The owner settled as the records open. True when this page is an old copy of another
// owner's page (the records are left alone, and the page is asked for again).
function settleOwner(store, page, fromHistory, now) {
  if (!store) return false;
  try {
    const known = ownerOfRecords(store);
    if (page && known && known.mark !== page.mark) {
      if (page.issued < known.issued && fromHistory) return true;
    }
    if (page && (!known || known.mark !== page.mark)) {
      dropRecordsBut(store, page.mark);
      store.setItem(OWNER, JSON.stringify(page));
    } else if (page && page.issued > known.issued) {
      store.setItem(OWNER, JSON.stringify(page)); // the latest word on when the session ends
    }
    const owner = ownerOfRecords(store);
    // Records whose owner is unknown (kept before owners were) or whose session has run
    // out (the device's clock against the server's word) are nobody's to show.
    if (!owner || owner.expires * 1000 <= now()) {
      dropRecordsBut(store, null);
      store.removeItem(OWNER);
    }
  } catch {
    // storage full or refused: nothing more can be kept either
  }
  return false;
}

function randomId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(36).padStart(2, "0")).join("").slice(0, 20);
}

// The records of one page. storage: a Storage, or null where the browser refuses one (the
// page still plays, unsaved on reload); page: the page's owner {mark, expires, issued}, or
// null on a page kept for anyone (the offline page); fromHistory: the page came back from
// the browser's history (Back), not from the server or the service worker, so it may be an
// old copy of a previous owner's page.
export class Records {
  constructor({ storage = null, page = null, fromHistory = false, now = Date.now } = {}) {
    this.store = storage;
    this.page = page;
    this.now = now;
    this.staleCopy = settleOwner(storage, page, fromHistory, now);
    this.fallbackCounter = 0;
  }

  // A write is this page's owner's to make: a page left open while another owner's page
  // loaded in another tab keeps nothing. Storage emptied meanwhile (a log-in's answer tells
  // the browser to) is claimed back, until a page of another owner loads and drops it.
  mayWrite() {
    const { store, page } = this;
    if (!page || this.staleCopy) return false;
    const known = ownerOfRecords(store);
    if (!known) store.setItem(OWNER, JSON.stringify(page));
    return !known || known.mark === page.mark;
  }

  // Whether the records kept are this page's owner's (false once a page of another owner
  // has loaded in another tab, or in this one before Back brought this page back).
  ownsRecords() {
    if (!this.store || !this.page) return true;
    const known = ownerOfRecords(this.store);
    return !!known && known.mark === this.page.mark;
  }

  // The name the page's owner logged in with (null: a guest), kept for the offline page.
  keepName(name) {
    if (!this.mayWrite()) return;
    try {
      if (name) this.store.setItem(PLAYER, JSON.stringify({ mark: this.page.mark, name }));
      else this.store.removeItem(PLAYER);
    } catch {
      // storage full or refused: the offline page names no one
    }
  }

  // The name of the owner of the records kept, or null (a guest, or no one).
  ownerName() {
    const owner = this.store && ownerOfRecords(this.store);
    const kept = owner ? nameKept(this.store) : {};
    return kept.mark === owner?.mark && typeof kept.name === "string" ? kept.name : null;
  }

  // This browser's id, made once.
  deviceId() {
    const { store } = this;
    let id = store && store.getItem(DEVICE);
    if (!id || !/^[A-Za-z0-9_-]{8,40}$/.test(id)) {
      id = randomId();
      if (store) store.setItem(DEVICE, id);
    }
    return id;
  }

  // A new client id: unique for this browser (the counter only grows).
  nextId(device) {
    const { store } = this;
    const last = Number((store && store.getItem(COUNTER)) || this.fallbackCounter) || 0;
    const next = last + 1;
    this.fallbackCounter = next;
    if (store) store.setItem(COUNTER, String(next));
    return `${device}-${next}`;
  }

  readGame(id) {
    if (!this.store || !this.page) return null;
    try {
      const record = JSON.parse(this.store.getItem(PREFIX + id) || "null");
      return record && record.owner === this.page.mark ? record : null;
    } catch {
      return null;
    }
  }

  // The record: {state, board, queue, url, title}, kept with its owner and the time.
  // False when it could not be kept.
  writeGame(id, record) {
    if (!this.store) return false;
    try {
      if (!this.mayWrite()) return false;
      const kept = { ...record, owner: this.page.mark, savedAt: this.now() };
      this.store.setItem(PREFIX + id, JSON.stringify(kept));
      return true;
    } catch {
      return false; // storage full
    }
  }

  forgetGame(id) {
    if (this.store) this.store.removeItem(PREFIX + id);
  }

  // Every game kept on this device for the owner of the records: [{id, ...record}], the
  // most recent first.
  keptGames() {
    const { store } = this;
    const owner = store && ownerOfRecords(store);
    if (!owner || !this.ownsRecords()) return [];
    const found = [];
    for (let k = 0; k < store.length; k++) {
      const key = store.key(k);
      if (!key || !key.startsWith(PREFIX)) continue;
      try {
        const record = JSON.parse(store.getItem(key));
        if (record.owner === owner.mark) found.push({ id: key.slice(PREFIX.length), ...record });
      } catch {
        // a record that cannot be read is skipped
      }
    }
    return found.sort((a, b) => (b.savedAt || 0) - (a.savedAt || 0));
  }
}

export function openRecords(options) {
  return new Records(options);
}

function browserStorage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage refused (a private mode, say)
  }
}

function ownerOfPage() {
  const html = document.documentElement;
  if (!html.dataset.owner) return null;
  const { owner, ownerExpires, ownerIssued } = html.dataset;
  return { mark: owner, expires: Number(ownerExpires) || 0, issued: Number(ownerIssued) || 0 };
}

function navigatedBack() {
  const entries = performance.getEntriesByType("navigation");
  return entries.length > 0 && entries[0].type === "back_forward";
}

let onThisPage = null;

// The records of the page the script runs in, its owner settled on the first call.
export function pageRecords() {
  if (!onThisPage) {
    onThisPage = openRecords({ storage: browserStorage(), page: ownerOfPage(), fromHistory: navigatedBack() });
  }
  return onThisPage;
}
