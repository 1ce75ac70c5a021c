// The board's 81 cells drawn from the model: digit, notes, the selection and what it
// lights up, conflicts, mistakes, a hint's or a step's marks, the cells with two
// candidates (when asked), the player's corner and centre marks and colours (paint.js),
// and each cell's name for screen readers. Only draws.
//
// Imports what a hint marks (../marks.js), the marks shown (../layers.js), the drawing of
// a chain's links (chain.js) and of the player's marks (paint.js), and the catalog's words
// (../i18n.js).

import { gettext, interpolate, listed, pgettext } from "../i18n.js";
import { shownMarks } from "../layers.js";
import { hintCells, hintChain } from "../marks.js";
import { drawLinks } from "./chain.js";
import { drawPaint, paintWords } from "./paint.js";

// What a hinted cell is to the hint (or to the walkthrough's step), in words.
function role(walk, part) {
  const words = walk
    ? { cause: gettext("part of this step: the cause"), target: gettext("part of this step: placed here") }
    : {
        region: gettext("part of the hint: where to look"),
        cause: gettext("part of the hint: the cause"),
        target: gettext("part of the hint: will change"),
      };
  return words[part] || gettext("part of the hint");
}

// Each cell's place on the board's diagonals, for the celebration's wave (set through the
// CSSOM, which a strict Content-Security-Policy allows). Drawn once.
export function drawWave(cells) {
  cells.forEach((el, i) => el.style.setProperty("--wave", String(Math.floor(i / 9) + (i % 9))));
}

// A cell's name: its place, then what it shows (in the order shown, so that its visible
// text is part of its name), then what marks it.
function label(where, i, value, notes, flags, marks) {
  const place = where.atStart(i);
  const say = (words, values) => interpolate(words, { place, ...values });
  if (flags.hidden) return say(gettext("%(place)s: hidden while paused"));
  let text = value
    ? say(gettext("%(place)s: %(digit)s"), { digit: value })
    : flags.placed
      ? say(gettext("%(place)s: %(digit)s, placed by this step"), { digit: flags.placed })
      : say(gettext("%(place)s: empty"));
  const add = (words, values) => (text += `, ${interpolate(words, values)}`);
  if (!value && notes.length) add(gettext("notes %(digits)s"), { digits: notes.join(" ") });
  text += paintWords(value, marks);
  if (flags.given) add(pgettext("cell", "given"));
  if (flags.conflicts.length) add(gettext("conflicts with %(places)s"), { places: listed(flags.conflicts.map(where)) });
  if (flags.wrong) add(pgettext("cell", "wrong"));
  if (flags.revealed) add(pgettext("cell", "revealed"));
  if (flags.solution) add(flags.had ? gettext("from the solution (you had %(digit)s)") : gettext("from the solution"), { digit: flags.had });
  if (flags.hint) add(role(flags.walk, flags.hint));
  if (flags.bivalue) add(gettext("two candidates"));
  return text;
}

// The cells a rule conflict involves, as the state names them, each with its partners.
function conflictsOf(model, values) {
  const listed = new Set(model.walk ? [] : model.state.conflicts || []);
  const partners = new Map();
  for (const i of listed) {
    partners.set(i, model.peers[i].filter((j) => values[j] && values[j] === values[i]));
  }
  return partners;
}

// What every cell's drawing reads, worked out once a drawing.
function boardFacts(model) {
  const { state, walk, replay, selected, digitMode } = model;
  const { values, notes } = model.shownBoard();
  const step = walk ? walk.path[walk.index] : null;
  const removed = new Map();
  if (step) for (const [c, d] of step.eliminations) removed.set(c, [...(removed.get(c) || []), d]);
  return {
    values,
    notes,
    paused: state.status === "playing" && state.paused,
    wrong: new Set(walk || replay ? [] : state.wrong || []),
    focusDigit: digitMode || (selected === null ? 0 : values[selected]), // the digit lit up
    peers: selected === null ? new Set() : model.peerSets[selected],
    roles: hintCells(model.hint, walk),
    chain: hintChain(model.hint, walk),
    conflicts: conflictsOf(model, values),
    revealed: new Set([...(state.revealed || []), ...model.revealed]),
    placed: new Map(step ? step.placements.map(([c, d]) => [c, d]) : []),
    removed,
    // The cells with two candidates, when asked for, on the player's own board only.
    bivalue: model.bivalueMode && !walk && !replay ? model.board.bivalue() : new Set(),
    marks: shownMarks(model),
    // The other selected cells (selection.js), on the player's own board only.
    extra: walk || replay ? new Set() : model.extra || new Set(),
  };
}

