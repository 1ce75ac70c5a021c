// The end of a game drawn from the model: the summary, the time against the player's best
// and the day's place (when the state has them), how the game counts, the hardest
// technique, the daily streak and the next daily (or when the next ones come); the practice banner's progress; the celebration; the share line, which gives
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
  // Every wrong digit placed counts, found and fixed alone or not, as the history says.
  $("[data-final-mistakes-row]").hidden = state.mistakes === null || state.mistakes === undefined;
  $("[data-final-hints]").textContent = String(state.hints + state.reveals);
  const told = solved ? record(state) : "";
  $("[data-final-record]").textContent = told;
  $("[data-final-record]").hidden = !told;
  $("[data-final-note]").textContent = state.unconfirmed ? UNCONFIRMED : standingWords(state);
  $("[data-final-join]").hidden = !(state.standing === "guest" && state.daily);
  $('[data-action="share"]').hidden = !solved;
  drawNext(root, state);
  const hardest = $("[data-final-hardest]");
  hardest.hidden = !state.hardest;
  if (state.hardest) {
    const link = hardest.querySelector("a");
    link.href = `/techniques/${state.hardest.slug}/`;
    link.textContent = state.hardest.label || state.hardest.plain || state.hardest.name;
  }
}

// "5 h 12 min", "12 min", "under a minute".
export function waitWords(seconds) {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return "under a minute";
  const hours = Math.floor(minutes / 60);
  return hours ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

// The daily streak, and where to go next: the day's next daily not played yet, or when
// every one is played, how long until the next day's come out.
function drawNext(root, state) {
  const $ = (selector) => root.querySelector(selector);
  const panel = $("[data-finished]");
  const streak = Number.isInteger(state.streak) ? state.streak : null;
  if (streak === null) delete panel.dataset.streak;
  else panel.dataset.streak = String(streak);
  $("[data-final-streak-row]").hidden = !streak; // a run of none is not worth a line
  $("[data-final-streak]").textContent = streak === 1 ? "1 day" : `${streak} days`;
  const next = state.next_daily;
  const form = $("[data-next-daily-form]");
  const button = $("[data-next-daily]");
  form.hidden = !next;
  $("[data-new-after]").classList.toggle("primary", !next);
  if (next) {
    form.action = next.url;
    button.dataset.nextDaily = next.url;
    button.textContent = `Play today's ${next.difficulty} daily`;
  }
  const wait = $("[data-next-dailies-in]");
  const none = !next && typeof state.next_dailies_in === "number";
  wait.hidden = !none;
  if (none) wait.textContent = `Every daily of today is played. Next dailies in ${waitWords(state.next_dailies_in)}.`;
}

// A short wave over the board, once a solve is made on the page.
export function celebrate(root) {
  root.classList.remove("celebrate");
  void root.offsetWidth; // restart the animation
  root.classList.add("celebrate");
  setTimeout(() => root.classList.remove("celebrate"), 2500);
}

// "Daily Sudoku 2026-11-26 — hard, rated 3.4, solved in 12:05, no help": the grade and
// the time, nothing of the solution.
export function shareText(state) {
  const help = state.hints + state.reveals;
  const how = help === 0 ? "no help" : help === 1 ? "1 hint" : `${help} hints`;
  const name = state.daily ? `Daily Sudoku ${state.daily}` : "Sudoku";
  const grade = state.grade || {};
  const tier = grade.tier || state.difficulty;
  const rated = typeof grade.score === "number" ? `, rated ${grade.score.toFixed(1)}` : "";
  return `${name} — ${tier}${rated}, solved in ${clock(state.elapsed)}, ${how}`;
}
