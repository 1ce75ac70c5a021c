// The end of a game drawn from the model: the summary, the time against the player's best
// and the day's place (when the state has them), how the game counts, the hardest
// technique, the daily streak and the next daily (or when the next ones come); the practice banner's progress; the celebration; the share line, which gives
// nothing away. Only draws (the celebration, once the game ends on the page).
//
// Imports the clock's face (../clock.js) and the catalog's words (../i18n.js).

import { clock } from "../clock.js";
import { gettext, interpolate, ngettext, pgettext, tierName, translated } from "../i18n.js";

// "1st", "22nd": the ordinal's kind by the page's language's rules (English's with no
// catalog), and its words by kind.
function ordinal(n) {
  const lang = (translated() && typeof document !== "undefined" && document.documentElement.lang) || "en";
  let kind = "other";
  try {
    kind = new Intl.PluralRules(lang, { type: "ordinal" }).select(n);
  } catch {
    kind = new Intl.PluralRules("en", { type: "ordinal" }).select(n);
  }
  const words = {
    zero: pgettext("ordinal zero", "%(n)sth"),
    one: pgettext("ordinal one", "%(n)sst"),
    two: pgettext("ordinal two", "%(n)snd"),
    few: pgettext("ordinal few", "%(n)srd"),
    many: pgettext("ordinal many", "%(n)sth"),
    other: pgettext("ordinal other", "%(n)sth"),
  };
  return interpolate(words[kind] || words.other, { n });
}

function record(state) {
  const parts = [];
  if (typeof state.best === "number") {
    const best = { time: clock(state.best) };
    parts.push(
      state.elapsed < state.best
        ? interpolate(gettext("A new best: your previous one was %(time)s."), best)
        : state.elapsed === state.best
          ? gettext("Your best time.")
          : interpolate(gettext("Your best is %(time)s."), best),
    );
  }
  // The board ranks the time the puzzle was in sight: pauses and quiet stretches count.
  if (state.standing === "ranked" && typeof state.ranked_time === "number" && state.ranked_time - state.elapsed >= 1) {
    const time = clock(state.ranked_time);
    parts.push(interpolate(gettext("On the leaderboard it counts %(time)s, from the start to the solve, pauses included."), { time }));
  }
  if (Number.isInteger(state.place)) {
    const place = { place: ordinal(state.place) };
    parts.push(
      state.standing === "guest"
        ? interpolate(gettext("Your time would place %(place)s on today's leaderboard."), place)
        : interpolate(gettext("%(place)s on today's leaderboard."), place),
    );
  }
  return parts.join(" ");
}

// How the game counts, in the leaderboard's own rule (the server says which applies).
function standingWords(state) {
  const clean = gettext("A clean solve: no help at all. It counts for your best times.");
  return (
    {
      ranked: state.daily ? gettext("A clean solve: no help at all. It counts for today's leaderboard and your best times.") : clean,
      guest: state.daily ? gettext("A clean solve: no help at all. It counts for your best times; guests are not ranked.") : clean,
      too_fast: gettext(
        "A clean solve, but faster than a person could solve it: kept in your history, not ranked and not a best time.",
      ),
      hurried: gettext(
        "A clean solve, but its digits reached us faster than a person places them (many at once, as after playing offline): kept in your history, not ranked and not a best time.",
      ),
      practice: gettext("Practice games are never ranked and never a best time."),
      helped: gettext(
        "Solved with help (hints, checks, revealed cells or mistakes shown), so it stays off the leaderboard and your best times.",
      ),
    }[state.standing] ||
    (state.status === "solved"
      ? state.clean
        ? gettext("A clean solve: no help at all.")
        : gettext("Solved with help, so it stays off the leaderboard and your best times.")
      : gettext("Cells you had not filled, or had wrong, now show the solution."))
  );
}

const unconfirmed = () =>
  gettext("Solved on this device: the time, and whether it counts as clean, come once the server has every move.");

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
  $("[data-finished-title]").textContent = solved ? gettext("Solved!") : gettext("The solution");
  $("[data-final-time]").textContent = clock(state.elapsed);
  $("[data-final-mistakes]").textContent = String(state.mistakes ?? 0);
  // Every wrong digit placed counts, found and fixed alone or not, as the history says.
  $("[data-final-mistakes-row]").hidden = state.mistakes === null || state.mistakes === undefined;
  $("[data-final-hints]").textContent = String(state.hints + state.reveals);
  const told = solved ? record(state) : "";
  $("[data-final-record]").textContent = told;
  $("[data-final-record]").hidden = !told;
  $("[data-final-note]").textContent = state.unconfirmed ? unconfirmed() : standingWords(state);
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
  if (minutes < 1) return gettext("under a minute");
  const hours = Math.floor(minutes / 60);
  const values = { hours, minutes: hours ? minutes % 60 : minutes };
  return interpolate(hours ? gettext("%(hours)s h %(minutes)s min") : gettext("%(minutes)s min"), values);
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
  $("[data-final-streak]").textContent = interpolate(ngettext("%(count)s day", "%(count)s days", streak), { count: streak });
  const next = state.next_daily;
  const form = $("[data-next-daily-form]");
  const button = $("[data-next-daily]");
  form.hidden = !next;
  $("[data-new-after]").classList.toggle("primary", !next);
  if (next) {
    form.action = next.url;
    button.dataset.nextDaily = next.url;
    button.textContent = interpolate(gettext("Play today's %(difficulty)s daily"), { difficulty: tierName(next.difficulty) });
  }
  const wait = $("[data-next-dailies-in]");
  const none = !next && typeof state.next_dailies_in === "number";
  wait.hidden = !none;
  const words = gettext("Every daily of today is played. Next dailies in %(wait)s.");
  if (none) wait.textContent = interpolate(words, { wait: waitWords(state.next_dailies_in) });
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
  const how = help === 0 ? gettext("no help") : interpolate(ngettext("%(count)s hint", "%(count)s hints", help), { count: help });
  const name = state.daily ? interpolate(gettext("Daily Sudoku %(day)s"), { day: state.daily }) : gettext("Sudoku");
  const grade = state.grade || {};
  const values = { name, tier: tierName(grade.tier || state.difficulty), time: clock(state.elapsed), help: how };
  if (typeof grade.score !== "number") return interpolate(gettext("%(name)s — %(tier)s, solved in %(time)s, %(help)s"), values);
  values.score = grade.score.toFixed(1);
  return interpolate(gettext("%(name)s — %(tier)s, rated %(score)s, solved in %(time)s, %(help)s"), values);
}
