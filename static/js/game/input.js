// Input: the pointer, the keyboard and the pad, turned into the model's selection and the
// page's actions (actions.js).
//
// Two ways to place a digit, switched by the visible input switch: cell first (select a
// cell, then a digit) or digit first (choose a digit, then tap the cells it goes in; tap
// the chosen digit again, or press Esc, to stop). In cell first, a digit tapped with no
// cell selected says to choose a cell first and changes nothing; a digit held is chosen,
// and the switch shows digit first while it is. A tap on the selected cell keeps it; Esc,
// or a tap anywhere off the board and the pad, deselects it.
//
// The board's keys: arrows, Home and End, 1-9 (Shift: a note), 0, Backspace and Delete,
// N, F, P, Esc, Ctrl+Z and Ctrl+Y; and the others: H opens a hint, then each next level;
// A applies it; C checks; R reveals; G gives up; I switches the input; X and M turn corner
// and centre marks on or off; O opens or closes the colours; ? lists the keys.
// A key acts while the game has the focus, never in a dialog or a form field.
//
// Many cells (selection.js): Ctrl/Cmd+click or Shift+click adds a cell, a drag across
// cells (mouse or finger) selects them, Shift+arrows extend the selection, Ctrl/Cmd+A
// selects every empty cell, Esc keeps the primary cell alone. A finger that stays on its
// cell is a tap; the board takes a finger's moves for itself (touch-action in the CSS),
// so that a drag selects rather than scrolls.
//
// Imports the change a digit makes in a layer of marks (layers.js), the selection's
// rules (selection.js) and the catalog's words (i18n.js): the model, the link, the actions and the page are handed in.

import { gettext, interpolate, ngettext } from "./i18n.js";
import { markChange } from "./layers.js";
import { addCell, changeFor, extendTo, keepOne, manySelected, selectEmpty } from "./selection.js";

const HOLD_MS = 450;
const MOVES = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 };

export class Input {
  // model: the Game; link: the Link; actions: the Actions; help: the HelpDesk; page:
  // {root, cells}.
  constructor({ model, link, actions, help, page }) {
    Object.assign(this, { model, link, actions, help, root: page.root, cells: page.cells });
    this.byName = actions.byName;
    const { byName } = this;
    this.letters = {
      h: () => (model.hint && model.hint.level < 3 ? byName["hint-more"]() : !model.hint && byName.hint()),
      a: () => this.visible("apply-hint") && byName["apply-hint"](),
      c: () => this.visible("check") && byName.check(),
      r: () => this.visible("reveal") && byName.reveal(),
      g: () => this.visible("give-up") && byName["give-up"](),
      i: () => byName["input-mode"](),
      b: () => byName.bivalue(),
      x: () => byName.corner(),
      m: () => byName.centre(),
      o: () => byName.colour(),
      "?": () => byName.help(),
    };
  }

  select(i, focus = true) {
    const many = manySelected(this.model);
    this.model.select(i);
    const one = interpolate(ngettext("%(count)s cell selected", "%(count)s cells selected", 1), { count: 1 });
    if (many) this.model.on.announce(i === null ? gettext("No cell selected") : one); // the count changed
    if (focus && this.model.selected !== null) this.cells[this.model.selected].focus();
  }

  input(digit, asNote = this.model.notesMode) {
    const { model, link } = this;
    if (!model.canChange()) return;
    const { selected } = model;
    if (selected === null) return model.say(gettext("Choose a cell first, then its digit."));
    if (manySelected(model)) {
      const change = changeFor(model, digit, asNote);
      return change && link.play(change);
    }
    if (model.isGiven(selected)) return model.say(gettext("That is a given: it cannot change."));
    model.say("");
    const { marking } = model;
    if ((marking.layer || marking.candidates) && asNote === model.notesMode) {
      return link.play(markChange([selected], marking, digit)); // a corner or centre mark, a candidate's colour
    }
    if (asNote) {
      if (model.valueAt(selected)) return model.say(gettext("Clear the digit first to write notes in this cell."));
      link.play({ kind: "move", cell: selected, digit, mode: "note" });
    } else {
      const value = model.valueAt(selected) === digit ? 0 : digit;
      link.play({ kind: "move", cell: selected, digit: value, mode: "value" });
    }
  }

