// The game model with no page: a change and what it does to the board and the queue, the
// server's answers, and the state changes that belong to the model rather than to drawing.

import assert from "node:assert/strict";
import { test } from "node:test";

import { PUZZLE, SOLUTION, blank, lastSaid, makeGame, serverState } from "./helpers.mjs";

const move = (cell, digit, mode = "value") => ({ kind: "move", cell, digit, mode });
const withValue = (values, cell, digit) => values.slice(0, cell) + digit + values.slice(cell + 1);

test("a digit placed takes itself out of its peers' notes, and erasing it puts them back", () => {
  const { game } = makeGame({ prefs: { autoRemove: true } });
  game.play(move(5, 4, "note")); // row 1, where 4 may go
  game.play(move(11, 4, "note")); // the box and column of cell 2
  game.play(move(70, 4, "note")); // not a peer of cell 2
  game.play(move(2, 4));
  assert.equal(game.valueAt(2), 4);
  assert.deepEqual([game.state.notes[5], game.state.notes[11], game.state.notes[70]], [[], [], [4]]);
  game.play(move(2, 0));
  assert.equal(game.valueAt(2), 0);
  assert.deepEqual([game.state.notes[5], game.state.notes[11], game.state.notes[70]], [[4], [4], [4]]);
});

test("without auto-remove a placed digit leaves its peers' notes alone", () => {
  const { game } = makeGame({ prefs: { autoRemove: false } });
  game.play(move(3, 4, "note"));
  game.play(move(2, 4));
  assert.deepEqual(game.state.notes[3], [4]);
});

test("undo takes a digit back and redo puts it again, each queued for the server", () => {
  const { game } = makeGame();
  game.play(move(2, 4));
  assert.equal(game.state.can_undo, true);
  game.play({ kind: "undo" });
  assert.equal(game.valueAt(2), 0);
  assert.equal(game.state.values[2], "0");
  assert.deepEqual([game.state.can_undo, game.state.can_redo], [false, true]);
  game.play({ kind: "redo" });
  assert.equal(game.valueAt(2), 4);
  assert.deepEqual(
    game.queue.map((c) => c.kind),
    ["move", "undo", "redo"],
  );
});

test("undo with nothing to take back here is the server's to do only when it can", () => {
  const { game } = makeGame({ state: serverState({ can_undo: false }) });
  game.play({ kind: "undo" });
  assert.equal(game.queue.length, 0);
  const other = makeGame({ state: serverState({ values: withValue(PUZZLE, 2, 4), can_undo: true, version: 1 }) });
  other.game.play({ kind: "undo" });
  assert.deepEqual(
    other.game.queue.map((c) => c.kind),
    ["undo"],
  );
});

test("fill notes gives every empty cell the digits it can take, as a complete list", () => {
  const { game, said } = makeGame();
  game.play({ kind: "fill-notes" });
  assert.deepEqual(game.state.notes[2], [1, 2, 4]); // row 1 has 3, 5, 7; column 3 has 8; the box 6, 9
  for (let i = 0; i < 81; i++) {
    assert.equal(game.state.complete[i], blank(i) ? "1" : "0");
    if (blank(i)) assert.ok(game.state.notes[i].includes(Number(SOLUTION[i])), `cell ${i}`);
  }
  assert.equal(lastSaid(said), "Every empty cell now holds the digits it can take.");
});

test("a change is kept in the store with its client id before it is sent", () => {
  const { game, store } = makeGame();
  game.play(move(2, 4));
  game.play(move(3, 6));
  assert.deepEqual(
    store.record.queue.map(({ id, kind, cell, digit, mode, base }) => ({ id, kind, cell, digit, mode, base })),
    [
      { id: "dev-1", kind: "move", cell: 2, digit: 4, mode: "value", base: 0 },
      { id: "dev-2", kind: "move", cell: 3, digit: 6, mode: "value", base: 0 },
    ],
  );
  assert.equal(store.record.board.values[2], 4);
  assert.ok(game.isPending(2) && game.isPending(3) && !game.isPending(4));
});