// What marks one cell.
function cellFlags(model, facts, i) {
  const { state, walk, replay, checkCells } = model;
  const given = state.puzzle[i] !== "0";
  const solution = !walk && !replay && state.status === "gave_up" && !given && state.values[i] !== state.solution[i];
  return {
    given,
    solution,
    wrongMark: facts.wrong.has(i) && !solution,
    wrong: (facts.wrong.has(i) && !solution) || checkCells.has(i),
    had: solution && state.values[i] !== "0" ? state.values[i] : null,
    revealed: !walk && facts.revealed.has(i),
    hint: facts.roles.get(i) || null,
    walk: !!walk,
    placed: facts.placed.get(i) || 0,
    conflicts: facts.conflicts.get(i) || [],
    hidden: facts.paused,
    bivalue: facts.bivalue.has(i),
  };
}

function drawContent(el, i, value, cellNotes, facts) {
  el.dataset.value = String(value);
  el.dataset.notes = cellNotes.join("");
  el.querySelector(".value").textContent = value ? String(value) : facts.placed.has(i) ? String(facts.placed.get(i)) : "";
  el.querySelectorAll("[data-note]").forEach((span) => {
    const d = Number(span.dataset.note);
    const shown = cellNotes.includes(d);
    span.textContent = shown ? String(d) : "";
    span.classList.toggle("match", shown && d === facts.focusDigit);
    span.classList.toggle("removed", (facts.removed.get(i) || []).includes(d));
    span.classList.toggle("hint-on", shown && (facts.chain.on.get(i) || []).includes(d));
    span.classList.toggle("hint-off", shown && (facts.chain.off.get(i) || []).includes(d));
  });
}

function drawMarks(el, i, value, flags, model, facts) {
  const { selected } = model;
  if (flags.hint) el.dataset.hint = flags.hint;
  else delete el.dataset.hint;
  for (const [name, marked] of [["hintOn", facts.chain.on], ["hintOff", facts.chain.off]]) {
    if (marked.has(i) && !value) el.dataset[name] = marked.get(i).join("");
    else delete el.dataset[name];
  }
  if (facts.conflicts.has(i)) el.dataset.conflict = "";
  else delete el.dataset.conflict;
  if (flags.bivalue) el.dataset.bivalue = "";
  else delete el.dataset.bivalue;
  el.classList.toggle("selected", i === selected);
  el.classList.toggle("also-selected", i !== selected && facts.extra.has(i));
  el.classList.toggle("peer", i !== selected && facts.peers.has(i));
  el.classList.toggle("same", !!facts.focusDigit && value === facts.focusDigit && i !== selected);
  el.classList.toggle("wrong", flags.wrongMark);
  el.classList.toggle("checked-wrong", model.checkCells.has(i));
  if (flags.wrong) el.dataset.wrong = "";
  else delete el.dataset.wrong;
  el.classList.toggle("hinted", flags.hint === "cause" || flags.hint === "target");
  el.classList.toggle("placed-here", facts.placed.has(i));
  el.classList.toggle("pending", model.isPending(i));
  el.classList.toggle("solution-shown", flags.solution);
  el.classList.toggle("revealed", flags.revealed);
  el.setAttribute("aria-selected", String(i === selected || facts.extra.has(i)));
  el.tabIndex = i === (selected ?? 0) && !facts.paused ? 0 : -1;
}

// The cells, and a chain's links over them.
export function drawCells(cells, model) {
  const facts = boardFacts(model);
  if (cells.length) drawLinks(cells[0].closest("[data-board]") || cells[0].parentElement.parentElement, facts.paused ? [] : facts.chain.links);
  cells.forEach((el, i) => {
    const value = facts.values[i];
    const cellNotes = value ? [] : facts.notes[i] || [];
    const flags = cellFlags(model, facts, i);
    drawContent(el, i, value, cellNotes, facts);
    drawMarks(el, i, value, flags, model, facts);
    const marks = facts.paused ? {} : facts.marks[i] || {};
    drawPaint(el, value, marks);
    el.setAttribute("aria-label", label(model.where, i, value, cellNotes, flags, marks));
  });
}
