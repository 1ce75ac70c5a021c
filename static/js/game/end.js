// The end of a game: the summary, a short celebration, the time against the player's best
// and the day's place (when the state has them), and a share line that gives nothing away.

import { keepInView } from "./marks.js";
import { $, cells, clock, game, root, say, where } from "./state.js";

// Each cell's place on the board's diagonals, for the celebration's wave (set through the
// CSSOM, which a strict Content-Security-Policy allows).
cells.forEach((el, i) => el.style.setProperty("--wave", String(Math.floor(i / 9) + (i % 9))));

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

// A practice game: "Found it!" once the player makes the step the technique makes.
let foundSaid = !!(game.state.practice && game.state.practice.found);
let takenSaid = 0;
function practiceFound() {
  const found = $("[data-practice-found]");
  const practice = game.state.practice;
  if (!found || !practice) return;
  found.hidden = !practice.found;
  $("[data-practice-more]").hidden = !practice.found;
  // Each elimination of the step, said as the player finds it.
  const taken = practice.taken_out || [];
  const progress = $("[data-practice-progress]");
  if (!practice.found && taken.length) {
    const [cell, digit] = taken[taken.length - 1];
    progress.textContent = `${digit} out of ${where(cell)}: that is one. ${taken.length} found so far.`;
    if (taken.length > takenSaid) say(progress.textContent);
  } else {
    progress.textContent = "";
  }
  takenSaid = taken.length;
  if (practice.found && !foundSaid) {
    foundSaid = true;
    say(`Found it: that is the step “${practice.technique}” makes.`);
  }
}

export function finish() {
  practiceFound();
  const { state } = game;
  const panel = $("[data-finished]");
  const playing = state.status === "playing";
  panel.hidden = playing;
  if (playing) return;
  const solved = state.status === "solved";
  $("[data-finished-title]").textContent = solved ? "Solved!" : "The solution";
  $("[data-final-time]").textContent = clock(state.elapsed);
  $("[data-final-mistakes]").textContent = String(state.mistakes ?? 0);
  $("[data-final-mistakes-row]").hidden = !state.marked; // as in play: only when shown there
  $("[data-final-hints]").textContent = String(state.hints + state.reveals);
  const told = solved ? record(state) : "";
  $("[data-final-record]").textContent = told;
  $("[data-final-record]").hidden = !told;
  $("[data-final-note]").textContent = standingWords(state);
  $("[data-final-join]").hidden = !(state.standing === "guest" && state.daily);
  $('[data-action="share"]').hidden = !solved;
  const hardest = $("[data-final-hardest]");
  hardest.hidden = !state.hardest;
  if (state.hardest) {
    const link = hardest.querySelector("a");
    link.href = `/techniques/${state.hardest.slug}/`;
    link.textContent = state.hardest.label || state.hardest.plain || state.hardest.name;
  }
  if (game.wasPlaying) {
    // The game ended on this page, just now.
    game.wasPlaying = false;
    if (solved) celebrate();
    panel.focus({ preventScroll: true });
    keepInView(panel); // as far as the board's top row allows: never under the header
  }
}

function celebrate() {
  root.classList.remove("celebrate");
  void root.offsetWidth; // restart the animation
  root.classList.add("celebrate");
  setTimeout(() => root.classList.remove("celebrate"), 2500);
}

export function shareText() {
  const { state } = game;
  const help = state.hints + state.reveals;
  const how = help === 0 ? "no help" : help === 1 ? "1 hint" : `${help} hints`;
  const name = state.daily ? `Daily Sudoku ${state.daily}` : "Sudoku";
  return `${name} — ${state.difficulty}, solved in ${clock(state.elapsed)}, ${how}`;
}

export async function share() {
  const holder = document.querySelector("[data-share-url]");
  const url = holder ? holder.dataset.shareUrl : `${location.origin}/`;
  const text = shareText();
  const status = $("[data-share-status]");
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
    status.textContent = "Copied to the clipboard.";
  } catch {
    status.textContent = `${text} ${url}`; // to copy by hand
  }
}
