// What the tests of the page's model share: a puzzle and its solution, the board's
// geometry as the engine hands it to the page (each cell's peers), a server state, and a
// Game built with a store, a clock and ids of the test's own, recording what it says.

import { Link } from "../../static/js/game/link.js";
import { Game } from "../../static/js/game/model.js";

export const PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079";
export const SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

// Each cell's peers, sorted: its row, column and box but itself (engine/grid.py PEERS).
export function peers() {
  const box = (i) => Math.floor(Math.floor(i / 9) / 3) * 3 + Math.floor((i % 9) / 3);
  return Array.from({ length: 81 }, (_, i) =>
    Array.from({ length: 81 }, (_, j) => j).filter(
      (j) => j !== i && (Math.floor(j / 9) === Math.floor(i / 9) || j % 9 === i % 9 || box(j) === box(i)),
    ),
  );
}

const empty = () => Array.from({ length: 81 }, () => []);

// The state GET /api/games/<id> answers (docs/api.md), for a game just started.
export function serverState(fields = {}) {
  return {
    id: 1,
    puzzle: PUZZLE,
    values: PUZZLE,
    notes: empty(),
    complete: "0".repeat(81),
    taken: empty(),
    status: "playing",
    version: 0,
    elapsed: 0,
    runs_for: 0,
    mistakes: null,
    hints: 0,
    reveals: 0,
    can_undo: false,
    can_redo: false,
    wrong: [],
    ...fields,
  };
}

// A Game with everything it reaches outside handed in: `said` holds what it told the
// player, `store.record` what it kept, `draws` how often it asked to be drawn.
export function makeGame({ state = serverState(), prefs = {}, kept = null, stored = kept } = {}) {
  const said = [];
  const store = {
    record: stored,
    writes: 0,
    read: () => store.record,
    write: (record) => {
      store.record = JSON.parse(JSON.stringify(record)); // as the browser's storage keeps it
      store.writes++;
      return true;
    },
    forget: () => (store.record = null),
  };
  let ids = 0;
  let time = 1000;
  const seen = { draws: 0, ended: 0 };
  const game = new Game({
    state,
    peers: peers(),
    prefs: { autoRemove: true, ...prefs },
    kept,
    store,
    newId: () => `dev-${++ids}`,
    clock: () => time,
    now: () => 1700000000000,
    on: {
      say: (text, alert = false) => said.push({ text, alert }),
      changed: (_, { ended }) => {
        seen.draws++;
        if (ended) seen.ended++;
      },
    },
  });
  return { game, said, store, seen, tick: (ms) => (time += ms) };
}

export const blank = (i) => PUZZLE[i] === "0";
export const lastSaid = (said) => (said.length ? said[said.length - 1].text : "");

// Timers the test winds on by hand ({now, set, clear}, as Sync and Link take them):
// `run(ms)` moves the time on, firing each timer as its moment comes, in order, and lets
// the promises that follow settle.
export function handTimers(start = 1_000_000) {
  let time = start;
  let ids = 0;
  const due = new Map();
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    now: () => time,
    set: (fn, ms = 0) => {
      due.set(++ids, { at: time + Math.max(0, ms), fn });
      return ids;
    },
    clear: (id) => due.delete(id),
    async run(ms) {
      const end = time + ms;
      await settle();
      for (;;) {
        const next = [...due.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        due.delete(next[0]);
        time = next[1].at;
        next[1].fn();
        await settle();
      }
      time = end;
      await settle();
    },
  };
}

// An API whose answers the test gives, one request at a time ({command, body, answer} in
// `asked`); the game's news read too.
export function standIn() {
  const asked = [];
  const ask = (command, body) => new Promise((answer) => asked.push({ command, body, answer }));
  return {
    asked,
    call: ask,
    read: () => Promise.resolve({ ok: true, status: 200, data: serverState() }),
    news: (version) => ask(`state?since=${version}`, null),
  };
}

// A game being played on a Link to `api`, sending at the cadence `every` (ms; the page's
// default when undefined).
export function playingWith(api, timers, every, asked) {
  const made = makeGame();
  return { ...made, link: new Link({ game: made.game, api, device: "dev", timers, every, asked }) };
}

export const move = (cell, digit) => ({ kind: "move", cell, digit, mode: "value" });
export const commands = (api) => api.asked.map((r) => r.command);
