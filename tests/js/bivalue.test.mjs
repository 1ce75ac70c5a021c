// The bivalue highlight: every empty cell with exactly two candidates, read from the
// player's notes where that cell's notes are complete, else from the digits placed.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Board } from "../../static/js/game/board.js";
import { PUZZLE, makeGame, peers } from "./helpers.mjs";

// The candidates each cell's peers leave it (the placed digits alone).
function allowedBy(board) {
  return Array.from({ length: 81 }, (_, i) => (board.values[i] ? [] : board.allowed(i)));
}

test("a cell is bivalue by the placed digits, or by its notes once they are complete", () => {
  const board = new Board(PUZZLE, peers(), PUZZLE, null, "", null);
  const allowed = allowedBy(board);
  const two = allowed.flatMap((c, i) => (c.length === 2 ? [i] : []));
  assert.ok(two.length > 0);
  assert.deepEqual([...board.bivalue()].sort((a, b) => a - b), two);
  // A cell of three candidates whose complete notes hold two is bivalue; a cell of two
  // whose complete notes hold three is not; incomplete notes are not read.
  const three = allowed.findIndex((c) => c.length === 3);
  const notes = Array.from({ length: 81 }, () => []);
  const complete = Array.from({ length: 81 }, () => "0");
  notes[three] = allowed[three].slice(0, 2);
  complete[three] = "1";
  notes[two[0]] = [1, 2, 3];
  complete[two[0]] = "1";
  notes[two[1]] = [4];
  const marked = new Board(PUZZLE, peers(), PUZZLE, notes, complete.join(""), null).bivalue();
  assert.ok(marked.has(three));
  assert.ok(!marked.has(two[0]));
  assert.ok(marked.has(two[1]));
});

test("the toggle turns the page's mode on and off", () => {
  const { game, seen } = makeGame();
  assert.equal(game.bivalueMode, false);
  const draws = seen.draws;
  game.toggle("bivalueMode");
  assert.equal(game.bivalueMode, true);
  assert.equal(seen.draws, draws + 1, "drawn again");
  game.toggle("bivalueMode");
  assert.equal(game.bivalueMode, false);
});
