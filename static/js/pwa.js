// Every page: the service worker (/sw.js) that lets a game already opened load and play
// with no network, asked to keep the game page just opened and the files it loaded; on
// the offline page, the games this device can play; at log-out, what was kept is dropped.

import { forgetAll, keptGames } from "./game/queue.js";

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
  const games = keptGames().filter((g) => g.url && GAME_PAGE.test(g.url) && g.state && g.state.status === "playing");
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

// Logging out: the next person on this browser should not find this player's games.
document.addEventListener("submit", (event) => {
  if (!/\/accounts\/logout\/?$/.test(new URL(event.target.action, location.href).pathname)) return;
  forgetAll();
  if (navigator.serviceWorker && navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage({ forget: true });
});

listKeptGames();
register();
