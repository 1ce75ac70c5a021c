// A server too busy to answer (a 503 or 429 with Retry-After): the page keeps every change,
// waits as long as it was told (within 1 s and 2 min; today's backoff when the answer says
// nothing usable), then sends them all; meanwhile none of its other requests goes out, and
// the saving line says what waits and when it goes.

import assert from "node:assert/strict";
import { test } from "node:test";

import { askedWait } from "../../static/js/game/sync.js";
import { savedWords } from "../../static/js/game/words.js";
import { PUZZLE, commands, handTimers, lastSaid, move, playingWith, serverState, standIn } from "./helpers.mjs";

const BUSY = (seconds, more = {}) => ({
  ok: false,
  status: 503,
  retryAfter: seconds === null ? null : String(seconds),
  data: { error: "The site is busy. Try again in a moment." },
  ...more,
});

// Sent as soon as made (a cadence of 40 ms): these tests are about the server's answers.
const playing = (api, timers) => playingWith(api, timers, 40);


test("the wait a busy answer asks for: its Retry-After, within 1 s and 2 min", () => {
  assert.equal(askedWait(BUSY(8)), 8000);
  assert.equal(askedWait(BUSY(0)), 1000);
  assert.equal(askedWait(BUSY(3600)), 120000);
  assert.equal(askedWait({ ok: false, status: 429, retryAfter: "2", data: {} }), 2000);
  // The JSON body's retry_after when the header is missing (a proxy may drop it).
  assert.equal(askedWait(BUSY(null, { data: { error: "Busy.", retry_after: 5 } })), 5000);
  // Missing or malformed: none asked (today's backoff applies).
  for (const bad of [null, "", "soon", "-3", "1e9x", "Fri, 27 Nov 2026 17:00:00 GMT", "NaN"]) {
    assert.equal(askedWait(BUSY(bad)), null, bad);
  }
  assert.equal(askedWait(BUSY(null, { data: { retry_after: "x" } })), null);
  // Not a busy answer: nothing to wait for.
  assert.equal(askedWait({ ok: false, status: 400, retryAfter: "5", data: {} }), null);
  assert.equal(askedWait({ ok: true, status: 200, retryAfter: "5", data: {} }), null);
});

test("changes answered 503 with Retry-After are kept and sent once the wait is over", async () => {
  const api = standIn();
  const timers = handTimers();
  const { game, store, link } = playing(api, timers);
  link.play(move(2, 4));
  await timers.run(100);
  assert.deepEqual(commands(api), ["changes"]);
  api.asked[0].answer(BUSY(8));
  link.play(move(3, 6)); // made during the wait: kept with the first
  await timers.run(7900);
  assert.equal(api.asked.length, 1, "nothing goes out before the 8 s are over");
  assert.equal(store.record.queue.length, 2);
  assert.deepEqual(game.savedWords(link.sync.offline, link.sync.held()), [
    "Busy: 2 changes kept on this device, sending in 1 s",
    "Busy · 2",
  ]);
  await timers.run(200);
  assert.deepEqual(commands(api), ["changes", "changes"]);
  assert.deepEqual(
    api.asked[1].body.changes.map((c) => c.id),
    ["dev-1", "dev-2"],
  );
  const values = PUZZLE.slice(0, 2) + "46" + PUZZLE.slice(4);
  api.asked[1].answer({ ok: true, status: 200, data: { state: serverState({ values, version: 2 }), applied: ["dev-1", "dev-2"], refused: [] } });
  await timers.run(10);
  assert.equal(game.queue.length, 0);
  assert.deepEqual(game.savedWords(link.sync.offline, link.sync.held()), ["Saved", ""]);
});

test("a run of busy answers sends one request a wait, and loses no change", async () => {
  const api = standIn();
  const timers = handTimers();
  const { game, link } = playing(api, timers);
  link.play(move(2, 4));
  await timers.run(100);
  for (let i = 0; i < 5; i++) {
    api.asked.at(-1).answer(BUSY(30));
    link.play(move([3, 5, 6, 7, 8][i], 2));
    await timers.run(29_000);
    assert.equal(api.asked.length, i + 1);
    await timers.run(1000);
    assert.equal(api.asked.length, i + 2);
  }
  assert.equal(api.asked.at(-1).body.changes.length, 6);
  assert.equal(game.queue.length, 6);
});

