// Keeping the board and a panel under it on the screen together, the board first: on a
// phone the panel sits right under the board, and the page scrolls no further than the
// board's top. With `remember`, where the page was before it scrolled is kept, and
// `scrollBack` returns there: a closed hint gives the game's header (time, help, saving)
// back to a screen that had room for it.
//
// Imports nothing.

export function scroller(board) {
  let scrolledFrom = null;

  function keepInView(panel, { remember = false } = {}) {
    requestAnimationFrame(() => {
      const header = document.querySelector(".site-header");
      const top = header && getComputedStyle(header).position === "sticky" ? header.getBoundingClientRect().bottom : 0;
      const boardBox = board.getBoundingClientRect();
      const panelBox = panel.getBoundingClientRect();
      let delta = 0;
      if (panelBox.bottom > window.innerHeight) delta = panelBox.bottom - window.innerHeight + 8;
      delta = Math.min(delta, boardBox.top - top - 4); // the board's top stays in sight
      if (boardBox.top < top) delta = boardBox.top - top - 4;
      if (!delta) return;
      if (remember && scrolledFrom === null) scrolledFrom = window.scrollY;
      window.scrollBy({ top: delta, behavior: "instant" });
    });
  }

  function scrollBack() {
    if (scrolledFrom === null) return;
    window.scrollTo({ top: scrolledFrom, behavior: "instant" });
    scrolledFrom = null;
  }

  return { keepInView, scrollBack };
}
