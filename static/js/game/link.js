// The page's link to the server: the changes the model queued go out in batches (sync.js),
// and the server's own calls (help, reveals, the clock, giving up) go one at a time, each
// once the changes made before it are saved, by command name: "hint", "apply-hint",
// "check", "reveal", "pause", "resume", "give-up". Help needs the network, and says so
// when it is not there. A session lost (403, 404) stops the page; a token gone stale (a
// page kept offline from before a log-in) is renewed once. Asked to look (`look`), it
// reads whether the game moved on elsewhere (another device's changes) while nothing of
// the page's own is on its way. While the server asks the page to wait (a busy answer to
// any of its requests), nothing goes out: the clock's calls go once the wait is over, help
// asked meanwhile says when to ask again.
//
// Imports the batches (sync.js), the words of a wait (words.js) and the catalog's (i18n.js). The model, the API (http.js's GameApi or a stand-in),
// whether the browser is online and what to do with an answer are handed in.

import { askedWait, busyAnswer, Sync } from "./sync.js";
import { gettext } from "./i18n.js";
import { busyWords } from "./words.js";

const CLOCK = new Set(["pause", "resume"]);

// What a call that needs the network says when the device is offline.
const offlineWords = (command) =>
  ({
    hint: gettext("Hints need the network, and this device is offline. Your moves are kept here."),
    "apply-hint": gettext("Applying a hint needs the network, and this device is offline."),
    check: gettext("Checking the board needs the network, and this device is offline."),
    reveal: gettext("Revealing a cell needs the network, and this device is offline."),
    "give-up": gettext("Giving up needs the network, and this device is offline."),
  })[command];

// ...and when the server did not answer it.
const unansweredWords = (command) =>
  ({
    hint: gettext("Hints need the network, and the server did not answer. Your moves are kept here."),
    "apply-hint": gettext("Applying a hint needs the network, and the server did not answer."),
    check: gettext("Checking the board needs the network, and the server did not answer."),
    reveal: gettext("Revealing a cell needs the network, and the server did not answer."),
    "give-up": gettext("Giving up needs the network, and the server did not answer."),
  })[command];

export class Link {
  // game: the model (model.js); api: {call(command, body), read(what)}; device: this
  // browser's id; page: this page's name for the clock's calls ("device:opened", so the
  // server can tell a reloaded page's late pause); online(): the browser's word; renewToken(): a promise, true once the api
  // carries a fresh token; answered(call, data): a call's answer, after the state in it is
  // taken; changed(): the saving status may have moved; timers: as Sync takes them.
  // every: the changes' cadence in ms (sync.js; its default when not handed in); asked: the
  // longer one a strained server asked for as it served the page, if it did.
  constructor({ game, api, device, page = "", online = () => true, renewToken = async () => false, answered, changed, timers, every, asked }) {
    Object.assign(this, { game, api, page, online, renewToken });
    this.answered = answered || (() => {});
    this.changed = changed || (() => {});
    this.calls = [];
    this.calling = false;
    this.tokenRenewed = false;
    this.looking = false;
    this.sync = new Sync({
      post: (body) => api.call("changes", body),
      device,
      online: online(),
      take: () => game.queue,
      answered: (data) => this.batchAnswered(data),
      failed: (status, data, sent) => this.batchFailed(status, data, sent),
      changed: () => this.changed(),
      timers,
      every, // undefined: sync.js's default
      asked,
    });
    this.waking = null; // the timer that runs the calls once a wait is over
  }

  // A busy answer to one of the page's own requests: everything waits as long as it asks
  // (the backoff's first step when it says nothing usable).
  waitAsked(result) {
    this.sync.hold(askedWait(result) || 1000);
  }

  // The server is out of reach: the browser says it is offline, or no answer came.
  unreachable() {
    return this.sync.offline || !this.online();
  }

  start() {
    if (this.game.queue.length) this.sync.soon(0);
  }

  // A change made on the page (see Game.play): shown at once, sent with the next batch; at
  // once when it fills the board (the server judges the solve, and stops the clock) or
  // this browser's storage did not keep it.
  play(change) {
    const { game, sync } = this;
    if (!game.play(change)) return;
    if (game.unkept || game.board.values.every((v) => v)) sync.hurry(); // not kept here: sent now
    else sync.queued();
  }

  // Something of the page's is on its way, or cannot go: its answer brings the state.
  busy() {
    const { game, sync } = this;
    const waiting = sync.held() > 0;
    return game.broken || this.unreachable() || waiting || game.queue.length > 0 || sync.sending || this.calls.length > 0;
  }

