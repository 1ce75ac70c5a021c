// The panels under the board drawn from the model: the hint (its level, technique and
// words, and which of More and Apply it offers), the walkthrough's step, and the replay's
// frame. Only draws; hints.js and replay.js fetch what they show.
//
// Imports the catalog's words (../i18n.js).

import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";

// The hint's levels by name.
const step = (level) => ({ 1: pgettext("hint level", "Where to look"), 2: pgettext("hint level", "Why"), 3: pgettext("hint level", "What follows") })[level];

function slugify(text) {
  return String(text || "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

// The hint's words for its level; an older answer is put into words here.
function words(hint) {
  if (typeof hint.text === "string") return hint.text;
  const region = typeof hint.region === "string" ? hint.region : "";
  if (hint.level >= 3 && hint.explanation) return hint.explanation;
  if (!region) return hint.level >= 2 ? gettext("The cells involved are marked.") : "";
  const words = hint.level >= 2 ? gettext("Take a look at %(region)s: the cells involved are marked.") : gettext("Take a look at %(region)s.");
  return interpolate(words, { region });
}

// Whether this hint's step waits for Apply (an older server applied level 3 at once).
function appliable(hint) {
  return hint.level >= 3 && (typeof hint.text === "string" || Array.isArray(hint.target));
}

// What the panel says of a hint, part by part, as it shows it.
export function hintParts(hint) {
  return {
    step: interpolate(gettext("Hint, %(level)s of 3: %(step)s"), { level: hint.level, step: step(hint.level) || "" }),
    technique: hint.technique || gettext("Hint"),
    summary: hint.summary || "",
    text: words(hint),
  };
}

// A chain told link by link (a hint's last level, a step of the walkthrough): its notation,
// a line a branch, and each link in words; an ALS step's notation alone; hidden when there
// is neither.
function drawChain(box, told) {
  const chain = told && Array.isArray(told.chain) ? told.chain : [];
  const notation = told && Array.isArray(told.notation) ? told.notation : [];
  box.hidden = !chain.length && !notation.length;
  const key = JSON.stringify([chain, notation]);
  if (box.dataset.drawn === key) return;
  box.dataset.drawn = key;
  const lines = box.querySelector("[data-chain-notation]");
  lines.replaceChildren(
    ...notation.map((line) => {
      const code = document.createElement("code");
      code.textContent = line;
      const p = document.createElement("p");
      p.append(code);
      return p;
    }),
  );
  box.querySelector("[data-chain-links]").replaceChildren(
    ...chain.map((sentence) => {
      const li = document.createElement("li");
      li.textContent = sentence;
      return li;
    }),
  );
}

// While paused the hint waits with the board, out of sight.
export function drawHint(root, model) {
  const $ = (selector) => root.querySelector(selector);
  const panel = $("[data-hint-panel]");
  const { hint } = model;
  panel.hidden = !hint || (model.state.status === "playing" && !!model.state.paused);
  drawChain($("[data-hint-chain]"), hint && hint.level >= 3 ? hint : null);
  if (!hint) {
    delete panel.dataset.hintLevel;
    delete panel.dataset.technique;
    return;
  }
  const parts = hintParts(hint);
  panel.dataset.hintLevel = String(hint.level);
  panel.dataset.technique = hint.slug || slugify(hint.technique);
  $("[data-hint-step]").textContent = parts.step;
  $("[data-hint-technique]").textContent = parts.technique;
  $("[data-hint-summary]").textContent = parts.summary;
  const text = $("[data-hint-text]");
  text.textContent = parts.text;
  // Words too long for the panel scroll within it: the keyboard reaches them too.
  if (text.scrollHeight > text.clientHeight + 1) text.tabIndex = 0;
  else text.removeAttribute("tabindex");
  $('[data-action="hint-more"]').hidden = hint.level >= 3;
  $('[data-action="apply-hint"]').hidden = !appliable(hint);
}

export function drawWalk(root, model) {
  const $ = (selector) => root.querySelector(selector);
  const { walk } = model;
  $("[data-walkthrough]").hidden = !walk;
  drawChain($("[data-walk-chain]"), walk ? walk.path[walk.index] : null);
  if (!walk) return;
  const step = walk.path[walk.index];
  const told = { technique: step.name || step.technique, explanation: step.explanation };
  $("[data-walk-step]").textContent = interpolate(gettext("%(technique)s: %(explanation)s"), told);
  $("[data-walk-count]").textContent = interpolate(gettext("Step %(index)s of %(count)s"), { index: walk.index + 1, count: walk.path.length });
  $('[data-action="walk-prev"]').disabled = walk.index === 0;
  $('[data-action="walk-next"]').disabled = walk.index === walk.path.length - 1;
}

// A frame of the replay in words: "Move 3 of 40: 5 in row 2, column 7."
function described(frame, index, count, where) {
  const moves = count - 1;
  if (index === 0 || !frame.kind) {
    return interpolate(ngettext("The start: the puzzle as given. %(count)s moves follow.", "The start: the puzzle as given. %(count)s moves follow.", moves), { count: moves });
  }
  const place = Number.isInteger(frame.cell) ? where(frame.cell) : "";
  const values = { index, count: moves, place, digit: frame.digit, technique: frame.technique, what: frame.kind };
  const words =
    {
      value: frame.digit ? gettext("Move %(index)s of %(count)s: %(digit)s in %(place)s.") : gettext("Move %(index)s of %(count)s: %(place)s cleared."),
      note: gettext("Move %(index)s of %(count)s: note %(digit)s in %(place)s."),
      hint: frame.technique ? gettext("Move %(index)s of %(count)s: a hint applied (%(technique)s).") : gettext("Move %(index)s of %(count)s: a hint applied."),
      reveal: gettext("Move %(index)s of %(count)s: %(place)s revealed."),
      fill: gettext("Move %(index)s of %(count)s: all notes filled."),
    }[frame.kind] || gettext("Move %(index)s of %(count)s: %(what)s.");
  return interpolate(words, values);
}

export function drawReplay(root, model) {
  const $ = (selector) => root.querySelector(selector);
  const { replay } = model;
  $("[data-replay]").hidden = !replay;
  if (!replay) return;
  const { index, total } = replay;
  const slider = $("[data-replay-slider]");
  slider.max = String(total - 1);
  if (slider.value !== String(index)) slider.value = String(index);
  $('[data-action="replay-prev"]').disabled = index === 0;
  $('[data-action="replay-next"]').disabled = index === total - 1;
  $("[data-replay-count]").textContent = described(replay.frames[index], index, total, model.where);
  const play = $('[data-action="replay-play"]');
  play.textContent = replay.playing ? pgettext("replay", "Stop") : pgettext("replay", "Play");
  play.setAttribute("aria-pressed", String(replay.playing));
}
