// Many cells selected at once (docs/play.md, Selecting many cells): the selection kept by
// the page (selection.js), the change a digit, a note, a mark or an erase makes on every
// selected cell, and the page's board carrying it out as the server does (one entry, one
// undo).

import assert from "node:assert/strict";
import { test } from "node:test";

import { Board } from "../../static/js/game/board.js";
import { addCell, changeFor, eraseFor, extendTo, keepOne, selectedCells } from "../../static/js/game/selection.js";
import { blank, makeGame, PUZZLE, peers } from "./helpers.mjs";

const EMPTY = [...PUZZLE].map((_, i) => i).filter(blank);
const GIVEN = [...PUZZLE].findIndex((ch) => ch !== "0");
const prefs = { autoRemove: true, autoNotes: false };

function board() {
  const empty = Array.from({ length: 81 }, () => []);
  return new Board(PUZZLE, peers(), PUZZLE, empty, "", empty);
}

function heard(game) {
  const words = [];
  game.on.announce = (text) => words.push(text);
  return words;
}

test("a digit on several cells is one entry, and one undo takes it all back", () => {
  const b = board();
  const [a, c, d] = [2, 40, 78]; // empty cells that see none of each other
  assert.ok([a, c, d].every(blank));
  const entry = b.move([a, c, d], 4, "value", prefs);
  assert.equal(entry.kind, "value");
  assert.deepEqual([b.values[a], b.values[c], b.values[d]], [4, 4, 4]);
  assert.equal(b.history.length, 1);
  b.undo();
  assert.equal(b.grid(), PUZZLE);
  b.redo();
  assert.deepEqual([b.values[a], b.values[c], b.values[d]], [4, 4, 4]);
});

test("on several cells a digit skips those that hold one; on one cell it replaces it", () => {
  const b = board();
  b.move(2, 1, "value", prefs);
  b.move([2, 40], 4, "value", prefs);
  assert.deepEqual([b.values[2], b.values[40]], [1, 4]);
  b.move([2], 4, "value", prefs);
  assert.equal(b.values[2], 4);
});

test("a note on several cells goes in all of them, and comes off all once all have it", () => {
  const b = board();
  const [a, c, d] = EMPTY;
  b.move(a, 6, "note", prefs);
  b.move([a, c, d], 6, "note", prefs);
  assert.deepEqual([b.notes[a], b.notes[c], b.notes[d]], [[6], [6], [6]]);
  b.move([a, c, d], 6, "note", prefs);
  assert.deepEqual([b.notes[a], b.notes[c], b.notes[d]], [[], [], []]);
  assert.throws(() => b.move([a, GIVEN], 6, "note", prefs), /given/);
});

test("Ctrl+click adds a cell and makes it the one arrows move from; again takes it off", () => {
  const { game } = makeGame();
  const words = heard(game);
  game.select(EMPTY[0]);
  addCell(game, EMPTY[1]);
  addCell(game, EMPTY[2]);
  assert.equal(game.selected, EMPTY[2]);
  assert.deepEqual(selectedCells(game).sort((x, y) => x - y), EMPTY.slice(0, 3));
  assert.deepEqual(words, ["2 cells selected", "3 cells selected"]);
  addCell(game, EMPTY[1]);
  assert.deepEqual(selectedCells(game).sort((x, y) => x - y), [EMPTY[0], EMPTY[2]]);
  addCell(game, EMPTY[2]); // the primary cell itself: the one before takes its place
  assert.deepEqual(selectedCells(game), [EMPTY[0]]);
  assert.equal(game.selected, EMPTY[0]);
  assert.equal(words.at(-1), "1 cell selected");
});

test("extending keeps every cell passed over; Esc or a plain select keeps one", () => {
  const { game } = makeGame();
  game.select(10);
  extendTo(game, 11);
  extendTo(game, 12);
  extendTo(game, 11); // back over a cell: still selected, once
  assert.equal(game.selected, 11);
  assert.deepEqual(selectedCells(game).sort((x, y) => x - y), [10, 11, 12]);
  keepOne(game);
  assert.deepEqual(selectedCells(game), [11]);
  extendTo(game, 12);
  game.select(30);
  assert.deepEqual(selectedCells(game), [30]);
});

test("a digit on the selection names its empty cells, givens and filled cells left out", () => {
  const { game } = makeGame();
  const [a, c] = [2, 40];
  game.play({ kind: "move", cell: a, digit: 1, mode: "value" });
  game.select(a);
  addCell(game, GIVEN);
  addCell(game, c);
  addCell(game, 78);
  const change = changeFor(game, 4, false);
  // The primary cell (the last added) first.
  assert.deepEqual(change, { kind: "move", cells: [78, c], digit: 4, mode: "value" });
  assert.ok(game.play(change));
  const sent = game.queue.at(-1);
  assert.deepEqual(sent.cells, [78, c]);
  assert.equal(sent.cell, 78);
  assert.deepEqual([game.board.values[c], game.board.values[78]], [4, 4]);
  assert.deepEqual(changeFor(game, 5, true), null); // no empty cell left for a note
});

test("marks, colours and erase on the selection", () => {
  const { game } = makeGame();
  const [a, c, d] = EMPTY;
  game.select(a);
  addCell(game, c);
  addCell(game, d);
  addCell(game, GIVEN);
  game.marking.layer = "corner";
  const corner = changeFor(game, 7, false);
  assert.deepEqual(corner, { kind: "mark", cells: [a, c, d], layer: "corner", digit: 7, colour: 0 });
  game.marking.layer = null;
  game.play({ kind: "move", cells: [a, c], digit: 3, mode: "note" });
  assert.deepEqual(eraseFor(game), { kind: "move", cells: [a, c], digit: 0, mode: "value" });
  game.marking.layer = "centre";
  game.play({ kind: "mark", cells: [d], layer: "centre", digit: 2 });
  assert.deepEqual(eraseFor(game), { kind: "mark", cells: [a, c, d], layer: "centre", digit: 0 });
});
