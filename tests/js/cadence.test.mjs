// The page's changes go to the server on a cadence: one batch a few seconds after the first
// change that waits, at once when six wait, when the board is full, when help or the clock
// is asked for; kept on the device meanwhile, and said so. A batch's answer is news enough
// that the page's look for another device's changes waits its turn.

import assert from "node:assert/strict";
import { test } from "node:test";

import { EVERY_MS, MANY } from "../../static/js/game/sync.js";
import { PUZZLE, SOLUTION, commands, handTimers, move, playingWith, serverState, standIn } from "./helpers.mjs";

const blanks = [...PUZZLE].flatMap((ch, i) => (ch === "0" ? [i] : []));
const right = (i) => move(i, Number(SOLUTION[i]));

// The server's answer to a batch: every change applied, the version moved on.
function applied(request, version) {
  const ids = request.body.changes.map((c) => c.id);
  request.answer({ ok: true, status: 200, data: { state: serverState({ version }), applied: ids, refused: [] } });
}

test("moves at human pace go in one batch, the cadence after the first", async () => {
  const api = standIn();
  const timers = handTimers();
  const { game, store, link } = playingWith(api, timers);
  assert.equal(EVERY_MS, 8000);
  link.play(right(blanks[0]));
  await timers.run(3000);
  link.play(right(blanks[1]));
  await timers.run(3000);
  link.play(right(blanks[2]));
  assert.equal(api.asked.length, 0, "nothing sent before the cadence is up");
  assert.equal(store.record.queue.length, 3, "every change is kept on the device meanwhile");
  assert.deepEqual(game.savedWords(link.sync.offline, link.sync.held(), link.sync.sending), [
    "3 changes kept on this device",
    "Kept · 3",
  ]);
  await timers.run(1900);
  assert.equal(api.asked.length, 0);
  await timers.run(200);
  assert.deepEqual(commands(api), ["changes"]);
  assert.equal(api.asked[0].body.changes.length, 3);
  assert.deepEqual(game.savedWords(link.sync.offline, link.sync.held(), link.sync.sending), ["Saving 3 changes…", "Saving 3"]);
  applied(api.asked[0], 3);
  await timers.run(10);
  assert.equal(game.queue.length, 0);
  assert.deepEqual(game.savedWords(link.sync.offline, link.sync.held(), link.sync.sending), ["Saved", ""]);
});

test("a change made while a batch is on its way waits its own cadence", async () => {
  const api = standIn();
  const timers = handTimers();
  const { game, link } = playingWith(api, timers);
  link.play(right(blanks[0]));
  await timers.run(EVERY_MS);
  assert.equal(api.asked.length, 1);
  link.play(right(blanks[1]));
  await timers.run(500);
  applied(api.asked[0], 1);
  await timers.run(EVERY_MS - 600);
  assert.equal(api.asked.length, 1, "not sent on the heels of the answer");
  await timers.run(200);
  assert.equal(api.asked.length, 2);
  assert.deepEqual(
    api.asked[1].body.changes.map((c) => c.cell),
    [blanks[1]],
  );
  applied(api.asked[1], 2);
  await timers.run(10);
  assert.equal(game.queue.length, 0);
});

test("six changes waiting go at once: a batch's digits stay within a person's pace", async () => {
  const api = standIn();
  const timers = handTimers();
  const { link } = playingWith(api, timers);
  for (let i = 0; i < MANY - 1; i++) link.play(right(blanks[i]));
  await timers.run(100);
  assert.equal(api.asked.length, 0);
  link.play(right(blanks[MANY - 1]));
  await timers.run(1);
  assert.deepEqual(commands(api), ["changes"]);
  assert.equal(api.asked[0].body.changes.length, MANY);
  assert.ok(MANY <= 10, "within the server's DIGIT_BURST");
});

test("the move that fills the board goes at once: the server judges the solve", async () => {
  const api = standIn();
  const timers = handTimers();
  const values = [...SOLUTION].map((d, i) => (i === blanks[0] ? "0" : d)).join("");
  const { game, link } = playingWith(api, timers);
  game.accept(serverState({ values, version: 5 }), { redraw: true });
  link.play(right(blanks[0]));
  await timers.run(1);
  assert.deepEqual(commands(api), ["changes"]);
});

test("help and the clock's calls send what waits at once, then go", async () => {
  for (const command of ["hint", "pause"]) {
    const api = standIn();
    const timers = handTimers();
    const { link } = playingWith(api, timers);
    link.play(right(blanks[0]));
    await timers.run(1000);
    link.call(command, command === "hint" ? { level: 1 } : {});
    await timers.run(1);
    assert.deepEqual(commands(api), ["changes"], command);
    applied(api.asked[0], 1);
    await timers.run(1);
    assert.deepEqual(commands(api), ["changes", command], command);
  }
});

