// The words of the end of a game: the share line and the wait for the next dailies.

import assert from "node:assert/strict";
import { test } from "node:test";

import { shareText, waitWords } from "../../static/js/game/views/end.js";

const solved = { daily: "2026-11-26", difficulty: "hard", grade: { tier: "hard", score: 3.4 }, elapsed: 725, hints: 0, reveals: 0 };

test("the share line carries the tier, the rating and the time", () => {
  assert.equal(shareText(solved), "Daily Sudoku 2026-11-26 — hard, rated 3.4, solved in 12:05, no help");
  assert.equal(shareText({ ...solved, daily: null, hints: 1 }), "Sudoku — hard, rated 3.4, solved in 12:05, 1 hint");
});

test("the wait for the next dailies is said in hours and minutes", () => {
  assert.equal(waitWords(5 * 3600 + 12 * 60 + 40), "5 h 12 min");
  assert.equal(waitWords(12 * 60), "12 min");
  assert.equal(waitWords(30), "under a minute");
});
