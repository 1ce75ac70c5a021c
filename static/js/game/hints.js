// Help: hints, the check of the board, and the step-by-step walkthrough after the end.

import { $, game, hooks, request, say } from "./state.js";

export function showHint(told) {
  game.hint = told;
  $("[data-hint-panel]").hidden = false;
  let text = `${told.technique}: look at ${told.region}.`;
  if (told.level >= 2 && told.cells) text += " The cells involved are highlighted.";
  if (told.level >= 3) text = `${told.technique}. ${told.explanation}`;
  $("[data-hint-text]").textContent = text;
  say(text);
  $('[data-action="hint-more"]').hidden = told.level >= 3;
  hooks.render();
}

export function closeHint() {
  game.hint = null;
  $("[data-hint-panel]").hidden = true;
  hooks.render();
}

export function showCheck(result) {
  const { state } = game;
  if (result.wrong.length) {
    game.checkCell = result.wrong[0];
    const i = game.checkCell;
    say(`The ${state.values[i]} in row ${Math.floor(i / 9) + 1}, column ${(i % 9) + 1} is wrong.`);
  } else {
    game.checkCell = null;
    say("No mistakes so far.");
  }
  hooks.render();
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
}

export function walkTo(index) {
  const { walk } = game;
  walk.index = Math.max(0, Math.min(walk.path.length - 1, index));
  showWalkStep();
}

export function closeWalk() {
  game.walk = null;
  $("[data-walkthrough]").hidden = true;
  hooks.render();
}

function showWalkStep() {
  const { walk } = game;
  const step = walk.path[walk.index];
  $("[data-walk-step]").textContent = `${step.technique}: ${step.explanation}`;
  $("[data-walk-count]").textContent = `Step ${walk.index + 1} of ${walk.path.length}`;
  $('[data-action="walk-prev"]').disabled = walk.index === 0;
  $('[data-action="walk-next"]').disabled = walk.index === walk.path.length - 1;
  if (step.cells.length) game.selected = step.cells[0];
  hooks.render();
}
