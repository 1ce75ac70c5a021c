// The player's marks beside the notes drawn on a cell (layers.js): corner marks along its
// edge, centre marks small in its middle (both only while the cell has no digit), its
// colour, and single candidates' colours on their note slots; the hooks data-corner,
// data-centre, data-colour and data-candidate-colours; and the marks in words, for the
// cell's name. Each colour has a pattern of its own too, so that colours are told apart
// without seeing colour. Also the marks' controls: the layer chosen, the palette. Only draws.
//
// Imports the hooks' text (../layers.js) and the catalog's words (../i18n.js).

import { gettext, interpolate } from "../i18n.js";
import { digitsText, pairsText } from "../layers.js";

function setHook(el, name, text) {
  if (text) el.dataset[name] = text;
  else delete el.dataset[name];
}

// The cell's two mark layers, made the first time they are drawn.
function layerOf(el, name) {
  let layer = el.querySelector(`.${name}`);
  if (!layer) {
    layer = document.createElement("span");
    layer.className = name;
    layer.setAttribute("aria-hidden", "true"); // said in the cell's name
    el.appendChild(layer);
  }
  return layer;
}

// Each mark a span whose digit the style sheet writes (from data-mark): the cell's name
// says the marks in words, and its visible text stays its digit and notes.
function drawDigits(layer, digits) {
  const text = digits.map(String);
  if ([...layer.children].map((s) => s.dataset.mark).join() === text.join()) return;
  layer.replaceChildren(
    ...text.map((d) => {
      const span = document.createElement("span");
      span.dataset.mark = d;
      return span;
    }),
  );
}

// marks: the cell's ({corner, centre, colour, candidates}); value: its digit (0: empty).
export function drawPaint(el, value, marks) {
  const corner = value ? [] : marks.corner || [];
  const centre = value ? [] : marks.centre || [];
  const candidates = value ? [] : marks.candidates || [];
  setHook(el, "corner", digitsText(corner));
  setHook(el, "centre", digitsText(centre));
  setHook(el, "colour", marks.colour ? String(marks.colour) : "");
  setHook(el, "paint", marks.colour ? String(marks.colour) : "");
  setHook(el, "candidateColours", pairsText(candidates));
  if (corner.length || el.querySelector(".corner-marks")) drawDigits(layerOf(el, "corner-marks"), corner);
  if (centre.length || el.querySelector(".centre-marks")) drawDigits(layerOf(el, "centre-marks"), centre);
  // A candidate's colour goes on its centre mark where it has one, else on its note's slot
  // (an empty slot then shows its digit: the style sheet).
  const coloured = new Map(candidates);
  const inCentre = new Set(centre);
  el.querySelectorAll(".centre-marks [data-mark]").forEach((span) => {
    setHook(span, "paint", String(coloured.get(Number(span.dataset.mark)) || ""));
  });
  el.querySelectorAll("[data-note]").forEach((span) => {
    const d = Number(span.dataset.note);
    setHook(span, "paint", inCentre.has(d) ? "" : String(coloured.get(d) || ""));
  });
}

// The marks in words, for the cell's name.
export function paintWords(value, marks) {
  const parts = [];
  const said = (words, values) => parts.push(`, ${interpolate(words, values)}`);
  if (!value && (marks.corner || []).length) said(gettext("corner marks %(digits)s"), { digits: marks.corner.join(" ") });
  if (!value && (marks.centre || []).length) said(gettext("centre marks %(digits)s"), { digits: marks.centre.join(" ") });
  if (marks.colour) said(gettext("colour %(colour)s"), { colour: marks.colour });
  if (!value) for (const [digit, colour] of marks.candidates || []) said(gettext("candidate %(digit)s colour %(colour)s"), { digit, colour });
  return parts.join("");
}

// The marks' controls: the layer chosen, the palette open, candidate colouring, the colour
// it paints.
export function drawMarkControls(root, model) {
  const { marking } = model;
  const open = model.open();
  for (const name of ["corner", "centre"]) {
    const button = root.querySelector(`[data-action="${name}"]`);
    button.setAttribute("aria-pressed", String(marking.layer === name));
    button.disabled = !open;
  }
  const colour = root.querySelector('[data-action="colour"]');
  colour.setAttribute("aria-expanded", String(marking.palette));
  colour.disabled = !open;
  root.querySelector("[data-palette]").hidden = !marking.palette || !open;
  root.querySelector('[data-action="colour-candidates"]').setAttribute("aria-pressed", String(marking.candidates));
  root.querySelectorAll("[data-colour-pick]").forEach((button) => {
    const chosen = marking.candidates && Number(button.dataset.colourPick) === marking.colour;
    button.setAttribute("aria-pressed", String(chosen));
  });
  root.classList.toggle("corner-mode", marking.layer === "corner" && !marking.candidates);
  root.classList.toggle("centre-mode", marking.layer === "centre" && !marking.candidates);
  root.classList.toggle("candidate-mode", marking.candidates);
}