  // The game as the server has it now, if it moved on from the version the page has (the
  // other device's changes): taken as any state is. One read at a time; an error is let
  // be (the next change or call says it). Not read when a batch's answer brought the
  // state less than `within` ms ago.
  async look(within = 0) {
    const { game, sync } = this;
    if (this.looking || this.busy() || game.server.status !== "playing") return;
    if (within && sync.answeredWithin(within)) return;
    this.looking = true;
    try {
      const result = await this.api.news(game.server.version);
      if (result && busyAnswer(result)) return this.waitAsked(result);
      const fresh = result && result.ok && result.data.version >= game.server.version;
      if (fresh && !this.busy()) game.accept(result.data);
    } catch {
      // no answer: offline, or the connection dropped; asked again later
    } finally {
      this.looking = false;
    }
  }

  // One of the server's own calls; `optional` marks one the server may not have yet: its
  // 404 is said, and does not end the page.
  call(command, body = {}, { optional = false } = {}) {
    if (this.game.broken) return;
    if (CLOCK.has(command) && this.unreachable()) this.game.pauseHere(command === "pause");
    if (CLOCK.has(command) && this.page) body = { ...body, page: this.page };
    this.calls.push({ command, body, optional });
    this.sync.hurry(); // the call goes once what waits is saved: it goes now
    this.runCalls();
  }

  async runCalls() {
    if (this.calling) return;
    this.calling = true;
    try {
      while (this.calls.length && !this.game.broken) {
        const item = this.calls[0];
        if (this.unreachable()) {
          this.calls.shift();
          if (offlineWords(item.command)) this.game.say(offlineWords(item.command));
          continue;
        }
        const wait = this.sync.held();
        if (wait && CLOCK.has(item.command)) return this.wake(wait);
        if (wait) {
          this.calls.shift();
          this.game.say(busyWords(wait));
          continue;
        }
        if (this.game.queue.length || this.sync.sending) return; // runs again once the changes are answered
        this.calls.shift();
        let result;
        try {
          result = await this.api.call(item.command, { ...item.body, version: this.game.server.version });
        } catch {
          const words = unansweredWords(item.command);
          if (words) this.game.say(words);
          continue;
        }
        if (!result.data.state && busyAnswer(result)) {
          this.waitAsked(result);
          if (CLOCK.has(item.command)) this.calls.unshift(item); // the clock's call goes after the wait
          else this.game.say(busyWords(this.sync.held()));
          continue;
        }
        this.handle(item, result);
      }
    } finally {
      this.calling = false;
      this.changed();
    }
  }

  // The calls run again once the wait the server asked for is over.
  wake(wait) {
    const { timers } = this.sync;
    timers.clear(this.waking);
    this.waking = timers.set(() => this.runCalls(), wait);
  }

  handle(item, { ok, status, data }) {
    const { game } = this;
    if (CLOCK.has(item.command) && !this.calls.some((c) => CLOCK.has(c.command))) game.pauseAnswered();
    if (ok) {
      game.accept(data, { sending: this.sync.sending });
      this.answered(item, data);
      return;
    }
    if (!data.state && item.optional && (status === 404 || status === 405)) {
      game.say(data.error || gettext("That is not available yet."));
      return;
    }
    if (!data.state) return this.lose(data);
    game.accept(data.state, { sending: this.sync.sending });
    game.say(data.error);
  }

  batchAnswered(data) {
    this.game.batchAnswered(data);
    this.runCalls();
  }

  batchFailed(status, data, sent) {
    const { game } = this;
    if (data && data.state) {
      game.batchClosed(data);
      return this.runCalls();
    }
    if (status === 400) {
      game.batchUnreadable(sent, data);
      this.api.read().then(
        (r) => r.ok && game.accept(r.data, { redraw: true, sending: this.sync.sending }),
        () => {},
      );
      return this.runCalls();
    }
    if (status === 403 && !this.tokenRenewed) {
      // A page kept offline may carry a token from before a log-in elsewhere: the page as
      // the server now serves it has the current one. Tried once.
      this.tokenRenewed = true;
      this.sync.stopped = true; // nothing goes out on the old token meanwhile
      this.renewToken().then((renewed) => {
        if (!renewed) return this.lose(data || {});
        this.sync.stopped = false;
        this.sync.soon(0);
      });
      return;
    }
    this.lose(data || {});
  }

  // The page lost its session: it stops sending; the changes stay kept on this device.
  lose(data) {
    this.sync.stopped = true;
    this.calls.length = 0;
    this.game.lose(data);
  }
}
