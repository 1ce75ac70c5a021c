// Many cells selected at once: the primary cell (the model's `selected`, the one arrows
// move from and the hint and reveal act on) and the other selected cells (the model's
// `extra`, a Set). Ctrl or Cmd+click and Shift+click add a cell, a drag or Shift+arrows
// extend the selection, Esc keeps the primary cell alone; a plain tap selects one cell
// (model.select). A digit, a note, a mark, a colour or an erase then names every selected
// cell it can go in, in one change: one move, which one undo takes back.
//
// Screen readers hear the count whenever it changes ("3 cells selected").
//
// Imports the change a digit makes in a layer of marks (layers.js) and the catalog's words (i18n.js): the model is handed in.

import { gettext, interpolate, ngettext } from "./i18n.js";
import { markChange } from "./layers.js";

const extraOf = (model) => (model.extra ||= new Set());

// Every selected cell, the primary one first; none when nothing is selected.
export function selectedCells(model) {
  if (model.selected === null) return [];
  return [model.selected, ...[...extraOf(model)].filter((i) => i !== model.selected)];
}

export function manySelected(model) {
  return selectedCells(model).length > 1;
}

function told(model, before) {
  const count = selectedCells(model).length;
  if (count !== before) model.on.announce(interpolate(ngettext("%(count)s cell selected", "%(count)s cells selected", count), { count }));
  model.changed();
}

// Ctrl/Cmd+click or Shift+click: the cell joins the selection as its primary cell, or, when
// already selected, leaves it (the primary cell's place taken by the last one added).
export function addCell(model, i) {
  if (model.selected === null) return model.select(i);
  const extra = extraOf(model);
  const before = selectedCells(model).length;
  if (i === model.selected) {
    const rest = [...extra];
    if (!rest.length) return;
    model.selected = rest.pop();
    extra.delete(model.selected);
  } else if (extra.has(i)) {
    extra.delete(i);
  } else {
    extra.add(model.selected);
    model.selected = i;
  }
  told(model, before);
}

// A drag over a cell or Shift+arrow onto it: it joins the selection (once) as its primary
// cell, the cells passed over staying selected.
export function extendTo(model, i) {
  if (model.selected === null) return model.select(i);
  if (i === model.selected) return;
  const extra = extraOf(model);
  const before = selectedCells(model).length;
  extra.add(model.selected);
  extra.delete(i);
  model.selected = i;
  told(model, before);
}

// Esc with several cells selected: the primary cell alone.
export function keepOne(model) {
  const before = selectedCells(model).length;
  extraOf(model).clear();
  told(model, before);
}

// Every empty cell of the board selected (Ctrl/Cmd+A), the primary cell kept if empty.
export function selectEmpty(model) {
  const empty = [...model.board.values.keys()].filter((i) => !model.board.values[i] && !model.isGiven(i));
  if (!empty.length) return;
  const before = selectedCells(model).length;
  if (model.selected === null || !empty.includes(model.selected)) model.selected = empty[0];
  model.extra = new Set(empty.filter((i) => i !== model.selected));
  told(model, before);
}

const writable = (model) => selectedCells(model).filter((i) => !model.isGiven(i));
const emptyOnes = (model) => writable(model).filter((i) => !model.valueAt(i));

// The change a digit makes on several selected cells: a mark in the layer chosen (empty
// cells), a note (empty cells), else the digit (empty cells; given and filled ones are
// skipped). Null, with words said, when no selected cell can take it.
export function changeFor(model, digit, asNote) {
  const { marking } = model;
  const cells = emptyOnes(model);
  if (!cells.length) {
    model.say(gettext("Every selected cell holds a digit already."));
    return null;
  }
  if ((marking.layer || marking.candidates) && asNote === model.notesMode) return markChange(cells, marking, digit);
  return { kind: "move", cells, digit, mode: asNote ? "note" : "value" };
}

// The change an erase makes on several selected cells: with corner or centre marks on,
// their layer cleared in the empty ones; else each cell's digit or notes cleared.
export function eraseFor(model) {
  const { layer } = model.marking;
  if (layer) {
    const cells = emptyOnes(model);
    return cells.length ? { kind: "mark", cells, layer, digit: 0 } : null;
  }
  const cells = writable(model).filter((i) => model.valueAt(i) || (model.board.notes[i] || []).length);
  return cells.length ? { kind: "move", cells, digit: 0, mode: "value" } : null;
}
