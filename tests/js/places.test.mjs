// Places named for people, or compact for a player who chose that setting.

import assert from "node:assert/strict";
import { test } from "node:test";

import { place, placeNamer } from "../../static/js/game/places.js";

test("a place is its row and column in words", () => {
  assert.equal(place(0), "row 1, column 1");
  assert.equal(place(40), "row 5, column 5");
  assert.equal(place(14), "row 2, column 6");
  assert.equal(place(80, { start: true }), "Row 9, column 9");
});

test("with compact places a place is written as players write it, anywhere in a sentence", () => {
  assert.equal(place(13, { compact: true }), "r2c5");
  assert.equal(place(80, { compact: true, start: true }), "r9c9");
});

test("a page's namer writes every place the way its setting says", () => {
  const words = placeNamer(false);
  const compact = placeNamer(true);
  assert.deepEqual([0, 13].map(words), ["row 1, column 1", "row 2, column 5"]);
  assert.deepEqual([0, 13].map(compact), ["r1c1", "r2c5"]);
  assert.equal(words.atStart(13), "Row 2, column 5");
  assert.equal(compact.atStart(13), "r2c5");
});
