// The board as the page computes it: digits, notes, which notes are complete candidate
// lists, and per cell with a digit the peers whose notes that digit took when placed,
// changed by the same rules as the server's board (puzzles/play/), so that a tap is drawn
// at once and the server's answer, when it comes, agrees with it (the web tests'
// test_page_board.py plays the two side by side).
//
// Every change is an entry of the cells it touched, each with its value, notes,
// completeness and taken peers before and after, as the server logs moves: undo and redo
// replay them. Erasing or replacing a digit puts back the notes it took, where the placed
// digits still allow them; where another copy of the digit rules a note out, that copy
// holds it and gives it back when it goes.
//
// The player's corner and centre marks and colours ride along (layers.js): a mark change
// is an entry too, each cell's record with a fifth item, its marks, so that undo and redo
// take marks back and put them again as they do digits and notes.
//
// Imports the marks' rules (layers.js) and the catalog's words (i18n.js): the geometry (each cell's peers, as the engine gives
// the page) is handed in, and the units are not worked out again: a digit twice in a unit
// is a digit a peer holds.

import { gettext } from "./i18n.js";
import { hasMark, marked, marksFrom, sameMarks } from "./layers.js";

const DIGITS = [1, 2, 3, 4, 5, 6, 7, 8, 9];

const same = (a, b) => a.length === b.length && a.every((d, k) => d === b[k]);
const sorted = (list) => [...new Set(list)].sort((a, b) => a - b);
const tidy = (notes) => sorted(notes).filter((d) => d >= 1 && d <= 9);
const sameCell = (a, b) => a[0] === b[0] && same(a[1], b[1]) && a[2] === b[2] && same(a[3], b[3]);

export class Board {
  // puzzle: 81 characters; values: 81 numbers or characters; notes and taken: 81 lists;
  // complete: 81 characters "0"/"1" or booleans; marks: {"<cell>": marks} (layers.js).
  constructor(puzzle, peers, values, notes, complete, taken, marks = null) {
    this.puzzle = puzzle;
    this.peers = peers.map((p) => [...p].sort((a, b) => a - b));
    this.values = [...values].map(Number);
    this.notes = Array.from({ length: 81 }, (_, i) => tidy((notes && notes[i]) || []));
    this.complete = Array.from({ length: 81 }, (_, i) => !!complete && (complete[i] === true || complete[i] === "1"));
    this.taken = Array.from({ length: 81 }, (_, i) => (this.values[i] && taken && taken[i] ? sorted(taken[i]) : []));
    this.marks = marksFrom(marks);
    this.history = []; // entries, oldest first
    this.applied = 0; // entries on the board: history[applied..] were undone
  }

  static fromState(state, peers) {
    return new Board(state.puzzle, peers, state.values, state.notes, state.complete || "", state.taken, state.marks);
  }

  // What can be stored and read back (JSON): the board and its history.
  snapshot() {
    const { values, notes, complete, taken, marks, history, applied } = this;
    return { values, notes, complete, taken, marks, history, applied };
  }

  static restore(puzzle, peers, saved) {
    const board = new Board(puzzle, peers, saved.values, saved.notes, saved.complete, saved.taken, saved.marks);
    board.history = saved.history || [];
    board.applied = Math.min(saved.applied || 0, board.history.length);
    return board;
  }

  grid() {
    return this.values.join("");
  }

  sameAs(state) {
    const complete = state.complete || "0".repeat(81);
    const taken = state.taken || [];
    return (
      this.grid() === state.values &&
      this.notes.every((n, i) => same(n, tidy(state.notes[i] || []))) &&
      this.complete.every((c, i) => c === (complete[i] === "1")) &&
      (!state.taken || this.taken.every((t, i) => same(t, sorted(taken[i] || [])))) &&
      (!state.marks || sameMarks(this.marks, marksFrom(state.marks)))
    );
  }

  isGiven(i) {
    return this.puzzle[i] !== "0";
  }

  // The digits no peer of the cell holds.
  allowed(i) {
    const used = new Set(this.peers[i].map((j) => this.values[j]));
    return DIGITS.filter((d) => !used.has(d));
  }

  // The empty cells with exactly two candidates: the player's notes where they are a
  // complete candidate list, else the digits no peer holds.
  bivalue() {
    const two = new Set();
    for (let i = 0; i < 81; i++) {
      if (this.values[i]) continue;
      const candidates = this.complete[i] ? this.notes[i] : this.allowed(i);
      if (candidates.length === 2) two.add(i);
    }
    return two;
  }

