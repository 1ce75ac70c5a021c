// The service worker, served from the site's root (/sw.js) so that it covers every page.
// It keeps what a game needs to load and play with no network: the game pages visited, the
// static files they use and the games' state. Pages and the API are asked of the network
// first and kept as answered; with no network the copy kept answers, and a page never
// kept gets the offline page, which lists the games this device can play. Changes (POSTs)
// are never touched: the game page keeps them in its own storage until the server has them.
//
// What it keeps belongs to one player at a time. Every page and game state comes with its
// owner's mark (the Sudoku-Owner header: a keyed hash of who the player is, when their
// session ends, when the mark was given; see puzzles/accounts/owners.py), and so does each
// copy kept. The owner of the latest answer is remembered; an answer of another owner
// (another account logged in, or the last one's session ended elsewhere) drops every page
// and state kept before it is answered. With no network, only the remembered owner's
// copies are shown, and only until their session's end.
//
// The installed app opens at the manifest's start_url (the home page): with no network it
// opens the game page last kept instead, when the owner last seen may be shown it.

const VERSION = "v2"; // v1 kept copies without their owner: dropped as v2 takes over
const CACHE = `sudoku-${VERSION}`;
const OFFLINE = "/offline/";
const OWNER = "/sw/owner"; // in CACHE: the owner last seen, {mark, expires, issued}
const LAST_GAME = "/sw/last-game"; // in CACHE: the game page last kept, {path}; the owner's
const START = "/"; // the manifest's start_url
// A static file whose name carries its content's hash never changes: kept copies serve it.
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;
const KEPT_PAGES = /^\/games\/\d+\/$/;
const KEPT_STATES = /^\/api\/games\/\d+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.add(new Request(OFFLINE, { cache: "reload" }))));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("sudoku-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// A page asks to keep itself and the files it loaded ({keep: [urls]}).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (Array.isArray(data.keep)) event.waitUntil(keep(data.keep));
});

async function keep(urls) {
  const cache = await caches.open(CACHE);
  await Promise.all(
    urls.map(async (url) => {
      const { pathname } = new URL(url, self.location.origin);
      if (!KEPT_PAGES.test(pathname) && !pathname.startsWith("/static/")) return;
      // What went through the worker is kept already (and kept fresh as it goes through):
      // only what the page loaded before the worker took over is fetched here.
      if (await cache.match(pathname)) return;
      try {
        const response = await fetch(pathname, { credentials: "same-origin" });
        if (!response.ok) return;
        if (pathname.startsWith("/static/")) await cache.put(pathname, response);
        else await settle(cache, response, pathname);
      } catch {
        // offline: kept next time
      }
    }),
  );
}

// The owner an answer (or a copy kept) carries: {mark, expires, issued}, or null.
function ownerOf(response) {
  const header = response.headers.get("Sudoku-Owner");
  if (!header) return null;
  const [mark, ...fields] = header.split(";").map((part) => part.trim());
  const owner = { mark, expires: 0, issued: 0 };
  for (const field of fields) {
    const [name, value] = field.split("=");
    if (name === "expires" || name === "issued") owner[name] = Number(value) || 0;
  }
  return mark ? owner : null;
}

async function knownOwner(cache) {
  try {
    const kept = await cache.match(OWNER);
    return kept ? await kept.json() : null;
  } catch {
    return null;
  }
}

function json(value) {
  return new Response(JSON.stringify(value), { headers: { "Content-Type": "application/json" } });
}

function remember(cache, owner) {
  return cache.put(OWNER, json(owner));
}

// Every page and game state kept, and the owner they were kept for, forgotten (the static
// files and the offline page are nobody's).
async function dropKept(cache) {
  const keys = await cache.keys();
  const personal = keys.filter((request) => {
    const { pathname } = new URL(request.url);
    return !pathname.startsWith("/static/") && pathname !== OFFLINE;
  });
  await Promise.all(personal.map((request) => cache.delete(request)));
}

// Answers come back in any order: their owners are weighed, and their copies kept, one at
// a time, so that no copy of the last owner's goes in after another owner's answer.
let turn = Promise.resolve();
function inTurn(task) {
  const next = turn.then(task);
  turn = next.catch(() => {});
  return next;
}

// A network answer, weighed before it is used: another owner's answer drops what was kept
// for the last one; a copy is kept (`key`) when asked and the answer is the owner's. An
// answer given before the owner last seen, of another owner (a request that left before a
// log-in and came back after it), changes nothing and is not kept.
function settle(cache, response, key = null) {
  const owner = ownerOf(response);
  const copy = key && response.ok && owner ? response.clone() : null;
  if (!owner) return Promise.resolve();
  return inTurn(async () => {
    const known = await knownOwner(cache);
    if (known && known.mark !== owner.mark && owner.issued < known.issued) return;
    if (!known || known.mark !== owner.mark) {
      await dropKept(cache);
      await remember(cache, owner);
    } else if (owner.issued > known.issued) {
      await remember(cache, owner); // the latest word on when the session ends
    }
    if (copy) await cache.put(key, copy);
    if (copy && KEPT_PAGES.test(key)) await cache.put(LAST_GAME, json({ path: key }));
  });
}

// The copy kept for `key`, when it may be shown with no network: the owner last seen's,
// within their session (the device's clock against the server's word).
async function keptCopy(cache, key) {
  const known = await knownOwner(cache);
  if (!known) return null;
  if (known.expires * 1000 <= Date.now()) {
    await inTurn(() => dropKept(cache));
    return null;
  }
  const kept = await cache.match(key);
  const owner = kept && ownerOf(kept);
  return owner && owner.mark === known.mark ? kept : null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path.startsWith("/admin/") || path.startsWith("/accounts/") || path === "/sw.js") return;
  if (request.mode === "navigate") event.respondWith(page(request, path));
  else if (path.startsWith("/static/")) event.respondWith(staticFile(request, path));
  else if (KEPT_STATES.test(path)) event.respondWith(networkFirst(request, path, true));
});

// Pages and game states: the network's answer once its owner is weighed; with no network,
// the copy kept, if it may be shown.
async function networkFirst(request, key, keepIt) {
  const cache = await caches.open(CACHE);
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const kept = await keptCopy(cache, key);
    if (kept) return kept;
    throw error;
  }
  await settle(cache, response, keepIt ? key : null);
  return response;
}

async function page(request, path) {
  try {
    return await networkFirst(request, path, KEPT_PAGES.test(path));
  } catch {
    const cache = await caches.open(CACHE);
    const last = path === START ? await lastGame(cache) : null;
    if (last) return Response.redirect(last, 302);
    return (await cache.match(OFFLINE)) || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain" } });
  }
}

// The game page last kept, when its copy may be shown with no network; or null.
async function lastGame(cache) {
  try {
    const kept = await cache.match(LAST_GAME);
    const { path } = kept ? await kept.json() : {};
    return KEPT_PAGES.test(path || "") && (await keptCopy(cache, path)) ? path : null;
  } catch {
    return null;
  }
}

async function staticFile(request, path) {
  const cache = await caches.open(CACHE);
  if (HASHED.test(path)) {
    const kept = await cache.match(path);
    if (kept) return kept;
  }
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(path, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(path);
    if (kept) return kept;
    throw error;
  }
}