  tapCell(i) {
    const { model } = this;
    const { digitMode } = model;
    this.select(i);
    if (digitMode && model.canChange() && !model.isGiven(i)) this.input(digitMode);
  }

  tapDigit(digit) {
    const { model } = this;
    if (model.digitMode || model.digitFirst) return model.chooseDigit(digit); // another, or the same to stop
    this.input(digit);
  }

  // Keys act on the board while the focus is anywhere in the game or nowhere in
  // particular: after a pad button or a hint's button too. In a dialog or a form field
  // they keep their usual meaning.
  keysForGame(target) {
    if (target === document.body || target === document.documentElement) return true;
    return this.root.contains(target) && !target.closest("dialog, input, select, textarea");
  }

  visible(action) {
    const button = this.root.querySelector(`[data-action="${action}"]`);
    return button && !button.hidden && !button.disabled && !button.closest("[hidden]");
  }

  // Ctrl on most keyboards, Cmd on a Mac.
  onShortcut(event) {
    const key = event.key;
    if (event.repeat) return;
    if ((key === "a" || key === "A") && !event.shiftKey) {
      event.preventDefault();
      return selectEmpty(this.model);
    }
    if (key === "z" || key === "Z") {
      event.preventDefault();
      return event.shiftKey ? this.byName.redo() : this.byName.undo();
    }
    if (key === "y" || key === "Y") {
      event.preventDefault();
      return this.byName.redo();
    }
  }

