// The game as the page holds it, with no page in it: the server's last state, the board
// computed here (board.js), the changes not yet saved, what the player selected and chose,
// the help on show, and the state as shown. Everything that changes the game changes it
// here, then tells the page once (`on.changed`), which draws.
//
// A change (a digit, a note, erase, undo, redo, fill all notes) is applied to the board,
// kept through the store handed in and queued, and shown at once; the link (link.js) sends
// it in the next batch. The server is the judge: when every change is answered and its
// board differs from the page's, or it refused a change (another device changed that
// cell), the board is rebuilt from what it stored, and a refusal is said in words.
//
// Imports the board (board.js), marks' fields (layers.js), places' names (places.js), words (words.js).
// Nothing runs as it loads, and nothing here reads the page, the storage or the network:
// a test builds a Game from plain values.

import { Board } from "./board.js";
import { placeNamer } from "./places.js";
import { changeFields, marking } from "./layers.js";
import { checkedWords, closedWords, gameWords, practiceProgress, refusedWords, savedWords, troubleWords, unreadableWords } from "./words.js";

const NO_STORE = { read: () => null, write: () => true, forget: () => {} };
const NOTHING = () => {};

export class Game {
  // state: the server's state the page came with; peers: each cell's peers (81 lists, as
  // the engine gives them); prefs: {autoNotes, autoRemove, compactPlaces, digitFirst};
  // kept: this device's record of the game ({state, board, queue}) or null; store: the
  // record's home, {read(), write(record) -> kept?, forget()}; newId(): a client id for a
  // change; clock(): a steady time in ms (the timer counts on it); now(): the time of day
  // in ms (stamped on changes); on: {changed(game, {ended}), say(text, alert), announce(text)}.
  constructor({ state, peers, prefs = {}, kept = null, store = NO_STORE, newId, clock, now, on = {} }) {
    this.peers = peers.map((p) => [...p].sort((a, b) => a - b));
    this.peerSets = this.peers.map((p) => new Set(p));
    this.prefs = { autoNotes: !!prefs.autoNotes, autoRemove: prefs.autoRemove !== false };
    this.where = placeNamer(!!prefs.compactPlaces);
    this.store = store;
    this.newId = newId || (() => `page-${Math.random().toString(36).slice(2)}`);
    this.clock = clock || (() => Date.now());
    this.now = now || (() => Date.now());
    this.on = { changed: NOTHING, say: NOTHING, announce: NOTHING, ...on };
    // A page from the offline cache may be older than the state this device last heard.
    this.server = kept && kept.state && kept.state.version > state.version ? kept.state : state;
    this.queue = (kept && kept.queue) || [];
    this.board = this.startingBoard(kept);
    // The server holds moves under the page's own history (from before a reload, an
    // applied hint, another device's): undo goes on to them once the page's runs out.
    this.under = this.underAtStart(kept);
    this.settled = new Set(); // ids answered or given up here: never taken up again from the store
    this.unkept = false; // the store refused the last write (full, or turned off)
    this.pausedHere = null; // a pause or resume made offline that the server has not answered
    this.received = this.clock();
    this.notesMode = false;
    this.bivalueMode = false; // the cells with two candidates marked
    this.marking = marking(); // which marks a digit writes, the palette (layers.js)
    this.digitMode = 0; // a digit chosen first, placed in each cell tapped next (0: none)
    this.digitFirst = !!prefs.digitFirst; // the input switch
    this.revealed = new Set(); // cells revealed from this page
    this.hint = null; // the server's hint object, as told
    this.checkCells = new Set(); // the cells the check found wrong
    this.walk = null; // {path, index}
    this.replay = null; // {frames, total, index, wanted, playing}
    this.broken = false; // the page lost its session: it must be reloaded
    this.wasPlaying = this.server.status === "playing";
    this.manualPause = false; // paused by hand (not by the page being hidden)
    this.refresh();
    this.selected = Math.max(0, this.server.puzzle.indexOf("0"));
    this.known = { conflicts: new Set(this.state.conflicts || []), wrong: new Set(this.state.wrong || []) };
    const practice = this.state.practice;
    this.practiceSaid = { found: !!(practice && practice.found), taken: 0 };
  }

  startingBoard(kept) {
    if (kept && kept.board) {
      const restored = Board.restore(this.server.puzzle, this.peers, kept.board);
      if (this.queue.length || restored.sameAs(this.server)) return restored;
    }
    return Board.fromState(this.server, this.peers);
  }

  // Whether the server has moves to undo under the board's history as it starts: as kept,
  // else the server's word when the page has none of its own to take back.
  underAtStart(kept) {
    if (kept && kept.board && this.board.history.length && typeof kept.under === "boolean") return kept.under;
    return !this.board.applied && !!this.server.can_undo;
  }

