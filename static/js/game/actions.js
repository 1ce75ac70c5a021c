// The page's actions by name, as the controls' data-action and the keys call them: undo
// and redo, notes, erase, fill all notes, the hint's levels and Apply, pause, check,
// reveal and giving up (each asks first where it costs), the input switch (kept as the
// player's `digit_first` setting), corner and centre marks and the colours (marking.js),
// the walkthrough, the replay, share, print and the keys' help. Each asks the model
// whether it may act, then plays a change or makes a call.
//
// Imports the marks' actions (marking.js), the selection's erase (selection.js), the
// share line (views/end.js) and the catalog's words (i18n.js).

import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { markActions } from "./marking.js";
import { eraseFor, manySelected } from "./selection.js";
import { shareText } from "./views/end.js";

export class Actions {
  // model: the Game; link: the Link; api: its GameApi (the token, for the setting's post);
  // help: the HelpDesk; replay: the Replay; page: {root}.
  constructor({ model, link, api, help, replay, page }) {
    Object.assign(this, { model, link, api, help, replay, root: page.root });
    this.byName = this.table();
  }

  $(selector) {
    return this.root.querySelector(selector);
  }

  // Undo and redo only when there is something to take back or do again: no request else.
  table() {
    const { model, link, help } = this;
    const may = () => model.canChange();
    const nextLevel = () => Math.min(3, (model.hint ? model.hint.level : 0) + 1);
    return {
      undo: () => may() && model.state.can_undo && link.play({ kind: "undo" }),
      redo: () => may() && model.state.can_redo && link.play({ kind: "redo" }),
      "input-mode": () => this.switchInput(),
      erase: () => this.erase(),
      notes: () => {
        model.marking.layer = null; // notes, or digits: not marks
        model.toggle("notesMode");
      },
      ...markActions(model, link),
      bivalue: () => this.markBivalue(),
      "fill-notes": () => may() && link.play({ kind: "fill-notes" }),
      hint: () => may() && link.call("hint", { level: 1 }),
      "hint-more": () => may() && link.call("hint", { level: nextLevel() }),
      "apply-hint": () => may() && model.hint && link.call("apply-hint", {}, { optional: true }),
      "hint-close": () => help.closeHint(),
      pause: () => this.setPaused(!model.pausedNow(), true),
      resume: () => this.setPaused(false, true),
      check: () => this.check(),
      reveal: () => this.reveal(),
      "give-up": () => this.giveUp(),
      "show-how": () => help.showHow(),
      "walk-prev": () => help.walkTo(model.walk.index - 1),
      "walk-next": () => help.walkTo(model.walk.index + 1),
      "walk-close": () => help.closeWalk(),
      share: () => this.share(),
      print: () => window.print(),
      help: () => this.openHelp(),
      ...this.replay.actions,
    };
  }

  // Pause and resume go through the same queue as the other calls, so they reach the
  // server in the order they happened (a quick tab switch right after loading must end up
  // paused).
  setPaused(paused, manual = false) {
    const { model } = this;
    if (model.state.status !== "playing" || model.broken) return;
    if (manual) model.pauseByHand(paused);
    this.link.call(paused ? "pause" : "resume");
  }

  // An in-page question with OK and Cancel (a <dialog>): resolves to true for OK.
  ask(text, ok) {
    const dialog = this.$("[data-confirm]");
    this.$("[data-confirm-text]").textContent = text;
    this.$("[data-confirm-ok]").textContent = ok;
    dialog.returnValue = "";
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
      dialog.showModal();
      this.$("[data-confirm-cancel]").focus();
    });
  }

  // The cells with two candidates marked, or no more; said for screen readers.
  markBivalue() {
    const { model } = this;
    model.toggle("bivalueMode");
    const count = model.board.bivalue().size;
    const marked = ngettext("%(count)s cell with two candidates marked.", "%(count)s cells with two candidates marked.", count);
    model.say(model.bivalueMode ? interpolate(marked, { count }) : gettext("Two-candidate cells no longer marked."));
  }

  erase() {
    const { model } = this;
    const { selected, state } = model;
    if (!model.canChange() || selected === null) return;
    if (manySelected(model)) {
      const change = eraseFor(model);
      return change && this.link.play(change);
    }
    if (model.isGiven(selected)) return;
    const { layer } = model.marking;
    if (layer && !model.valueAt(selected)) return this.link.play({ kind: "mark", cells: [selected], layer, digit: 0 });
    if (!model.valueAt(selected) && !(state.notes[selected] || []).length) return;
    this.link.play({ kind: "move", cell: selected, digit: 0, mode: "value" });
  }

  async reveal() {
    const { model } = this;
    if (!model.canChange()) return;
    const cell = model.selected;
    if (cell === null || model.isGiven(cell)) return model.say(gettext("Select an empty or wrong cell to reveal."));
    const question = interpolate(gettext("Reveal the digit in %(place)s? The game will count as helped."), { place: model.where(cell) });
    if (!(await this.ask(question, pgettext("confirm button", "Reveal")))) return;
    this.link.call("reveal", { cell });
  }

  // A check counts as help: asked first while the game could still be a clean solve.
  async check() {
    const { model } = this;
    if (!model.canChange()) return;
    const clean = model.state.hints + model.state.reveals === 0 && !model.state.marked;
    const text = gettext("Check your board for mistakes? The game will count as helped: no leaderboard, no best time.");
    if (clean && !(await this.ask(text, pgettext("confirm button", "Check")))) return;
    this.link.call("check");
  }

  async giveUp() {
    if (this.model.state.status !== "playing" || this.model.broken) return;
    const question = gettext("Give up and see the solution? The game ends here.");
    if (await this.ask(question, pgettext("confirm button", "Give up"))) this.link.call("give-up");
  }

  switchInput() {
    this.model.switchInput();
    const body = new URLSearchParams({ digit_first: this.model.digitFirst ? "1" : "0" });
    const headers = { "X-CSRFToken": this.api.csrf };
    fetch(this.root.dataset.inputUrl, { method: "POST", body, headers, credentials: "same-origin" }).catch(() => {});
  }

  async share() {
    const holder = document.querySelector("[data-share-url]");
    const url = holder ? holder.dataset.shareUrl : `${location.origin}/`;
    const text = shareText(this.model.state);
    const status = this.$("[data-share-status]");
    if (navigator.share) {
      try {
        await navigator.share({ text, url });
        return;
      } catch (error) {
        if (error && error.name === "AbortError") return; // the player closed the sheet
      }
    }
    try {
      await navigator.clipboard.writeText(`${text} ${url}`);
      status.textContent = gettext("Copied to the clipboard.");
    } catch {
      status.textContent = `${text} ${url}`; // to copy by hand
    }
  }

  openHelp() {
    const dialog = this.$("[data-help]");
    if (dialog.open) return;
    dialog.showModal();
    dialog.querySelector("[data-help-close]").focus({ preventScroll: true });
    dialog.scrollTop = 0; // how to play first, the keys below
  }
}
