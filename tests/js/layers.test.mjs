// Corner and centre marks and colours on the page's board and in its queue: a change is
// one entry (undo and redo take it back and put it again), queued with its cells as a
// list, kept in the store, and read back from the server's state as the server keeps it.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Board } from "../../static/js/game/board.js";
import { markChange, marking, shownMarks } from "../../static/js/game/layers.js";
import { PUZZLE, blank, makeGame, peers, serverState } from "./helpers.mjs";

const empties = () => Array.from({ length: 81 }, (_, i) => i).filter(blank);
const mark = (cells, layer, digit = 0, colour = 0) => ({ kind: "mark", cells, layer, digit, colour });

test("corner and centre marks toggle, digit 0 clears the layer, in the server's order", () => {
  const [a] = empties();
  const board = new Board(PUZZLE, peers(), PUZZLE, null, "", null);
  board.mark([a], "corner", 7, 0);
  board.mark([a], "corner", 1, 0);
  board.mark([a], "centre", 3, 0);
  assert.deepEqual(board.marks[a], { corner: [1, 7], centre: [3] });
  board.mark([a], "corner", 7, 0);
  assert.deepEqual(board.marks[a], { corner: [1], centre: [3] });
  board.mark([a], "corner", 0, 0);
  board.mark([a], "centre", 3, 0);
  assert.deepEqual(board.marks, {});
});

test("colours paint any cell, the same colour again clears, candidates take colours of their own", () => {
  const [a] = empties();
  const given = [...PUZZLE].findIndex((ch) => ch !== "0");
  const board = new Board(PUZZLE, peers(), PUZZLE, null, "", null);
  board.mark([given], "colour", 0, 4);
  board.mark([a], "candidate", 7, 2);
  board.mark([a], "candidate", 3, 1);
  assert.deepEqual(board.marks, { [given]: { colour: 4 }, [a]: { candidates: [[3, 1], [7, 2]] } });
  board.mark([given], "colour", 0, 4);
  board.mark([a], "candidate", 7, 0);
  assert.deepEqual(board.marks, { [a]: { candidates: [[3, 1]] } });
  assert.throws(() => board.mark([given], "corner", 1, 0), /given/);
});

test("several cells take a mark together: all get it unless all have it", () => {
  const [a, b] = empties();
  const board = new Board(PUZZLE, peers(), PUZZLE, null, "", null);
  board.mark([a], "corner", 5, 0);
  const entry = board.mark([a, b], "corner", 5, 0);
  assert.deepEqual(entry.changes.map((c) => c.cell), [b]);
  board.mark([a, b], "corner", 5, 0);
  assert.deepEqual(board.marks, {});
});

test("a mark is undone and redone, and a digit undone leaves marks alone", () => {
  const [a, b] = empties();
  const { game } = makeGame();
  game.play(mark([a], "corner", 2));
  game.play({ kind: "move", cell: b, digit: 4, mode: "value" });
  game.play(mark([b], "colour", 0, 3));
  assert.deepEqual(game.board.marks, { [a]: { corner: [2] }, [b]: { colour: 3 } });
  game.play({ kind: "undo" });
  assert.deepEqual(game.board.marks, { [a]: { corner: [2] } });
  game.play({ kind: "undo" });
  assert.equal(game.valueAt(b), 0);
  assert.deepEqual(game.board.marks, { [a]: { corner: [2] } });
  game.play({ kind: "undo" });
  assert.deepEqual(game.board.marks, {});
  game.play({ kind: "redo" });
  assert.deepEqual(game.board.marks, { [a]: { corner: [2] } });
});

test("a mark is queued with its cells as a list and kept in the store before it is sent", () => {
  const [a] = empties();
  const { game, store } = makeGame();
  assert.equal(game.play(mark([a], "centre", 6)), true);
  const queued = game.queue.at(-1);
  assert.deepEqual(
    { kind: queued.kind, cells: queued.cells, layer: queued.layer, digit: queued.digit, colour: queued.colour },
    { kind: "mark", cells: [a], layer: "centre", digit: 6, colour: 0 },
  );
  assert.ok(game.isPending(a));
  assert.deepEqual(store.record.board.marks, { [a]: { centre: [6] } });
  assert.deepEqual(store.record.queue.at(-1).cells, [a]);
});

test("a page opened again takes its marks up from the store, else from the server's state", () => {
  const [a, b] = empties();
  const first = makeGame();
  first.game.play(mark([a], "corner", 9));
  const again = makeGame({ kept: first.store.record });
  assert.deepEqual(again.game.board.marks, { [a]: { corner: [9] } });
  const fresh = makeGame({ state: serverState({ marks: { [b]: { colour: 5, centre: [1, 2] } } }) });
  assert.deepEqual(fresh.game.board.marks, { [b]: { centre: [1, 2], colour: 5 } });
});

test("with nothing waiting, the server's marks win when they differ (another device's)", () => {
  const [a] = empties();
  const { game } = makeGame();
  game.accept(serverState({ version: 1, marks: { [a]: { colour: 2 } } }));
  assert.deepEqual(game.board.marks, { [a]: { colour: 2 } });
});

test("a digit tapped writes the layer chosen: corner, centre, or a candidate's colour", () => {
  const choice = marking();
  choice.layer = "corner";
  assert.deepEqual(markChange([4], choice, 3), mark([4], "corner", 3));
  choice.candidates = true;
  choice.colour = 6;
  assert.deepEqual(markChange([4], choice, 3), mark([4], "candidate", 3, 6));
});

test("the replay shows each frame's marks, the walkthrough none, the game the board's", () => {
  const [a] = empties();
  const { game } = makeGame();
  game.play(mark([a], "colour", 0, 8));
  assert.deepEqual(shownMarks(game), { [a]: { colour: 8 } });
  game.replay = { frames: [{ marks: {} }, { marks: { [a]: { corner: [4] } } }], index: 1 };
  assert.deepEqual(shownMarks(game), { [a]: { corner: [4] } });
  game.replay.frames[1] = { values: PUZZLE }; // a frame from before marks: none
  assert.deepEqual(shownMarks(game), {});
  game.replay = null;
  game.walk = { path: [{}], index: 0 };
  assert.deepEqual(shownMarks(game), {});
});
