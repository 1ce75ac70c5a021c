// The end of a game drawn from the model: the summary, the time against the player's best
// and the day's place (when the state has them), how the game counts, the hardest
// technique; the practice banner's progress; the celebration; the share line, which gives
// nothing away. Only draws (the celebration, once the game ends on the page).
//
// Imports the clock's face (../clock.js).

import { clock } from "../clock.js";

const ORDINAL = new Intl.PluralRules("en", { type: "ordinal" });
const SUFFIX = { one: "st", two: "nd", few: "rd", other: "th" };
const ordinal = (n) => `${n}${SUFFIX[ORDINAL.select(n)]}`;

function record(state) {
  const parts = [];
  if (typeof state.best === "number") {
    parts.push(
      state.elapsed < state.best
        ? `A new best: your previous one was ${clock(state.best)}.`
        : state.elapsed === state.best
          ? "Your best time."
          : `Your best is ${clock(state.best)}.`,
    );
  }
  // The board ranks the time the puzzle was in sight: pauses and quiet stretches count.
  if (state.standing === "ranked" && typeof state.ranked_time === "number" && state.ranked_time - state.elapsed >= 1) {
    parts.push(`On the leaderboard it counts ${clock(state.ranked_time)}, from the start to the solve, pauses included.`);
  }
  if (Number.isInteger(state.place)) {
    parts.push(
      state.standing === "guest"
        ? `Your time would place ${ordinal(state.place)} on today's leaderboard.`
        : `${ordinal(state.place)} on today's leaderboard.`,
    );
  }
  return parts.join(" ");
}

// How the game counts, in the leaderboard's own rule (the server says which applies).
function standingWords(state) {
  const board = state.daily ? "today's leaderboard and your best times" : "your best times";
  return (
    {
      ranked: `A clean solve: no help at all. It counts for ${board}.`,
      guest: state.daily
        ? "A clean solve: no help at all. It counts for your best times; guests are not ranked."
        : "A clean solve: no help at all. It counts for your best times.",
      too_fast:
        "A clean solve, but faster than a person could solve it: kept in your history, not ranked and not a best time.",
      hurried:
        "A clean solve, but its digits reached us faster than a person places them (many at once, as after playing offline): kept in your history, not ranked and not a best time.",
      practice: "Practice games are never ranked and never a best time.",
      helped:
        "Solved with help (hints, checks, revealed cells or mistakes shown), so it stays off the leaderboard and your best times.",
    }[state.standing] ||
    (state.status === "solved"
      ? state.clean
        ? "A clean solve: no help at all."
        : "Solved with help, so it stays off the leaderboard and your best times."
      : "Cells you had not filled, or had wrong, now show the solution.")
  );
}

const UNCONFIRMED =
  "Solved on this device: the time, and whether it counts as clean, come once the server has every move.";

// A practice game: "Found it!" once the player makes the step the technique makes, and
// each elimination of the step as the player finds it.
export function drawPractice(root, model) {
  const found = root.querySelector("[data-practice-found]");
  const practice = model.state.practice;
  if (!found || !practice) return;
  found.hidden = !practice.found;
  root.querySelector("[data-practice-more]").hidden = !practice.found;
  root.querySelector("[data-practice-progress]").textContent = model.practiceProgress();
}

export function drawEnd(root, model) {
  const $ = (selector) => root.querySelector(selector);
  const { state } = model;
  const solved = state.status === "solved";
  const panel = $("[data-finished]");
  panel.hidden = state.status === "playing";
  if (panel.hidden) return;
  $("[data-finished-title]").textContent = solved ? "Solved!" : "The solution";
  $("[data-final-time]").textContent = clock(state.elapsed);
  $("[data-final-mistakes]").textContent = String(state.mistakes ?? 0);
  $("[data-final-mistakes-row]").hidden = !state.marked; // as in play: only when shown there
  $("[data-final-hints]").textContent = String(state.hints + state.reveals);
  const told = solved ? record(state) : "";
  $("[data-final-record]").textContent = told;
  $("[data-final-record]").hidden = !told;
  $("[data-final-note]").textContent = state.unconfirmed ? UNCONFIRMED : standingWords(state);
  $("[data-final-join]").hidden = !(state.standing === "guest" && state.daily);
  $('[data-action="share"]').hidden = !solved;
  const hardest = $("[data-final-hardest]");
  hardest.hidden = !state.hardest;
  if (state.hardest) {
    const link = hardest.querySelector("a");
    link.href = `/techniques/${state.hardest.slug}/`;
    link.textContent = state.hardest.label || state.hardest.plain || state.hardest.name;
  }
}

// A short wave over the board, once a solve is made on the page.
export function celebrate(root) {
  root.classList.remove("celebrate");
  void root.offsetWidth; // restart the animation
  root.classList.add("celebrate");
  setTimeout(() => root.classList.remove("celebrate"), 2500);
}

export function shareText(state) {
  const help = state.hints + state.reveals;
  const how = help === 0 ? "no help" : help === 1 ? "1 hint" : `${help} hints`;
  const name = state.daily ? `Daily Sudoku ${state.daily}` : "Sudoku";
  return `${name} — ${state.difficulty}, solved in ${clock(state.elapsed)}, ${how}`;
}