  // Cells whose digit repeats in their row, column or box: a peer holds it too.
  conflicts() {
    const found = [];
    for (let i = 0; i < 81; i++) {
      const v = this.values[i];
      if (v && this.peers[i].some((j) => this.values[j] === v)) found.push(i);
    }
    return found;
  }

  // Every cell filled and no rule broken: the puzzle has one solution, so this is it.
  solved() {
    return this.values.every(Boolean) && this.conflicts().length === 0;
  }

  // A cell as the log records it: digit, notes, complete, the notes its digit took.
  cell(i) {
    return [this.values[i], [...this.notes[i]], this.complete[i], [...this.taken[i]]];
  }

  // Set a cell (for a digit, the peers' notes it took: kept as they were unless given);
  // the record of it, or null when nothing changed.
  change(i, value, notes, full, taken = null) {
    notes = tidy(notes);
    full = !!(full && notes.length && !value);
    if (taken === null) taken = value && value === this.values[i] ? this.taken[i] : [];
    taken = value ? sorted(taken) : [];
    const before = this.cell(i);
    const after = [value, notes, full, taken];
    if (sameCell(before, after)) return null;
    this.values[i] = value;
    this.notes[i] = [...notes];
    this.complete[i] = full;
    this.taken[i] = [...taken];
    return { cell: i, before, after: [value, [...notes], full, [...taken]] };
  }

  fitsAgain(i, digit) {
    return this.complete[i] && !this.notes[i].includes(digit) && this.allowed(i).includes(digit);
  }

  // A note a digit took goes back: the peer is still empty and the placed digits allow it.
  comesBack(i, digit) {
    return !this.values[i] && !this.notes[i].includes(digit) && this.allowed(i).includes(digit);
  }

  // A note that cannot come back because another copy of the digit sees the peer: that
  // copy holds it from now on.
  handOver(peer, digit) {
    if (this.values[peer] || this.notes[peer].includes(digit)) return null;
    const holder = this.peers[peer].find((c) => this.values[c] === digit);
    if (holder === undefined) return null;
    const [value, notes, full, taken] = this.cell(holder);
    return this.change(holder, value, notes, full, [...taken, peer]);
  }

  // A digit in a cell (0 erases), as one move. prefs: {autoNotes, autoRemove}.
  place(i, digit, prefs) {
    const old = this.values[i];
    const took = [...this.taken[i]];
    const again = !!digit && digit === old;
    const before = this.cell(i);
    if (digit === 0 && old && prefs.autoNotes) this.change(i, 0, this.allowed(i), true);
    else this.change(i, digit, [], false, again ? took : []);
    const changes = [];
    const taken = again ? [...took] : [];
    const gone = old && !again ? old : 0; // the digit erased or replaced
    for (const p of this.peers[i]) {
      const had = this.notes[p];
      const notes = new Set(had);
      if (gone && took.includes(p) && !this.comesBack(p, gone)) changes.push(this.handOver(p, gone));
      else if (gone && (took.includes(p) || (prefs.autoNotes && this.fitsAgain(p, gone)))) notes.add(gone);
      const clears = prefs.autoRemove || (prefs.autoNotes && this.complete[p]);
      if (digit && notes.has(digit) && clears) {
        notes.delete(digit);
        taken.push(p);
      }
      if (!same(sorted(notes), had)) changes.push(this.change(p, 0, [...notes], this.complete[p]));
    }
    if (digit) this.taken[i] = sorted(taken);
    const after = this.cell(i);
    const own = sameCell(before, after) ? null : { cell: i, before, after };
    return [own, ...changes].filter(Boolean);
  }

  // A move as the server takes it: {kind: "value"|"note", cell, digit}, or on several
  // cells (a list) as one entry. Returns the entry (null when nothing changed) or throws
  // an Error with the words for the player.
  move(i, digit, mode, prefs) {
    const cells = Array.isArray(i) ? i : [i];
    if (cells.some((c) => this.isGiven(c))) throw new Error(gettext("That is a given: it cannot change."));
    const changes = mode === "value" ? this.placeMany(cells, digit, prefs) : this.noteMany(cells, digit);
    return this.log({ kind: mode, cell: cells[0], digit, changes });
  }

