// Help: hints drawn on the board, the check of the board, and the step-by-step
// walkthrough after the end.
//
// A hint, as the server tells it: {level 1-3, technique, slug, summary, text, region: [cells],
// cause: [cells] (level 2 on), target: [cells] (level 2 on), placements, eliminations}. At
// level 3 the step is applied only by Apply (POST apply-hint), as one undoable move. Older
// answers named the region in words and gave the cells involved as `cells`; they still show.

import { keepInView, render } from "./draw.js";
import { clearHint, regionOf, scrollBack, targets } from "./marks.js";
import { $, announce, game, request, say, where } from "./state.js";

const STEPS = { 1: "Where to look", 2: "Why", 3: "What follows" };

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
  if (!region) return hint.level >= 2 ? "The cells involved are marked." : "";
  return hint.level >= 2 ? `Take a look at ${region}: the cells involved are marked.` : `Take a look at ${region}.`;
}

// Whether this hint's step waits for Apply (an older server applied level 3 at once).
function appliable(hint) {
  return hint.level >= 3 && (typeof hint.text === "string" || Array.isArray(hint.target));
}

// Where the focus goes as the panel changes, when it was in the panel or on the Hint
// button: the next thing to press (more, then Apply, else Close), never lost to the page.
function keepFocus(panel, told) {
  const next = [told.level < 3 ? "hint-more" : "apply-hint", "hint-close"]
    .map((name) => $(`[data-action="${name}"]`))
    .find((button) => button && !button.hidden);
  if (next) next.focus({ preventScroll: true });
  else panel.focus({ preventScroll: true });
}

export function showHint(told) {
  const panel = $("[data-hint-panel]");
  const active = document.activeElement;
  const hadFocus =
    panel.contains(active) || active === $('[data-action="hint"]') || active === document.body || !active;
  game.hint = told;
  panel.hidden = false;
  panel.dataset.hintLevel = String(told.level);
  panel.dataset.technique = told.slug || slugify(told.technique);
  $("[data-hint-step]").textContent = `Hint, ${told.level} of 3: ${STEPS[told.level] || ""}`;
  $("[data-hint-technique]").textContent = told.technique || "Hint";
  $("[data-hint-summary]").textContent = told.summary || "";
  $("[data-hint-text]").textContent = words(told);
  const parts = [$("[data-hint-step]").textContent, told.technique, told.summary, words(told)];
  announce(parts.filter(Boolean).map((p) => p.trim().replace(/[.:]$/, "")).join(". ") + ".");
  $('[data-action="hint-more"]').hidden = told.level >= 3;
  $('[data-action="apply-hint"]').hidden = !appliable(told);
  // The selection moves to what the hint is about: the target, else the region.
  const to = targets(told)[0] ?? regionOf(told)[0];
  if (to !== undefined) game.selected = to;
  render();
  if (hadFocus) keepFocus(panel, told);
  keepInView(panel, { remember: true });
}

export { clearHint };

export function closeHint() {
  clearHint();
  render();
  scrollBack();
}

export function showCheck(result) {
  const { state } = game;
  if (result.wrong.length) {
    game.checkCell = result.wrong[0];
    const i = game.checkCell;
    say(`The ${state.values[i]} in ${where(i)} is wrong.`);
  } else {
    game.checkCell = null;
    say("No mistakes so far.");
  }
  render();
}

export async function showHow() {
  const result = await request("/path", null, "GET");
  if (!result.ok || !result.data.path || !result.data.path.length) {
    say(result.data.error || "There is no solving path to show.");
    return;
  }
  game.walk = { path: result.data.path, index: 0 };
  $("[data-walkthrough]").hidden = false;
  showWalkStep();
  $('[data-action="walk-next"]').focus({ preventScroll: true });
}

export function walkTo(index) {
  const { walk } = game;
  if (!walk) return;
  walk.index = Math.max(0, Math.min(walk.path.length - 1, index));
  showWalkStep();
}

export function closeWalk() {
  game.walk = null;
  $("[data-walkthrough]").hidden = true;
  render();
}

function showWalkStep() {
  const { walk } = game;
  const step = walk.path[walk.index];
  $("[data-walk-step]").textContent = `${step.name || step.technique}: ${step.explanation}`;
  $("[data-walk-count]").textContent = `Step ${walk.index + 1} of ${walk.path.length}`;
  $('[data-action="walk-prev"]').disabled = walk.index === 0;
  $('[data-action="walk-next"]').disabled = walk.index === walk.path.length - 1;
  if (step.cells.length) game.selected = step.cells[0];
  render();
  keepInView($("[data-walkthrough] .walk-actions"));
}
