// Drawing: the board, the pad and the counters, from the state. Nothing here changes the
// game; it shows what the state says (and what is typed but not yet saved).

import { finish } from "./end.js";
import { clearHint, hintCells } from "./marks.js";
import { $, PEERS, board, cells, clock, game, isPending, root, valueAt, where } from "./state.js";

export { keepInView } from "./marks.js";

// The board as shown: a step of the walkthrough, the solution after giving up, or the game.
export function shownBoard() {
  const { state, walk, replay } = game;
  if (replay) {
    const frame = replay.frames[replay.index];
    return { values: [...frame.values].map(Number), notes: frame.notes };
  }
  if (walk) {
    const step = walk.path[walk.index];
    return { values: [...step.values].map(Number), notes: step.candidates };
  }
  if (state.status === "gave_up" && state.solution) {
    return { values: [...state.solution].map(Number), notes: state.notes };
  }
  return { values: cells.map((_, i) => valueAt(i)), notes: state.notes };
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// What a hinted cell is to the hint (or to the walkthrough's step), in words.
const HINT_ROLE = {
  region: "part of the hint: where to look",
  cause: "part of the hint: the cause",
  target: "part of the hint: will change",
};
const STEP_ROLE = { cause: "part of this step: the cause", target: "part of this step: placed here" };

// A cell's name: its place, then what it shows (in the order shown, so that its visible
// text is part of its name), then what marks it.
function label(i, value, notes, flags) {
  const place = capital(where(i));
  if (flags.hidden) return `${place}: hidden while paused`;
  let text = value ? `${place}: ${value}` : flags.placed ? `${place}: ${flags.placed}, placed by this step` : `${place}: empty`;
  if (!value && notes.length) text += `, notes ${notes.join(" ")}`;
  if (flags.given) text += ", given";
  if (flags.conflicts.length) text += `, conflicts with ${flags.conflicts.map(where).join(" and ")}`;
  if (flags.wrong) text += ", wrong";
  if (flags.revealed) text += ", revealed";
  if (flags.solution) text += flags.had ? `, from the solution (you had ${flags.had})` : ", from the solution";
  if (flags.hint) text += `, ${(flags.walk ? STEP_ROLE : HINT_ROLE)[flags.hint] || "part of the hint"}`;
  return text;
}

// The cells a rule conflict involves, as the server names them (none until it does).
function conflictsOf(values) {
  const listed = new Set(game.walk ? [] : game.state.conflicts || []);
  const partners = new Map();
  for (const i of listed) {
    partners.set(i, [...PEERS[i]].filter((j) => values[j] && values[j] === values[i]));
  }
  return partners;
}

export function render() {
  const { state, walk, checkCell, selected, digitMode } = game;
  const { values, notes } = shownBoard();
  const playing = state.status === "playing";
  const paused = playing && state.paused;
  const over = !playing;
  const wrong = new Set(walk || game.replay ? [] : state.wrong || []);
  const selValue = selected === null ? 0 : values[selected];
  const focusDigit = digitMode || selValue; // the digit whose cells and notes light up
  const peers = selected === null ? new Set() : PEERS[selected];
  const roles = hintCells();
  const conflicts = conflictsOf(values);
  const revealed = new Set([...(state.revealed || []), ...game.revealed]);
  const walkStep = walk ? walk.path[walk.index] : null;
  const walkPlaced = new Map(walkStep ? walkStep.placements.map(([c, d]) => [c, d]) : []);
  const walkRemoved = new Map();
  if (walkStep) for (const [c, d] of walkStep.eliminations) walkRemoved.set(c, [...(walkRemoved.get(c) || []), d]);

  cells.forEach((el, i) => {
    const value = values[i];
    const given = state.puzzle[i] !== "0";
    const solution = !walk && !game.replay && state.status === "gave_up" && !given && state.values[i] !== state.solution[i];
    const role = roles.get(i) || null;
    const cellNotes = value ? [] : notes[i] || [];
    el.dataset.value = String(value);
    el.dataset.notes = cellNotes.join("");
    el.querySelector(".value").textContent = value ? String(value) : walkPlaced.has(i) ? String(walkPlaced.get(i)) : "";
    el.querySelectorAll("[data-note]").forEach((span) => {
      const d = Number(span.dataset.note);
      const shown = cellNotes.includes(d);
      span.textContent = shown ? String(d) : "";
      span.classList.toggle("match", shown && d === focusDigit);
      span.classList.toggle("removed", (walkRemoved.get(i) || []).includes(d));
    });
    if (role) el.dataset.hint = role;
    else delete el.dataset.hint;
    const partners = conflicts.get(i) || [];
    if (conflicts.has(i)) el.dataset.conflict = "";
    else delete el.dataset.conflict;
    el.classList.toggle("selected", i === selected);
    el.classList.toggle("peer", i !== selected && peers.has(i));
    el.classList.toggle("same", !!focusDigit && value === focusDigit && i !== selected);
    el.classList.toggle("wrong", wrong.has(i) && !solution);
    el.classList.toggle("checked-wrong", checkCell === i);
    el.classList.toggle("hinted", role === "cause" || role === "target");
    el.classList.toggle("placed-here", walkPlaced.has(i));
    el.classList.toggle("pending", isPending(i));
    el.classList.toggle("solution-shown", solution);
    el.classList.toggle("revealed", !walk && revealed.has(i));
    el.setAttribute("aria-selected", String(i === selected));
    el.tabIndex = i === (selected ?? 0) && !paused ? 0 : -1;
    const had = solution && state.values[i] !== "0" ? state.values[i] : null;
    const flags = {
      given,
      wrong: (wrong.has(i) && !solution) || checkCell === i,
      solution,
      had,
      revealed: !walk && revealed.has(i),
      hint: role,
      walk: !!walk,
      placed: walkPlaced.get(i) || 0,
      conflicts: partners,
      hidden: paused,
    };
    el.setAttribute("aria-label", label(i, value, cellNotes, flags));
  });

  // The pad counts what is left on the board as shown (the solution, once given up).
  const counts = Array(10).fill(0);
  values.forEach((v) => counts[v]++);
  root.querySelectorAll("[data-digit]").forEach((button) => {
    const d = Number(button.dataset.digit);
    const left = Math.max(0, 9 - counts[d]);
    button.querySelector("[data-left]").textContent = left ? String(left) : "";
    button.classList.toggle("done", left === 0);
    button.setAttribute("aria-pressed", String(digitMode === d));
    // Its name is its text, "5, 3 left" (the comma and "left" unseen), so that saying what
    // it shows ("click 5") presses it.
    button.querySelector("[data-left-words]").textContent = left ? " left" : " none left";
  });

  const statusEl = $("[data-status]");
  // The hook says what the server judged: a solve seen on this device alone is still "playing".
  statusEl.dataset.status = state.unconfirmed ? "playing" : state.status;
  statusEl.textContent = { playing: paused ? "Paused" : "Playing", solved: "Solved", gave_up: "Gave up" }[state.status];
  const mistakes = $("[data-mistakes]");
  // Shown only in a game played with mistakes marked, in play and at the end alike.
  mistakes.closest(".counter").hidden = state.mistakes === null || !state.marked;
  mistakes.textContent = String(state.mistakes ?? 0);
  $("[data-hints]").textContent = String(state.hints + state.reveals);
  const changing = playing && !paused && !game.broken;
  $('[data-action="undo"]').disabled = !changing || !state.can_undo;
  $('[data-action="redo"]').disabled = !changing || !state.can_redo;
  for (const name of ["erase", "notes", "hint", "check", "reveal", "give-up", "fill-notes"]) {
    $(`[data-action="${name}"]`).disabled = !changing;
  }
  const pause = $('[data-action="pause"]');
  const pausedNow = playing && (state.paused || game.manualPause);
  pause.disabled = !playing || game.broken;
  pause.setAttribute("aria-pressed", String(pausedNow));
  pause.title = pausedNow ? "Resume (P)" : "Pause (P)";
  $("[data-pause-label]").textContent = pausedNow ? "Resume" : "Pause";
  root.querySelectorAll("[data-digit]").forEach((b) => (b.disabled = !changing));
  $('[data-action="notes"]').setAttribute("aria-pressed", String(game.notesMode));
  $("[data-notes-state]").textContent = game.notesMode ? "on" : "off";
  root.classList.toggle("notes-mode", game.notesMode);
  root.classList.toggle("digit-mode", !!digitMode);

  $("[data-pause-cover]").hidden = !paused;
  board.classList.toggle("hidden-board", paused);
  board.setAttribute("aria-hidden", String(paused));
  board.inert = paused; // nothing in it takes the focus while it is hidden
  root.classList.toggle("over", over);
  root.classList.toggle("walking", !!walk);
  if (over) {
    clearHint();
    game.digitMode = 0;
  }
  // While paused the hint waits with the board, out of sight.
  $("[data-hint-panel]").hidden = !game.hint || paused;
  finish();
  if (state.unconfirmed) {
    $("[data-final-note]").textContent = "Solved on this device: the time, and whether it counts as clean, come once the server has every move.";
  }
  tick();
}

export function tick() {
  const { state } = game;
  // The page counts on from the server's time for as long as the server said its clock
  // runs on (0 while paused or over), then shows it stopped, as the server's is.
  const since = Math.min((performance.now() - game.received) / 1000, state.runs_for || 0);
  const seconds = state.elapsed + since;
  $("[data-timer]").textContent = clock(seconds);
}