  // The state as shown: the server's, with the page's own board (and its undo and redo,
  // its conflicts, a solve seen here) in it.
  refresh() {
    const { server, board } = this;
    const shown = { ...server };
    if (this.pausedHere !== null && server.status === "playing") shown.paused = this.pausedHere;
    shown.values = board.grid();
    shown.notes = board.notes;
    shown.complete = board.complete.map((c) => (c ? "1" : "0")).join("");
    shown.conflicts = board.conflicts();
    const playing = server.status === "playing";
    shown.can_undo = playing && (board.canUndo() || this.undoIsTheirs());
    shown.can_redo = playing && (board.canRedo() || (this.alone() && !!server.can_redo)); // a move drops redo
    // A digit the server marked wrong is still wrong only while it is still there.
    shown.wrong = (server.wrong || []).filter((i) => shown.values[i] === server.values[i]);
    if (playing && board.solved()) {
      shown.status = "solved"; // the server confirms it, with its clock and its judgement
      shown.unconfirmed = true;
    }
    this.state = shown;
  }

  alone() {
    return !this.queue.length && !this.board.history.length;
  }

  // Undo with the page's own history all taken back goes to the server's moves under it:
  // the page cannot draw it, and shows the board the server answers.
  undoIsTheirs() {
    return !this.board.canUndo() && (this.alone() ? !!this.server.can_undo : this.under);
  }

  // Every change ends here. A game over puts the hint and a chosen digit away; the
  // practice's progress is said; then the page draws (`ended`: the game ended just now).
  changed() {
    const over = this.state.status !== "playing";
    if (over) {
      this.putHintAway();
      this.digitMode = 0;
    }
    this.tellPractice();
    const ended = over && this.wasPlaying;
    if (ended) this.wasPlaying = false;
    this.on.changed(this, { ended });
  }

  say(text, alert = false) {
    this.on.say(text, alert);
  }

  // --- Questions the page asks.

  valueAt(i) {
    return this.board.values[i];
  }

  isGiven(i) {
    return this.state.puzzle[i] !== "0";
  }

  // Cells with a change not yet saved on the server.
  isPending(i) {
    return this.queue.some((c) => c.cell === i || (c.cells && c.cells.includes(i)));
  }

  canChange() {
    const { state } = this;
    return state.status === "playing" && !state.paused && !this.walk && !this.broken;
  }

  // The controls take input: the game is in play, not paused, and the page still has its
  // session (the walkthrough leaves them open; each action asks canChange).
  open() {
    const { state } = this;
    return state.status === "playing" && !state.paused && !this.broken;
  }

  pausedNow() {
    return this.state.status === "playing" && (this.state.paused || this.manualPause);
  }

  // The time played, counted on from the server's for as long as it said its clock runs
  // on (0 while paused or over), then stopped, as the server's is.
  seconds() {
    const since = Math.min((this.clock() - this.received) / 1000, this.state.runs_for || 0);
    return this.state.elapsed + since;
  }

  // The board as shown: a frame of the replay, a step of the walkthrough, the solution
  // after giving up, or the game.
  shownBoard() {
    const { state, walk, replay } = this;
    if (replay) {
      const frame = replay.frames[replay.index];
      return { values: [...frame.values].map(Number), notes: frame.notes };
    }
    if (walk) {
      const step = walk.path[walk.index];
      return { values: [...step.values].map(Number), notes: step.candidates };
    }
    if (state.status === "gave_up" && state.solution) {
      return { values: [...state.solution].map(Number), notes: state.notes };
    }
    return { values: [...this.board.values], notes: state.notes };
  }

  // The saving line's words (words.js), `offline` as the link knows it, `held` the ms left
  // of a wait the server asked for, `sending` whether a batch is on its way.
  savedWords(offline, held = 0, sending = true) {
    const { broken, unkept } = this;
    const playing = this.server.status === "playing";
    const busy = Math.ceil(held / 1000);
    return savedWords({ broken, waiting: this.queue.length, unkept, offline, playing, busy, sending });
  }

  practiceProgress() {
    return practiceProgress(this.state.practice, this.where);
  }

  // --- The changes a player makes, kept and queued.

  // A change carried out on the board: the entry it made (null: nothing changed). Throws
  // with the words for the player when it cannot be made.
  carryOut(change) {
    const { board, prefs } = this;
    if (change.kind === "move") return board.move(change.cells || change.cell, change.digit, change.mode || "value", prefs);
    if (change.kind === "fill-notes") return board.fillNotes();
    if (change.kind === "mark") return board.mark(change.cells, change.layer, change.digit || 0, change.colour || 0);
    if (change.kind === "undo") return board.undo();
    if (change.kind === "redo") return board.redo();
    return null;
  }