  // The walkthrough: the arrows step through it, Esc closes it; no other key acts.
  onWalkKey(event) {
    const key = event.key;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      event.preventDefault();
      return this.help.walkTo(this.model.walk.index + (key === "ArrowRight" ? 1 : -1));
    }
    if (key === "Escape") return this.help.closeWalk();
  }

  onMoveKey(event) {
    const key = event.key;
    const selected = this.model.selected ?? 0;
    event.preventDefault();
    if (key === "Home" || key === "End") return this.select(selected - (selected % 9) + (key === "End" ? 8 : 0));
    if (this.model.selected === null) return this.select(selected);
    const step = MOVES[key];
    let next = selected + step;
    if (step === -1 && selected % 9 === 0) next = selected + 8;
    if (step === 1 && selected % 9 === 8) next = selected - 8;
    if (next < 0) next += 81;
    if (next > 80) next -= 81;
    if (!event.shiftKey) return this.select(next);
    extendTo(this.model, next); // Shift+arrow: the selection grows
    this.cells[next].focus();
  }

  onLetter(event) {
    const key = event.key === "?" ? "?" : event.key.toLowerCase();
    if (!(key in this.letters) || (event.shiftKey && key !== "?")) return;
    event.preventDefault();
    this.letters[key]();
  }

  onKey(event) {
    const { model, byName } = this;
    if (event.altKey || !this.keysForGame(event.target)) return;
    const key = event.key;
    if (event.ctrlKey || event.metaKey) return this.onShortcut(event);
    if (model.walk) return this.onWalkKey(event);
    if (key in MOVES || key === "Home" || key === "End") return this.onMoveKey(event);
    if (key === "Escape") {
      if (model.digitMode) return model.chooseDigit(model.digitMode);
      if (model.hint) return this.help.closeHint();
      if (manySelected(model)) return keepOne(model);
      return this.select(null, false);
    }
    if (event.repeat) return; // a key held down enters its digit once
    const code = /^(Digit|Numpad)([0-9])$/.exec(event.code || "");
    const digit = /^[0-9]$/.test(key) ? Number(key) : code ? Number(code[2]) : null;
    if (digit !== null) {
      event.preventDefault();
      return digit === 0 ? this.actions.erase() : this.input(digit, model.notesMode !== event.shiftKey);
    }
    if (key === "Backspace" || key === "Delete") {
      event.preventDefault();
      return this.actions.erase();
    }
    if (key === "n" || key === "N") return byName.notes();
    if (key === "f" || key === "F") return byName["fill-notes"]();
    if (key === "p" || key === "P") return byName.pause();
    this.onLetter(event);
  }

  // Holding a pad digit chooses it (digit first); the click that ends the hold does no more.
  listenForHolds() {
    const { root } = this;
    let timer = null;
    let held = null;
    root.addEventListener("pointerdown", (event) => {
      const button = event.target.closest("[data-digit]");
      if (!button || button.disabled) return;
      held = null;
      timer = setTimeout(() => {
        held = button;
        this.model.chooseDigit(Number(button.dataset.digit));
      }, HOLD_MS);
    });
    const cancel = () => clearTimeout(timer);
    for (const name of ["pointerup", "pointercancel", "pointerleave"]) root.addEventListener(name, cancel);
    root.addEventListener("contextmenu", (event) => {
      if (event.target.closest("[data-digit]")) event.preventDefault(); // a long press on a phone
    });
    const swallow = (event) => {
      const button = event.target.closest("[data-digit]");
      if (button && button === held) {
        held = null;
        event.stopImmediatePropagation();
      }
    };
    root.addEventListener("click", swallow, true);
  }

  // A drag across cells selects each cell it passes over: once the pointer leaves the cell
  // it went down on, that cell and each next one join the selection (added to it with
  // Ctrl, Cmd or Shift held). The cell under a finger is looked up, as a finger's events
  // keep to the element they began on. Only a move onto another cell redraws.
  listenForDrags() {
    const { root, model } = this;
    let from = null;
    let last = null;
    root.addEventListener("pointerdown", (event) => {
      const cell = event.target.closest("[data-cell]");
      this.dragged = false;
      from = cell && event.button === 0 && model.canChange() ? Number(cell.dataset.cell) : null;
      last = from;
    });
    root.addEventListener("pointermove", (event) => {
      if (from === null) return;
      if (!event.buttons) return (from = null); // let go outside the game
      const under = document.elementFromPoint(event.clientX, event.clientY);
      const cell = under && under.closest("[data-board] [data-cell]");
      const i = cell ? Number(cell.dataset.cell) : null;
      if (i === null || i === last) return;
      if (!this.dragged) {
        this.dragged = true;
        if (event.ctrlKey || event.metaKey || event.shiftKey) extendTo(model, from);
        else model.select(from);
      }
      last = i;
      extendTo(model, i);
    });
    const end = () => (from = null);
    for (const name of ["pointerup", "pointercancel"]) root.addEventListener(name, end);
  }

  onClick(event) {
    const cell = event.target.closest("[data-cell]");
    if (cell && this.dragged) return; // the end of a drag: no tap (the flag drops below)
    if (cell && (event.ctrlKey || event.metaKey || event.shiftKey) && this.model.canChange()) {
      addCell(this.model, Number(cell.dataset.cell));
      if (this.model.selected !== null) this.cells[this.model.selected].focus();
      return;
    }
    if (cell) return this.tapCell(Number(cell.dataset.cell));
    const digit = event.target.closest("[data-digit]");
    if (digit) return this.tapDigit(Number(digit.dataset.digit));
    const pick = event.target.closest("[data-colour-pick]");
    if (pick) return this.byName["colour-pick"](Number(pick.dataset.colourPick));
    const action = event.target.closest("[data-action]");
    if (action && this.byName[action.dataset.action]) this.byName[action.dataset.action]();
  }

  listen() {
    this.listenForHolds();
    this.listenForDrags();
    // A tap anywhere off the board and the controls lets go of the selected cell.
    document.addEventListener("click", (event) => {
      if (this.dragged) return (this.dragged = false); // a drag let go off the board keeps its cells
      if (this.model.selected === null || this.model.digitMode) return;
      if (event.target.closest("[data-board], .controls, .sheet, dialog, a, button, input, label")) return;
      this.select(null, false);
    });
    this.root.addEventListener("click", (event) => this.onClick(event));
    document.addEventListener("keydown", (event) => this.onKey(event));
  }
}
