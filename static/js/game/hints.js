// Help the player asks for, on the page: a hint shown (read out once, the focus kept on
// the next thing to press, the panel kept in view) and put away, the check's answer, and
// the walkthrough of the solving path once the game is over. The model holds what is
// shown; this moves the focus and the page, and fetches the path.
//
// Imports the hint panel's words (views/panels.js) and the catalog's (i18n.js).

import { gettext } from "./i18n.js";
import { hintParts } from "./views/panels.js";

export class HelpDesk {
  // model: the Game; api: {read(what)}; page: {root, announce, scroll: {keepInView, scrollBack}}.
  constructor({ model, api, page }) {
    Object.assign(this, { model, api, root: page.root, announce: page.announce, scroll: page.scroll });
  }

  $(selector) {
    return this.root.querySelector(selector);
  }

  // Where the focus goes as the panel changes, when it was in the panel or on the Hint
  // button: the next thing to press (more, then Apply, else Close), never lost to the page.
  keepFocus(panel, told) {
    const next = [told.level < 3 ? "hint-more" : "apply-hint", "hint-close"]
      .map((name) => this.$(`[data-action="${name}"]`))
      .find((button) => button && !button.hidden);
    if (next) next.focus({ preventScroll: true });
    else panel.focus({ preventScroll: true });
  }

  showHint(told) {
    const panel = this.$("[data-hint-panel]");
    const active = document.activeElement;
    const hadFocus =
      panel.contains(active) || active === this.$('[data-action="hint"]') || active === document.body || !active;
    this.model.showHint(told);
    if (this.model.hint !== told) return; // a game over shows no hint
    const parts = hintParts(told);
    const said = [parts.step, told.technique, told.summary, parts.text];
    this.announce(said.filter(Boolean).map((p) => p.trim().replace(/[.:]$/, "")).join(". ") + ".");
    if (hadFocus) this.keepFocus(panel, told);
    this.scroll.keepInView(panel, { remember: true });
  }

  closeHint() {
    this.model.closeHint();
    this.scroll.scrollBack();
  }

  showCheck(result) {
    this.model.checked(result);
  }

  keepStepInView() {
    this.scroll.keepInView(this.$("[data-walkthrough] .walk-actions"));
  }

  async showHow() {
    const result = await this.api.read("path");
    if (!result.ok || !result.data.path || !result.data.path.length) {
      this.model.say(result.data.error || gettext("There is no solving path to show."));
      return;
    }
    this.model.openWalk(result.data.path);
    this.keepStepInView();
    this.$('[data-action="walk-next"]').focus({ preventScroll: true });
  }

  walkTo(index) {
    if (!this.model.walk) return;
    this.model.walkTo(index);
    this.keepStepInView();
  }

  closeWalk() {
    this.model.closeWalk();
  }
}