test("a page opened again takes up the board and the queue it kept", () => {
  const first = makeGame();
  first.game.play(move(2, 4));
  const again = makeGame({ kept: first.store.record });
  assert.equal(again.game.valueAt(2), 4);
  assert.deepEqual(
    again.game.queue.map((c) => c.id),
    ["dev-1"],
  );
  // ... and a kept state newer than the page's wins over it.
  const newer = serverState({ version: 3, values: withValue(PUZZLE, 5, 8) });
  const later = makeGame({ kept: { state: newer, board: null, queue: [] } });
  assert.equal(later.game.server.version, 3);
  assert.equal(later.game.valueAt(5), 8);
});

test("a batch answered takes the applied changes off the queue and keeps the rest", () => {
  const { game, store, said } = makeGame();
  game.play(move(2, 4));
  game.play(move(3, 6));
  const values = withValue(PUZZLE, 2, 4);
  game.batchAnswered({ state: serverState({ values, version: 1 }), applied: ["dev-1"], refused: [] });
  assert.deepEqual(
    game.queue.map((c) => c.id),
    ["dev-2"],
  );
  assert.deepEqual(
    store.record.queue.map((c) => c.id),
    ["dev-2"],
  );
  assert.equal(game.valueAt(3), 6); // still waiting: the page's board stays
  assert.equal(said.length, 0);
});

test("a refused change is said, and the board shows the game as the server stored it", () => {
  const { game, said } = makeGame();
  game.play(move(2, 4));
  game.play(move(3, 6));
  const values = withValue(withValue(PUZZLE, 2, 4), 3, 1); // another device put a 1 there
  game.batchAnswered({
    state: serverState({ values, version: 2 }),
    applied: ["dev-1"],
    refused: [{ id: "dev-2", cell: 3 }],
  });
  assert.equal(game.queue.length, 0);
  assert.equal(game.valueAt(3), 1);
  assert.equal(game.valueAt(2), 4);
  assert.deepEqual(said.at(-1), {
    text: "Your change in row 1, column 4 was not saved. The board shows the game as stored.",
    alert: true,
  });
});

test("with nothing waiting, the server's board wins when the two differ", () => {
  const { game } = makeGame();
  game.play(move(2, 4));
  game.batchAnswered({ state: serverState({ values: withValue(PUZZLE, 2, 4), version: 1 }), applied: ["dev-1"] });
  game.accept(serverState({ values: withValue(PUZZLE, 2, 1), version: 2 }));
  assert.equal(game.valueAt(2), 1);
});

test("while changes wait or go out, the page's board stays until they are answered", () => {
  const { game } = makeGame();
  game.accept(serverState({ values: withValue(PUZZLE, 2, 1), version: 1 }), { sending: true });
  assert.equal(game.valueAt(2), 0);
  game.play(move(3, 6));
  game.accept(serverState({ values: withValue(PUZZLE, 2, 1), version: 1 }));
  assert.deepEqual([game.valueAt(2), game.valueAt(3)], [0, 6]);
  // Redrawn from the server, the changes still queued are carried out again on top.
  game.accept(serverState({ values: withValue(PUZZLE, 2, 1), version: 1 }), { redraw: true });
  assert.deepEqual([game.valueAt(2), game.valueAt(3)], [1, 6]);
});

test("a batch refused whole with the game's state drops the queue and says how many were lost", () => {
  const { game, said } = makeGame();
  game.play(move(2, 4));
  game.play(move(3, 6));
  game.batchClosed({ state: serverState({ status: "gave_up", version: 4 }), error: "The game is over." });
  assert.equal(game.queue.length, 0);
  assert.deepEqual(said.at(-1), { text: "The game is over. 2 changes were not saved.", alert: true });
});

test("a conflict a change brings is said once, places written as the setting says", () => {
  const { game, said } = makeGame({ prefs: { compactPlaces: true } });
  game.select(2);
  game.play(move(2, 5)); // row 1 has a 5 in its first cell
  assert.deepEqual(game.state.conflicts, [0, 2]);
  assert.equal(lastSaid(said), "Conflict: the 5 in r1c3 is also in r1c1.");
  const plain = makeGame();
  plain.game.select(2);
  plain.game.play(move(2, 5));
  assert.equal(lastSaid(plain.said), "Conflict: the 5 in row 1, column 3 is also in row 1, column 1.");
});

