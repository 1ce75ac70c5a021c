// The game page's first-visit explanation: shown until the player dismisses it, then on no
// later page. The dismissal is kept by the server (the account's preferences, a guest's
// session) and in this browser's storage, which also hides it on a page kept for offline.
//
// Imports nothing.

const KEY = "sudoku:intro-seen";

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage refused: the server's word alone
  }
}

export function setUpIntro(root, csrf) {
  const intro = root.querySelector("[data-intro]");
  if (!intro) return;
  const kept = storage();
  if (kept && kept.getItem(KEY)) return intro.remove();
  const button = intro.querySelector('[data-action="dismiss-intro"]');
  button.addEventListener("click", () => {
    intro.remove();
    if (kept) kept.setItem(KEY, "1");
    const headers = { "X-CSRFToken": csrf() };
    fetch(button.dataset.introUrl, { method: "POST", headers, credentials: "same-origin" }).catch(() => {});
  });
}
