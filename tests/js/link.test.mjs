// The link to the server with a stand-in API: changes go out in one batch, the server's
// own calls wait for them and go by command name, and help offline says it needs the network.

import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as wait } from "node:timers/promises";

import { Link } from "../../static/js/game/link.js";
import { PUZZLE, lastSaid, makeGame, serverState } from "./helpers.mjs";

// An API whose answers the test gives, one request at a time.
function standIn() {
  const asked = [];
  return {
    asked,
    call: (command, body) => new Promise((answer) => asked.push({ command, body, answer })),
    read: () => Promise.resolve({ ok: true, status: 200, data: serverState() }),
  };
}

test("quick changes go out in one batch, and a hint waits until they are saved", async () => {
  const { game } = makeGame();
  const api = standIn();
  const answers = [];
  const link = new Link({ game, api, device: "dev", answered: (call, data) => answers.push([call.command, data]) });
  link.play({ kind: "move", cell: 2, digit: 4, mode: "value" });
  link.play({ kind: "move", cell: 3, digit: 6, mode: "value" });
  link.call("hint", { level: 1 });
  await wait(80);
  assert.deepEqual(
    api.asked.map((r) => r.command),
    ["changes"],
  );
  assert.deepEqual(
    api.asked[0].body.changes.map((c) => c.id),
    ["dev-1", "dev-2"],
  );
  const values = PUZZLE.slice(0, 2) + "46" + PUZZLE.slice(4);
  api.asked[0].answer({ ok: true, status: 200, data: { state: serverState({ values, version: 2 }), applied: ["dev-1", "dev-2"], refused: [] } });
  await wait(10);
  assert.equal(game.queue.length, 0);
  assert.deepEqual(
    api.asked.map((r) => r.command),
    ["changes", "hint"],
  );
  assert.deepEqual(api.asked[1].body, { level: 1, version: 2 });
  const hint = { level: 1, region: [0, 1, 2] };
  api.asked[1].answer({ ok: true, status: 200, data: { ...serverState({ values, version: 2, hints: 1 }), hint } });
  await wait(10);
  assert.deepEqual(answers, [["hint", { ...serverState({ values, version: 2, hints: 1 }), hint }]]);
  assert.equal(game.state.hints, 1);
});

test("offline, help says it needs the network and the moves stay kept", async () => {
  const { game, said, store } = makeGame();
  const api = standIn();
  const link = new Link({ game, api, device: "dev", online: () => false });
  link.play({ kind: "move", cell: 2, digit: 4, mode: "value" });
  link.call("hint", { level: 1 });
  assert.equal(lastSaid(said), "Hints need the network, and this device is offline. Your moves are kept here.");
  assert.equal(store.record.queue.length, 1);
  assert.deepEqual(game.savedWords(link.sync.offline), ["Offline: 1 change kept on this device", "Offline · 1"]);
  link.sync.stopped = true; // nothing more goes out in this test
});

test("a session lost stops the page: nothing more is sent, and the player is told to reload", async () => {
  const { game, said } = makeGame();
  const api = standIn();
  const link = new Link({ game, api, device: "dev" });
  link.call("check");
  await wait(5);
  api.asked[0].answer({ ok: false, status: 403, data: { error: "This game is not yours." } });
  await wait(5);
  assert.equal(game.broken, true);
  assert.deepEqual(said.at(-1), { text: "This game is not yours. Reload the page to go on.", alert: true });
  link.call("hint", { level: 1 });
  assert.equal(api.asked.length, 1);
});

test("the clock's calls name the page (device and the moment it opened); other calls do not", async () => {
  const api = standIn();
  const { game } = makeGame();
  const link = new Link({ game, api, device: "dev-12345", page: "dev-12345:1764300000000" });
  link.call("pause");
  await wait(5);
  assert.equal(api.asked[0].body.page, "dev-12345:1764300000000");
  api.asked[0].answer({ ok: true, status: 200, data: { state: serverState({ paused: true }) } });
  await wait(5);
  link.call("resume");
  await wait(5);
  assert.equal(api.asked[1].body.page, "dev-12345:1764300000000");
  api.asked[1].answer({ ok: true, status: 200, data: { state: serverState() } });
  await wait(5);
  link.call("hint", { level: 1 });
  await wait(5);
  assert.equal(api.asked[2].command, "hint");
  assert.equal("page" in api.asked[2].body, false);
});
