// The replay of the player's own solve, once the game is over: the frames of the move log
// fetched a page at a time (the server reads a long game's log by range) as the slider, a
// step or Play reaches a frame not yet here, and played on a timer. The model holds the
// frames and the one shown; the replay panel draws them (views/panels.js).
//
// Imports the catalog's words (i18n.js): the model, the API and the page are handed in.

import { gettext } from "./i18n.js";

const PLAY_MS = 400;
const PAGE = 100;

export class Replay {
  // model: the Game; api: {read(what)}; page: {root, scroll: {keepInView}}.
  constructor({ model, api, page }) {
    Object.assign(this, { model, api, root: page.root, scroll: page.scroll });
    this.timer = null;
    this.loading = new Map(); // the first frame of a page -> the promise of its arrival
    this.actions = {
      replay: () => this.open(),
      "replay-close": () => this.close(),
      "replay-prev": () => this.step(-1),
      "replay-next": () => this.step(1),
      "replay-play": () => this.play(),
    };
  }

  $(selector) {
    return this.root.querySelector(selector);
  }

  load(index) {
    const { replay } = this.model;
    const start = Math.floor(index / PAGE) * PAGE;
    if (replay.frames[index]) return true;
    const pages = this.loading;
    if (!pages.has(start)) {
      const asked = this.api.read(`replay?start=${start}&count=${PAGE}`).then((result) => {
        pages.delete(start);
        if (!result.ok || !result.data.frames) return false;
        this.model.addFrames(replay, start, result.data.frames);
        return true;
      });
      pages.set(start, asked);
    }
    return pages.get(start);
  }

  async show(index) {
    const { model } = this;
    const { replay } = model;
    const wanted = Math.max(0, Math.min(replay.total - 1, index));
    replay.wanted = wanted;
    if (!(await this.load(wanted))) {
      model.say(gettext("This part of the replay could not be loaded; try again."));
      return;
    }
    // A later step or slide went elsewhere while this page was on the way: that one draws.
    if (model.replay !== replay || replay.wanted !== wanted) return;
    model.showFrame(wanted);
    if (wanted + 1 < replay.total && !replay.frames[wanted + 1]) this.load(wanted + 1); // the next page, ahead
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.model.replay && this.model.replay.playing) this.model.playReplay(false);
  }

  async open() {
    const { model } = this;
    const result = await this.api.read(`replay?start=0&count=${PAGE}`);
    if (!result.ok || !result.data.frames || !result.data.frames.length) {
      model.say(result.data.error || gettext("There are no moves to replay."));
      return;
    }
    model.say(""); // what the message line said was about the board before the replay
    this.loading = new Map();
    model.openReplay(result.data.frames, result.data.total);
    this.show(0);
    this.scroll.keepInView(this.$("[data-replay] .replay-actions"));
    this.$("[data-replay-slider]").focus({ preventScroll: true });
  }

  close() {
    this.stop();
    this.model.closeReplay();
  }

  play() {
    const { model } = this;
    if (this.timer) return this.stop();
    model.playReplay(true);
    if (model.replay.index === model.replay.total - 1) this.show(0);
    this.timer = setInterval(() => {
      if (model.replay.index >= model.replay.total - 1) return this.stop();
      this.show(model.replay.index + 1);
    }, PLAY_MS);
  }

  step(by) {
    this.stop();
    this.show(this.model.replay.index + by);
  }

  listen() {
    this.$("[data-replay-slider]").addEventListener("input", (event) => {
      this.stop();
      this.show(Number(event.target.value));
    });
  }
}
