// Typing a puzzle of one's own on a grid: tap a cell, then a digit (or the arrows and the
// digit keys; 0, "." or Backspace for a blank). The text area stays the form's field, so a
// pasted puzzle still works: the grid reads it and writes back 81 characters.
//
// Imports places' names (game/places.js).

import { place } from "./game/places.js";

const form = document.querySelector(".custom-form");
const holder = form && form.querySelector("[data-entry-grid]");
if (holder) {
  const text = form.querySelector("#puzzle");
  const cells = [...holder.querySelectorAll("[data-entry-cell]")];
  let selected = 0;

  // The text as 81 digits, 0 for a blank; ignored characters left out, as the server does.
  const read = () => {
    const kept = text.value.replace(/[\s|+\-]/g, "").replace(/\./g, "0");
    return [...kept.padEnd(81, "0").slice(0, 81)].map((ch) => (/[0-9]/.test(ch) ? Number(ch) : 0));
  };

  const draw = () => {
    const digits = read();
    cells.forEach((cell, i) => {
      const d = digits[i];
      cell.textContent = d ? String(d) : "";
      cell.classList.toggle("selected", i === selected);
      cell.tabIndex = i === selected ? 0 : -1;
      cell.setAttribute("aria-label", `${place(i, { start: true })}, ${d || "blank"}`);
    });
  };

  const put = (digit) => {
    const digits = read();
    digits[selected] = digit;
    const rows = [];
    for (let r = 0; r < 9; r += 1) rows.push(digits.slice(r * 9, r * 9 + 9).map((d) => d || ".").join(""));
    text.value = rows.join("\n");
    draw();
  };

  const select = (i, focus = true) => {
    selected = (i + 81) % 81;
    draw();
    if (focus) cells[selected].focus();
  };

  holder.hidden = false;
  holder.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-entry-cell]");
    if (cell) return select(cells.indexOf(cell));
    const digit = event.target.closest("[data-entry-digit]");
    if (digit) {
      put(Number(digit.dataset.entryDigit));
      if (digit.dataset.entryDigit !== "0" && selected < 80) select(selected + 1, false);
    }
  });
  const MOVES = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 };
  holder.addEventListener("keydown", (event) => {
    if (!event.target.closest("[data-entry-cell]") || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key in MOVES) {
      event.preventDefault();
      return select(selected + MOVES[event.key]);
    }
    if (/^[1-9]$/.test(event.key)) {
      event.preventDefault();
      put(Number(event.key));
      return select(selected + 1);
    }
    if (["0", ".", "Backspace", "Delete"].includes(event.key)) {
      event.preventDefault();
      put(0);
      if (event.key === "Backspace") select(selected - 1);
    }
  });
  text.addEventListener("input", draw);
  draw();
}
