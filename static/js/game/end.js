// The end of a game: the summary, a short celebration, the time against the player's best
// and the day's place (when the state has them), and a share line that gives nothing away.

import { $, cells, clock, game, root, say } from "./state.js";

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
  if (Number.isInteger(state.place)) parts.push(`${ordinal(state.place)} on today's leaderboard.`);
  return parts.join(" ");
}

// A practice game: "Found it!" once the player makes the step the technique makes.
let foundSaid = !!(game.state.practice && game.state.practice.found);
function practiceFound() {
  const found = $("[data-practice-found]");
  const practice = game.state.practice;
  if (!found || !practice) return;
  found.hidden = !practice.found;
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
  $("[data-final-hints]").textContent = String(state.hints + state.reveals);
  const told = solved ? record(state) : "";
  $("[data-final-record]").textContent = told;
  $("[data-final-record]").hidden = !told;
  $("[data-final-note]").textContent = solved
    ? state.clean
      ? "A clean solve: no help at all. It counts for leaderboards and your best times."
      : "Solved with help (hints, checks, revealed cells or mistakes shown), so it stays off the leaderboard and your best times."
    : "Cells you had not filled, or had wrong, now show the solution.";
  $('[data-action="share"]').hidden = !solved;
  const hardest = $("[data-final-hardest]");
  hardest.hidden = !state.hardest;
  if (state.hardest) {
    const link = hardest.querySelector("a");
    link.href = `/techniques/${state.hardest.slug}/`;
    link.textContent = state.hardest.plain || state.hardest.name;
  }
  if (game.wasPlaying) {
    // The game ended on this page, just now.
    game.wasPlaying = false;
    if (solved) celebrate();
    panel.focus({ preventScroll: true });
    panel.scrollIntoView({ block: "nearest", behavior: "instant" });
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
