// The records kept in the browser's storage belong to one owner at a time: opening them
// for another owner's page drops the last one's, and a page reads its own owner's only.

import assert from "node:assert/strict";
import { test } from "node:test";

import { openRecords } from "../../static/js/game/queue.js";

// Storage as the browser's localStorage answers it.
class MemoryStorage {
  constructor() {
    this.items = new Map();
  }
  get length() {
    return this.items.size;
  }
  key(k) {
    return [...this.items.keys()][k] ?? null;
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
}

const NOW = 1_700_000_000_000;
const alice = { mark: "alice", expires: NOW / 1000 + 3600, issued: 1 };
const bob = { mark: "bob", expires: NOW / 1000 + 3600, issued: 2 };
const open = (storage, page, fromHistory = false) => openRecords({ storage, page, fromHistory, now: () => NOW });

test("a game's record is kept and read back by its owner", () => {
  const storage = new MemoryStorage();
  const records = open(storage, alice);
  assert.equal(records.writeGame("7", { queue: [{ id: "a-1" }] }), true);
  assert.deepEqual(open(storage, alice).readGame("7").queue, [{ id: "a-1" }]);
  assert.deepEqual(
    records.keptGames().map((g) => g.id),
    ["7"],
  );
});

test("another owner's page drops the last owner's records, unsent changes included", () => {
  const storage = new MemoryStorage();
  open(storage, alice).writeGame("7", { queue: [{ id: "a-1" }] });
  const bobs = open(storage, bob);
  assert.equal(bobs.readGame("7"), null);
  assert.equal(open(storage, alice).readGame("7"), null);
});

test("an old copy of another owner's page, brought back by the history, leaves the records alone", () => {
  const storage = new MemoryStorage();
  open(storage, bob).writeGame("7", { queue: [{ id: "b-1" }] });
  const stale = open(storage, alice, true);
  assert.equal(stale.staleCopy, true);
  assert.equal(stale.writeGame("8", {}), false);
  assert.deepEqual(open(storage, bob).readGame("7").queue, [{ id: "b-1" }]);
});

test("records past their session's end are nobody's", () => {
  const storage = new MemoryStorage();
  open(storage, { ...alice, expires: NOW / 1000 - 1 }).writeGame("7", {});
  assert.equal(open(storage, null).keptGames().length, 0);
  assert.equal(storage.getItem("sudoku.game.7"), null);
});

test("client ids carry the browser's id and only grow", () => {
  const storage = new MemoryStorage();
  const records = open(storage, alice);
  const device = records.deviceId();
  assert.match(device, /^[A-Za-z0-9_-]{8,40}$/);
  assert.equal(open(storage, alice).deviceId(), device);
  assert.deepEqual([records.nextId(device), records.nextId(device)], [`${device}-1`, `${device}-2`]);
  assert.equal(open(storage, alice).nextId(device), `${device}-3`);
});

test("with no storage the page still plays: nothing is kept, ids still differ", () => {
  const records = open(null, alice);
  assert.equal(records.writeGame("7", {}), false);
  assert.equal(records.readGame("7"), null);
  assert.notEqual(records.nextId("d"), records.nextId("d"));
});