  // On more than one cell a digit goes in the empty ones only (0 erases each); each
  // cell's records in turn, so that undo and redo are exact.
  placeMany(cells, digit, prefs) {
    const into = digit && cells.length > 1 ? cells.filter((c) => !this.values[c]) : cells;
    return into.flatMap((c) => this.place(c, digit, prefs));
  }

  // A note toggled in one cell; on several, the empty ones get it, or lose it when every
  // one has it (0 clears their notes).
  noteMany(cells, digit) {
    const empty = cells.length > 1 ? cells.filter((c) => !this.values[c]) : cells;
    if (!empty.length || this.values[empty[0]]) throw new Error(gettext("Clear the digit first to write notes in this cell."));
    const has = !!digit && empty.every((c) => this.notes[c].includes(digit));
    const lone = empty.length === 1;
    return empty
      .map((c) => {
        const notes = this.notes[c];
        const off = lone ? notes.includes(digit) : has;
        const next = digit === 0 ? [] : off ? notes.filter((d) => d !== digit) : [...notes, digit];
        return this.change(c, 0, next, this.complete[c]);
      })
      .filter(Boolean);
  }

  // A mark change as the server takes it (layers.js): corner and centre marks and
  // candidate colours in empty cells only, a colour on any cell. The entry, or null.
  mark(cells, layer, digit, colour) {
    if (layer !== "colour") {
      if (cells.some((i) => this.isGiven(i))) throw new Error(gettext("That is a given: it takes no marks."));
      if (cells.some((i) => this.values[i])) throw new Error(gettext("Clear the digit first to mark this cell."));
    }
    const had = cells.map((i) => this.marks[i] || {});
    const put = !had.every((m) => hasMark(m, layer, digit, colour));
    const changes = [];
    cells.forEach((i, k) => {
      const after = marked(had[k], layer, digit, colour, put);
      if (sameMarks(after, had[k])) return;
      this.setMarks(i, after);
      changes.push({ cell: i, before: [...this.cell(i), had[k]], after: [...this.cell(i), after] });
    });
    return this.log({ kind: "mark", cell: cells[0], digit, changes });
  }

  setMarks(i, marks) {
    this.marks = { ...this.marks };
    if (Object.keys(marks).length) this.marks[i] = marks;
    else delete this.marks[i];
  }

  // Fill all notes: every empty cell its candidates, complete.
  fillNotes() {
    const changes = [];
    for (let i = 0; i < 81; i++) if (!this.values[i]) changes.push(this.change(i, 0, this.allowed(i), true));
    changes.push(...this.keptOut());
    return this.log({ kind: "fill", changes: changes.filter(Boolean) });
  }

  // Each digit of the player's is kept out of the filled notes of the empty cells it sees,
  // as if it had taken it: erasing or replacing it puts it back.
  keptOut() {
    const changes = [];
    for (let i = 0; i < 81; i++) {
      if (!this.values[i] || this.isGiven(i)) continue;
      const kept = this.peers[i].filter((p) => !this.values[p] && this.complete[p]);
      const [value, notes, full, taken] = this.cell(i);
      changes.push(this.change(i, value, notes, full, [...taken, ...kept]));
    }
    return changes;
  }

  log(entry) {
    if (!entry.changes.length) return null;
    this.history.length = this.applied; // what was undone is dropped
    this.history.push(entry);
    this.applied = this.history.length;
    return entry;
  }

  replay(entry, side) {
    const changes = side === "before" ? [...entry.changes].reverse() : entry.changes;
    for (const { cell, [side]: record } of changes) {
      const [value, notes, full, taken, marks] = record;
      this.values[cell] = value;
      this.notes[cell] = [...notes];
      this.complete[cell] = !!full;
      this.taken[cell] = value && taken ? [...taken] : [];
      if (record.length > 4) this.setMarks(cell, marksFrom({ [cell]: marks })[cell] || {});
    }
  }

  canUndo() {
    return this.applied > 0;
  }

  canRedo() {
    return this.applied < this.history.length;
  }

  undo() {
    if (!this.canUndo()) return null;
    const entry = this.history[--this.applied];
    this.replay(entry, "before");
    return entry;
  }

  redo() {
    if (!this.canRedo()) return null;
    const entry = this.history[this.applied++];
    this.replay(entry, "after");
    return entry;
  }
}