test("the last digit placed shows the game solved here, unconfirmed, and ends it once", () => {
  const { game, seen } = makeGame();
  game.chooseDigit(4);
  game.showHint({ level: 1, region: [0, 1, 2] });
  for (let i = 0; i < 81; i++) if (blank(i)) game.play(move(i, Number(SOLUTION[i])));
  assert.equal(game.state.status, "solved");
  assert.equal(game.state.unconfirmed, true);
  // A game over puts the hint and the chosen digit away, where the state changes.
  assert.equal(game.hint, null);
  assert.equal(game.digitMode, 0);
  assert.equal(seen.ended, 1);
  game.accept(serverState({ values: SOLUTION, status: "solved", version: 60 }));
  assert.equal(game.state.unconfirmed, undefined);
  assert.equal(seen.ended, 1);
});

test("a change to the board puts the hint and the check's mark away", () => {
  const { game } = makeGame();
  game.select(5);
  game.showHint({ level: 2, region: [0, 1, 2], cause: [1], target: [2] });
  assert.equal(game.selected, 5); // the hint marks its cells; the selection stays
  game.checked({ wrong: [] });
  game.play(move(3, 6));
  assert.equal(game.hint, null);
  assert.equal(game.checkCells.size, 0);
});

test("the check marks every wrong digit and says how many", () => {
  const { game, said } = makeGame();
  game.play(move(2, 1));
  game.play(move(3, 2));
  game.checked({ wrong: [2, 3] });
  assert.deepEqual([...game.checkCells], [2, 3]);
  assert.equal(lastSaid(said), "2 digits are wrong, marked on the board.");
  game.checked({ wrong: [2] });
  assert.match(lastSaid(said), /^1 digit is wrong: the 1 in /);
});

test("undo goes on past the page's own history to the moves the server holds under it", () => {
  // An applied hint comes as the server's board: its move is the server's, under the page's.
  const hinted = serverState({ values: withValue(PUZZLE, 2, 4), can_undo: true, version: 1 });
  const { game, store } = makeGame();
  game.accept(hinted);
  game.play(move(3, 6, "note"));
  game.play({ kind: "undo" });
  const saved = { ...hinted, version: 3, can_redo: true };
  game.batchAnswered({ state: saved, applied: game.queue.map((c) => c.id) });
  // A reload takes the page's history up again, and what lies under it.
  const again = makeGame({ state: saved, kept: store.record }).game;
  for (const page of [game, again]) {
    assert.equal(page.state.can_undo, true);
    page.play({ kind: "undo" });
    assert.equal(page.queue.at(-1).kind, "undo");
    assert.equal(page.state.can_undo, false); // known again once the server answers
  }
  game.batchAnswered({ state: serverState({ version: 4, can_redo: true }), applied: [game.queue[0].id] });
  assert.deepEqual([game.state.can_undo, game.state.can_redo, game.valueAt(2)], [false, true, 0]);
});

test("the switch shows the way in effect: a digit held shows digit first", () => {
  const { game } = makeGame();
  game.chooseDigit(4);
  assert.equal(game.digitFirstNow(), true);
  game.switchInput(); // back to cell first, the digit let go of
  assert.deepEqual([game.digitFirstNow(), game.digitFirst, game.digitMode], [false, false, 0]);
  game.switchInput();
  assert.deepEqual([game.digitFirstNow(), game.digitFirst], [true, true]);
});

test("the saving line says what waits, and where", () => {
  const { game } = makeGame();
  assert.deepEqual(game.savedWords(false), ["Saved", ""]);
  game.play(move(2, 4));
  assert.deepEqual(game.savedWords(false), ["Saving 1 change…", "Saving 1"]);
  assert.deepEqual(game.savedWords(true), ["Offline: 1 change kept on this device", "Offline · 1"]);
  game.lose({ error: "Log in again." });
  assert.deepEqual(game.savedWords(false), ["Not saved", "Not saved"]);
  assert.equal(game.play(move(3, 6)), false);
});

test("the timer counts on from the server's time only as long as its clock runs", () => {
  const { game, tick } = makeGame({ state: serverState({ elapsed: 100, runs_for: 30 }) });
  tick(10_000);
  assert.equal(game.seconds(), 110);
  tick(60_000);
  assert.equal(game.seconds(), 130);
});
