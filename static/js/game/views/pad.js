// The number pad drawn from the model: what is left of each digit on the board as shown
// (the solution, once given up), the digit chosen first, and whether the pad takes input.
// Only draws.
//
// Imports the catalog's words (../i18n.js).

import { pgettext } from "../i18n.js";

export function drawPad(buttons, model) {
  const { values } = model.shownBoard();
  const counts = Array(10).fill(0);
  values.forEach((v) => counts[v]++);
  const open = model.open();
  buttons.forEach((button) => {
    const d = Number(button.dataset.digit);
    const left = Math.max(0, 9 - counts[d]);
    button.querySelector("[data-left]").textContent = left ? String(left) : "";
    button.classList.toggle("done", left === 0);
    button.setAttribute("aria-pressed", String(model.digitMode === d));
    // Its name is its text, "5, 3 left" (the comma and "left" unseen), so that saying what
    // it shows ("click 5") presses it.
    button.querySelector("[data-left-words]").textContent = ` ${left ? pgettext("digits left on the pad", "left") : pgettext("digits left on the pad", "none left")}`;
    button.disabled = !open;
  });
}