  // A change made on the page: {kind: "move", cell, digit, mode: "value"|"note"}, {kind:
  // "mark", cells, layer, digit, colour} (layers.js), or {kind: "fill-notes"|"undo"|"redo"}. Applied, kept, shown; true when it is to be sent.
  play(change) {
    if (this.broken) return false;
    const { kind } = change;
    let entry;
    try {
      entry = this.carryOut(change);
    } catch (error) {
      this.say(error.message);
      return false;
    }
    const theirs = (kind === "undo" && this.state.can_undo) || (kind === "redo" && this.state.can_redo);
    if (!entry && !theirs) return false;
    if (!entry && kind === "undo") this.under = false; // known again from the server's answer
    const { server } = this;
    this.queue.push({ id: this.newId(), kind, ...changeFields(change), base: server.version, at: this.now() });
    this.keep(); // stored before it is sent
    if (kind === "fill-notes") this.say(gameWords.filled());
    this.refresh();
    this.boardChanged();
    this.changed();
    return true;
  }

  // The record written to the store. Another tab on this game may have kept changes of
  // its own since: they are taken up and sent from here too (the server stores each once),
  // so that closing that tab loses none.
  keep() {
    const stored = this.store.read();
    const mine = new Set(this.queue.map((c) => c.id));
    const theirs = ((stored && stored.queue) || []).filter((c) => !mine.has(c.id) && !this.settled.has(c.id));
    if (theirs.length) this.queue = [...theirs, ...this.queue];
    // A game over with nothing left to send needs no keeping: the server has it all.
    if (this.server.status !== "playing" && !this.queue.length) {
      this.store.forget();
      return true;
    }
    const record = { state: this.server, board: this.board.snapshot(), queue: this.queue, under: this.under };
    this.unkept = !this.store.write(record);
    return !this.unkept;
  }

  settle(changes) {
    changes.forEach((c) => this.settled.add(c.id));
  }

  // The board changed: a check's mark and a hint were about the old one; a conflict or a
  // mistake it brought is said in words.
  boardChanged() {
    this.checkCells = new Set();
    this.putHintAway();
    const words = this.troubleWords();
    if (words) this.say(words);
  }

  // The conflicts and marked mistakes not there before, in words; from now on they are known.
  troubleWords() {
    const { state } = this;
    const known = { conflicts: new Set(state.conflicts || []), wrong: new Set(state.wrong || []) };
    const { peers, selected, where } = this;
    const told = state.status === "playing" ? troubleWords(state, this.known, { peers, selected, where }) : "";
    this.known = known;
    return told;
  }

  tellPractice() {
    const practice = this.state.practice;
    if (!practice) return;
    const taken = practice.taken_out || [];
    if (!practice.found && taken.length > this.practiceSaid.taken) this.say(this.practiceProgress());
    this.practiceSaid.taken = taken.length;
    if (practice.found && !this.practiceSaid.found) {
      this.practiceSaid.found = true;
      this.say(gameWords.found(practice.technique));
    }
  }

  // --- What the server answered.

  // The server's state, as an answer brought it. With nothing waiting to be saved (none
  // queued, none `sending`), its board is the board: the server is the judge; with changes
  // waiting, the page's board stays until they are answered. `redraw` rebuilds it anyway,
  // with the changes still queued carried out again on top.
  accept(next, { redraw = false, sending = false } = {}) {
    if (!next || typeof next.values !== "string") return;
    const before = this.state.version;
    const moved = next.version !== this.server.version;
    this.server = next;
    this.received = this.clock();
    if (redraw || (!this.queue.length && !sending && !this.board.sameAs(next))) {
      this.board = Board.fromState(next, this.peers);
      this.under = !!next.can_undo;
      for (const change of this.queue) {
        try {
          this.carryOut(change);
        } catch {
          // the server will refuse it too, and say so
        }
      }
    }
    this.keep();
    this.refresh();
    if (moved || before !== this.state.version) this.boardChanged();
    this.changed();
  }

  // A batch answered {state, applied, refused}: what it applied or refused leaves the
  // queue; a refusal redraws the board as stored and is said.
  batchAnswered(data) {
    const refused = data.refused || [];
    const done = new Set([...(data.applied || []), ...refused.map((r) => r.id)]);
    this.settle(this.queue.filter((c) => done.has(c.id)));
    this.queue = this.queue.filter((c) => !done.has(c.id));
    this.accept(data.state, { redraw: refused.length > 0 });
    if (refused.length) this.say(refusedWords(refused, this.where), true);
  }

