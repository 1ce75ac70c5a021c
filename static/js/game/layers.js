// The player's marks beside the notes, as the server keeps them (puzzles/play/board.py):
// per cell, corner marks and centre marks (digits), a colour (1-9) and colours of single
// candidates ([digit, colour] pairs), each part only when there is one, cells without
// marks left out: {"<cell>": {corner, centre, colour, candidates}}. A mark change names its
// cells as a list and is one move: a mark toggled (digit 0 clears the layer), a colour set
// (0 clears), a candidate's colour set; when every cell already has what is asked it is
// taken off them all, so the same tap twice takes a mark back. Also the page's choices:
// which layer a digit writes, the palette, the colour picked for candidates.
//
// Imports nothing.

export const LAYERS = ["corner", "centre", "colour", "candidate"];
export const COLOURS = 9; // the palette's colours, 1-9; 0 clears

const PARTS = ["corner", "centre", "colour", "candidates"];

// A cell's marks in the one order the server keeps them, empty parts left out: equal marks
// are then equal records.
export function tidyMarks(marks) {
  const tidy = {};
  for (const part of PARTS) {
    const value = marks && marks[part];
    if (part === "colour" ? Number.isInteger(value) && value > 0 : Array.isArray(value) && value.length) tidy[part] = value;
  }
  return tidy;
}

export function sameMarks(a, b) {
  return JSON.stringify(a || {}) === JSON.stringify(b || {});
}

// Every cell's marks, from what the server or the store gave (anything else read as none).
export function marksFrom(given) {
  const marks = {};
  if (!given || typeof given !== "object") return marks;
  for (const [cell, each] of Object.entries(given)) {
    const tidy = tidyMarks(each);
    if (Object.keys(tidy).length) marks[cell] = tidy;
  }
  return marks;
}

// Whether a cell's marks already hold what a change asks for.
export function hasMark(marks, layer, digit, colour) {
  if (layer === "corner" || layer === "centre") return digit ? (marks[layer] || []).includes(digit) : !(marks[layer] || []).length;
  if (layer === "colour") return (marks.colour || 0) === colour;
  const pair = (marks.candidates || []).find(([d]) => d === digit);
  return (pair ? pair[1] : 0) === colour;
}

// A cell's marks after a change: what it asks put on (`put`) or taken off.
export function marked(marks, layer, digit, colour, put) {
  const after = { ...marks };
  if (layer === "corner" || layer === "centre") {
    const digits = new Set(digit ? marks[layer] || [] : []);
    if (digit && put) digits.add(digit);
    else if (digit) digits.delete(digit);
    after[layer] = [...digits].sort((a, b) => a - b);
  } else if (layer === "colour") {
    after.colour = put ? colour : 0;
  } else {
    const pairs = new Map(marks.candidates || []);
    pairs.set(digit, put ? colour : 0);
    after.candidates = [...pairs].filter(([, c]) => c).sort((a, b) => a[0] - b[0]);
  }
  return tidyMarks(after);
}

// The hooks' text: "137" for digits, "3:1 7:2" for candidate colours.
export const digitsText = (digits) => (digits || []).join("");
export const pairsText = (pairs) => (pairs || []).map(([d, c]) => `${d}:${c}`).join(" ");

// The page's choices for marks: the layer a digit writes (null: digits or notes, as the
// notes switch says), the palette open, candidate colouring on, the colour it paints.
export function marking() {
  return { layer: null, palette: false, candidates: false, colour: 1 };
}

// The change a digit tapped makes in the layer chosen, on the selected cells.
export function markChange(cells, choice, digit) {
  if (choice.candidates) return { kind: "mark", cells, layer: "candidate", digit, colour: choice.colour };
  return { kind: "mark", cells, layer: choice.layer, digit, colour: 0 };
}

// The fields a change carries in the queue: a move's cell, digit and mode, a mark's cells
// (its first also as `cell`, the cell the page shows waiting), layer, digit and colour.
export function changeFields(change) {
  const mode = change.mode || "value";
  if (change.kind === "move" && change.cells) return { cell: change.cells[0], cells: [...change.cells], digit: change.digit, mode };
  if (change.kind === "move") return { cell: change.cell, digit: change.digit, mode };
  if (change.kind !== "mark") return {};
  const { cells, layer, digit = 0, colour = 0 } = change;
  return { cell: cells[0], cells: [...cells], layer, digit, colour };
}

// The marks shown: a frame of the replay's, none on a step of the walkthrough, else the
// board's.
export function shownMarks(model) {
  if (model.replay) return marksFrom(model.replay.frames[model.replay.index].marks);
  if (model.walk) return {};
  return model.board.marks;
}