test("a missing or malformed Retry-After falls back to the growing backoff", async () => {
  const api = standIn();
  const timers = handTimers();
  const { link } = playing(api, timers);
  link.play(move(2, 4));
  await timers.run(100);
  api.asked[0].answer(BUSY("soon"));
  await timers.run(999);
  assert.equal(api.asked.length, 1);
  await timers.run(1);
  assert.equal(api.asked.length, 2); // the first step of the backoff: 1 s
  api.asked[1].answer(BUSY(null));
  await timers.run(1999);
  assert.equal(api.asked.length, 2);
  await timers.run(1);
  assert.equal(api.asked.length, 3); // then 2 s
  link.sync.stopped = true;
});

test("during the wait no news read, pause or resume goes out; the clock's call goes after", async () => {
  const api = standIn();
  const timers = handTimers();
  const { game, link } = playing(api, timers);
  link.play(move(2, 4));
  await timers.run(100);
  api.asked[0].answer(BUSY(10));
  await timers.run(10);
  await link.look(); // the page's look for another device's changes, every 10 s
  link.call("pause");
  await timers.run(5000);
  await link.look();
  assert.deepEqual(commands(api), ["changes"]);
  assert.equal(link.busy(), true);
  await timers.run(5000);
  assert.deepEqual(commands(api), ["changes", "changes"]);
  const values = PUZZLE.slice(0, 2) + "4" + PUZZLE.slice(3);
  api.asked[1].answer({ ok: true, status: 200, data: { state: serverState({ values, version: 1 }), applied: ["dev-1"], refused: [] } });
  await timers.run(10);
  assert.deepEqual(commands(api), ["changes", "changes", "pause"]);
  assert.equal(game.queue.length, 0);
});

test("a news read answered busy holds the changes and the calls too", async () => {
  const api = standIn();
  const timers = handTimers();
  const { link } = playing(api, timers);
  const looking = link.look();
  await timers.run(10);
  api.asked[0].answer(BUSY(20));
  await looking;
  link.play(move(2, 4));
  link.call("resume");
  await timers.run(19_000);
  assert.deepEqual(commands(api), ["state?since=0"]);
  await timers.run(1000);
  assert.deepEqual(commands(api), ["state?since=0", "changes"]);
  link.sync.stopped = true;
});

test("a pause answered busy is sent again after the wait; the page is not lost", async () => {
  const api = standIn();
  const timers = handTimers();
  const { game, link } = playing(api, timers);
  link.call("pause");
  await timers.run(10);
  api.asked[0].answer(BUSY(4));
  await timers.run(3900);
  assert.equal(game.broken, false);
  assert.deepEqual(commands(api), ["pause"]);
  await timers.run(100);
  assert.deepEqual(commands(api), ["pause", "pause"]);
  api.asked[1].answer({ ok: true, status: 200, data: serverState({ paused: true }) });
  await timers.run(10);
  assert.equal(game.state.paused, true);
});

test("help asked during the wait says the server is busy, and when to ask again", async () => {
  const api = standIn();
  const timers = handTimers();
  const { game, said, link } = playing(api, timers);
  link.call("hint", { level: 1 });
  await timers.run(10);
  api.asked[0].answer(BUSY(6));
  await timers.run(10);
  assert.equal(game.broken, false);
  assert.equal(lastSaid(said), "The server is busy: ask again in 6 s. Your moves are kept.");
  await timers.run(2000);
  link.call("check");
  await timers.run(10);
  assert.equal(lastSaid(said), "The server is busy: ask again in 4 s. Your moves are kept.");
  assert.deepEqual(commands(api), ["hint"]);
});

test("the saving line while the server asks to wait", () => {
  const words = (fields) => savedWords({ broken: false, waiting: 0, unkept: false, offline: false, playing: true, busy: 0, ...fields });
  assert.deepEqual(words({ waiting: 5, busy: 8 }), ["Busy: 5 changes kept on this device, sending in 8 s", "Busy · 5"]);
  assert.deepEqual(words({ waiting: 1, busy: 1 }), ["Busy: 1 change kept on this device, sending in 1 s", "Busy · 1"]);
  assert.deepEqual(words({ waiting: 2, busy: 3, unkept: true }), [
    "Busy: 2 changes waiting (this browser's storage is full), sending in 3 s",
    "Busy · 2",
  ]);
  assert.deepEqual(words({ waiting: 0, busy: 8 }), ["Saved", ""]); // nothing of the player's waits
  assert.deepEqual(words({ waiting: 5, busy: 0 }), ["Saving 5 changes…", "Saving 5"]);
  assert.deepEqual(words({ waiting: 2, busy: 8, offline: true }), ["Offline: 2 changes kept on this device", "Offline · 2"]);
});