test("a call with nothing waiting leaves the next change to its cadence", async () => {
  const api = standIn();
  const timers = handTimers();
  const { link } = playingWith(api, timers);
  link.call("pause");
  await timers.run(1);
  api.asked[0].answer({ ok: true, status: 200, data: serverState({ paused: true }) });
  await timers.run(1);
  link.play(right(blanks[0]));
  await timers.run(1000);
  assert.deepEqual(commands(api), ["pause"]);
});

test("the look for another device's changes waits while a batch's answer is fresh", async () => {
  const api = standIn();
  const timers = handTimers();
  const { link } = playingWith(api, timers);
  link.play(right(blanks[0]));
  await timers.run(EVERY_MS);
  applied(api.asked[0], 1);
  await timers.run(5000);
  assert.equal(link.sync.answeredWithin(6000), true); // the minute's word to the clock waits too
  assert.equal(link.sync.answeredWithin(5000), false);
  await link.look(10000); // the clock's look: the batch's answer 5 s ago brought the state
  assert.deepEqual(commands(api), ["changes"]);
  link.look(); // asked for (the page came to the front): read
  await timers.run(1);
  assert.deepEqual(commands(api), ["changes", "state?since=1"]);
  api.asked[1].answer({ ok: true, status: 200, data: serverState({ version: 1 }) });
  await timers.run(5001);
  link.look(10000); // 10 s since the batch's answer: read
  await timers.run(1);
  assert.deepEqual(commands(api), ["changes", "state?since=1", "state?since=1"]);
});

test("a strained server's answer sets a longer cadence until an answer says nothing of it", async () => {
  const api = standIn();
  const timers = handTimers();
  const { link } = playingWith(api, timers);
  const answer = (request, version, extra = {}) => {
    const ids = request.body.changes.map((c) => c.id);
    const data = { state: serverState({ version }), applied: ids, refused: [], ...extra };
    request.answer({ ok: true, status: 200, data });
  };
  link.play(right(blanks[0]));
  await timers.run(EVERY_MS);
  answer(api.asked[0], 1, { send_every: 20000 });
  await timers.run(10);
  assert.equal(link.sync.every, 20000);
  link.play(right(blanks[1]));
  await timers.run(EVERY_MS + 100);
  assert.equal(api.asked.length, 1, "the longer cadence holds the next batch");
  await timers.run(20000 - EVERY_MS);
  assert.equal(api.asked.length, 2);
  answer(api.asked[1], 2); // no word of it: the site's own cadence again
  await timers.run(10);
  assert.equal(link.sync.every, EVERY_MS);
  link.play(right(blanks[2]));
  await timers.run(EVERY_MS + 10);
  assert.equal(api.asked.length, 3);
  // What cannot be a cadence is not taken: never shorter than the site's, at most a minute.
  answer(api.asked[2], 3, { send_every: 1000 });
  await timers.run(10);
  assert.equal(link.sync.every, EVERY_MS);
  link.play(right(blanks[3]));
  await timers.run(EVERY_MS + 10);
  answer(api.asked[3], 4, { send_every: 3600000 });
  await timers.run(10);
  assert.equal(link.sync.every, 60000);
  link.play(right(blanks[4]));
  await timers.run(60010);
  answer(api.asked[4], 5, { send_every: "soon" });
  await timers.run(10);
  assert.equal(link.sync.every, EVERY_MS);
});

test("six changes still go at once under the longer cadence", async () => {
  const api = standIn();
  const timers = handTimers();
  const { link } = playingWith(api, timers);
  link.play(right(blanks[0]));
  await timers.run(EVERY_MS);
  const ids = api.asked[0].body.changes.map((c) => c.id);
  const data = { state: serverState({ version: 1 }), applied: ids, refused: [], send_every: 30000 };
  api.asked[0].answer({ ok: true, status: 200, data });
  await timers.run(10);
  for (const cell of blanks.slice(1, 1 + MANY)) link.play(right(cell));
  await timers.run(1);
  assert.equal(api.asked.length, 2);
  assert.equal(api.asked[1].body.changes.length, MANY);
});

test("a page served by a strained server starts on the longer cadence, until an answer says otherwise", async () => {
  const api = standIn();
  const timers = handTimers();
  const { link } = playingWith(api, timers, undefined, 20000);
  assert.equal(link.sync.every, 20000);
  assert.equal(link.sync.own, EVERY_MS);
  link.play(right(blanks[0]));
  await timers.run(EVERY_MS + 100);
  assert.equal(api.asked.length, 0, "the first batch waits the longer cadence");
  await timers.run(20000 - EVERY_MS);
  assert.equal(api.asked.length, 1);
  applied(api.asked[0], 1); // no word of it: the site's own cadence from now on
  await timers.run(10);
  assert.equal(link.sync.every, EVERY_MS);
  // What cannot be a cadence is not taken.
  for (const asked of [1000, "soon", undefined]) {
    assert.equal(playingWith(standIn(), handTimers(), undefined, asked).link.sync.every, EVERY_MS);
  }
});