  // A batch refused whole with the game's state (the game is over or set aside): what was
  // sent cannot go in, nor what waits.
  batchClosed(data) {
    const lost = this.queue.length;
    this.settle(this.queue);
    this.queue = [];
    this.accept(data.state, { redraw: true });
    this.say(closedWords(data.error, lost), true);
  }

  // A batch the server cannot read: its changes would be refused again and again, so they
  // are dropped (the state is then asked for anew).
  batchUnreadable(sent, data) {
    const ids = new Set(sent.map((c) => c.id));
    this.settle(sent);
    this.queue = this.queue.filter((c) => !ids.has(c.id));
    this.say(unreadableWords(sent.length, data.error), true);
  }

  // The page lost its session (logged out or in elsewhere): it stops; the changes stay kept.
  lose(data) {
    this.broken = true;
    this.say(gameWords.outOfDate(data.error), true);
    this.changed();
  }

  // Offline, the page pauses on its own (the board hidden); the server's clock goes by its
  // own rules for the time it did not hear from the page.
  pauseHere(paused) {
    this.pausedHere = paused;
    this.refresh();
    this.changed();
  }

  // The server answered every pause and resume sent: its word on the clock stands.
  pauseAnswered() {
    this.pausedHere = null;
  }

  pauseByHand(paused) {
    this.manualPause = paused;
  }

  // --- The player's selection and modes.

  select(i) {
    this.selected = i === null ? null : Math.max(0, Math.min(80, i));
    this.extra = new Set(); // the other selected cells (selection.js)
    this.changed();
  }

  // A mode of the page on or off: notesMode, bivalueMode.
  toggle(mode) {
    this[mode] = !this[mode];
    this.changed();
  }

  // Digit first: the digit stays chosen, and each cell tapped takes it (the same digit
  // again stops).
  chooseDigit(digit) {
    this.digitMode = this.digitMode === digit ? 0 : digit;
    this.say(this.digitMode ? gameWords.digitChosen(digit) : "");
    this.changed();
  }

  // The way in effect: digit first as switched, or while a digit held is chosen.
  digitFirstNow() {
    return this.digitFirst || !!this.digitMode;
  }

  // The switch turns the way in effect over: a digit held and chosen in cell first is let
  // go of, back to cell first.
  switchInput() {
    if (this.digitFirst || !this.digitMode) this.digitFirst = !this.digitFirst;
    if (!this.digitFirst) this.digitMode = 0;
    this.say(gameWords.inputMode(this.digitFirst));
    this.changed();
  }

  // --- Help: hints, the check, reveals, the walkthrough and the replay.

  // A hint as the server told it: it marks the cells it speaks of, and the selection
  // stays where the player put it.
  showHint(told) {
    this.hint = told;
    this.changed();
  }

  putHintAway() {
    if (this.hint) this.on.announce("");
    this.hint = null;
  }

  closeHint() {
    this.putHintAway();
    this.changed();
  }

  // The server's check: {wrong: [cells]}; every wrong cell marked, and their number said.
  checked(result) {
    this.checkCells = new Set(result.wrong || []);
    this.say(checkedWords([...this.checkCells], this.state.values, this.where));
    this.changed();
  }

  revealedHere(cell, values) {
    this.revealed.add(cell);
    this.say(gameWords.revealed(values[cell], this.where(cell)));
    this.changed();
  }

  // The solving path, a step at a time ({values, candidates, cells, placements,
  // eliminations, explanation} each).
  openWalk(path) {
    this.walk = { path, index: 0 };
    this.walkTo(0);
  }

  walkTo(index) {
    const { walk } = this;
    if (!walk) return;
    walk.index = Math.max(0, Math.min(walk.path.length - 1, index));
    const step = walk.path[walk.index];
    if (step.cells.length) this.selected = step.cells[0];
    this.changed();
  }

  closeWalk() {
    this.walk = null;
    this.changed();
  }

  // The replay of the player's solve: frames arrive a page at a time (`frames` sparse).
  openReplay(frames, total) {
    this.walk = null;
    this.replay = { frames: [...frames], total, index: 0, wanted: 0, playing: false };
    this.changed();
  }

  // Frames fetched, from `start` on, into the replay they were asked for.
  addFrames(replay, start, frames) {
    frames.forEach((frame, k) => (replay.frames[start + k] = frame));
  }

  // A frame drawn: one that is here.
  showFrame(index) {
    const { replay } = this;
    replay.index = index;
    const frame = replay.frames[index];
    if (Number.isInteger(frame.cell)) this.selected = frame.cell;
    this.changed();
  }

  playReplay(playing) {
    this.replay.playing = playing;
    this.changed();
  }

  closeReplay() {
    this.replay = null;
    this.changed();
  }
}
