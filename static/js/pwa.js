// Every page: the service worker (/sw.js) that lets a game already opened load and play
// with no network, asked to keep the game page just opened and the files it loaded; on
// the offline page, the games this device can play and the player they are kept for (a
// name the other pages keep with the records). What is kept belongs to one player at
// a time (game/queue.js drops another's as the page loads, the worker as it answers): a
// page of another player's is never left on screen, and changes not yet sent go out
// before a log-in, a sign-up or a log-out hands the device to someone else.
//
// Imports the API call (game/http.js) and the records kept on this device (game/queue.js).

import { callApi } from "./game/http.js";
import { pageRecords } from "./game/queue.js";

// Opened first thing: another player's records are dropped before anything reads them.
const records = pageRecords();

const GAME_PAGE = /^\/games\/\d+\/$/;

async function register() {
  if (!("serviceWorker" in navigator)) return;
  try {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    const ready = await navigator.serviceWorker.ready;
    if (!GAME_PAGE.test(location.pathname)) return;
    const files = performance
      .getEntriesByType("resource")
      .map((entry) => entry.name)
      .filter((name) => new URL(name).origin === location.origin && new URL(name).pathname.startsWith("/static/"));
    ready.active.postMessage({ keep: [location.pathname, ...files] });
  } catch {
    // No service worker (a private window, an old browser): the site works online.
  }
}

// The offline page: the games kept on this device, each a link that opens it.
function listKeptGames() {
  const list = document.querySelector("[data-kept-games]");
  if (!list) return;
  const games = records.keptGames().filter((g) => g.url && GAME_PAGE.test(g.url) && g.state && g.state.status === "playing");
  for (const kept of games) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = kept.url;
    const filled = kept.board ? kept.board.values.filter(Boolean).length : 0;
    link.textContent = `${(kept.title || "A game").replace(/ · Sudoku$/, "")}, ${filled} of 81 cells filled`;
    item.append(link);
    const waiting = (kept.queue || []).length;
    if (waiting) item.append(` (${waiting === 1 ? "1 change" : `${waiting} changes`} to send)`);
    list.append(item);
  }
  document.querySelector("[data-no-kept-games]").hidden = games.length > 0;
}

// The name of the player logged in is kept with the records, for the offline page (kept
// for anyone, it names no one itself): the device's player, named there as everywhere.
function keepPlayerName() {
  if (document.querySelector("[data-offline]")) return;
  const who = document.querySelector(".account .who");
  records.keepName(who ? who.textContent.trim() : null);
}

function showPlayerName() {
  const who = document.querySelector("[data-kept-player]");
  const name = who && records.ownerName();
  if (!name) return;
  who.textContent = name;
  who.hidden = false;
}

// The browser's history can bring back a page as it was left (Back, from its cache or
// the page kept whole): once another player's page has loaded since, it is asked for
// again, and comes as the server has it now.
window.addEventListener("pageshow", (event) => {
  if (event.persisted && !records.ownsRecords()) location.reload();
});

// A log-in, a sign-up or a log-out hands the device to someone else, whose first page
// drops every record of this player's (and the answer tells the browser to drop its
// storage): changes still waiting are sent first, under the session that made them.
const HANDOVER = /^\/accounts\/(login|signup|logout)\/$/;

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || form.dataset.changesSent) return;
  if (!HANDOVER.test(new URL(form.action, location.href).pathname)) return;
  const waiting = records.keptGames().filter((g) => /^\d+$/.test(g.id) && (g.queue || []).length);
  if (!waiting.length) return;
  event.preventDefault();
  form.dataset.changesSent = "true";
  sendChanges(waiting).finally(() => form.submit());
});

// Five seconds at most: a change that did not go is sent again by its game page if this
// player comes back before another's page loads (the server stores each change once).
async function sendChanges(games) {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const device = records.deviceId();
  const sent = games.map((g) =>
    callApi(`/api/games/${g.id}/changes`, csrf, { device, changes: g.queue.slice(0, 200) }).catch(() => null),
  );
  await Promise.race([Promise.all(sent), new Promise((done) => setTimeout(done, 5000))]);
}

if (records.staleCopy) {
  location.reload();
} else {
  keepPlayerName();
  listKeptGames();
  showPlayerName();
  register();
}
