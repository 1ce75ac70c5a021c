// The service worker, served from the site's root (/sw.js) so that it covers every page.
// It keeps what a game needs to load and play with no network: the game pages visited, the
// static files they use and the games' state. Pages and the API are asked of the network
// first and kept as answered; with no network the copy kept answers, and a page never
// kept gets the offline page, which lists the games this device can play. Changes (POSTs)
// are never touched: the game page keeps them in its own storage until the server has them.

const VERSION = "v1";
const CACHE = `sudoku-${VERSION}`;
const OFFLINE = "/offline/";
// A static file whose name carries its content's hash never changes: kept copies serve it.
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;
const KEPT_PAGES = /^\/games\/\d+\/$/;

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

// A page asks to keep itself and the files it loaded ({keep: [urls]}), or, at log-out, to
// forget every page kept ({forget: true}).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (Array.isArray(data.keep)) event.waitUntil(keep(data.keep));
  if (data.forget) event.waitUntil(caches.delete(CACHE).then(() => caches.open(CACHE)).then((c) => c.add(OFFLINE)));
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
        if (response.ok) await cache.put(pathname, response);
      } catch {
        // offline: kept next time
      }
    }),
  );
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
  else if (/^\/api\/games\/\d+$/.test(path)) event.respondWith(networkFirst(request, path));
});

async function networkFirst(request, key, keepIt = true) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && keepIt) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw error;
  }
}

async function page(request, path) {
  try {
    return await networkFirst(request, path, KEPT_PAGES.test(path));
  } catch {
    const cache = await caches.open(CACHE);
    return (await cache.match(OFFLINE)) || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain" } });
  }
}

async function staticFile(request, path) {
  if (HASHED.test(path)) {
    const kept = await caches.match(path);
    if (kept) return kept;
  }
  return networkFirst(request, path);
}
