// Drawing: the board, the pad, the counters and the end of the game, from the state.

import { $, IDLE, PEERS, board, cells, clock, game, isPending, root, valueAt } from "./state.js";

function shownBoard() {
  const { state, walk } = game;
  if (walk) {
    const step = walk.path[walk.index];
    return { values: [...step.values].map(Number), notes: step.candidates };
  }
  if (state.status === "gave_up" && state.solution) {
    return { values: [...state.solution].map(Number), notes: state.notes };
  }
  return { values: cells.map((_, i) => valueAt(i)), notes: state.notes };
}

function label(i, value, notes, flags) {
  const where = `Row ${Math.floor(i / 9) + 1}, column ${(i % 9) + 1}`;
  if (flags.hidden) return `${where}: hidden while paused`;
  let text = value ? `${where}: ${value}` : `${where}: empty`;
  if (!value && notes.length) text += `, notes ${notes.join(" ")}`;
  if (flags.given) text += ", given";
  if (flags.wrong) text += ", wrong";
  if (flags.solution) text += ", from the solution";
  if (flags.hinted) text += ", part of the hint";
  return text;
}

export function render() {
  const { state, walk, hint, checkCell, selected } = game;
  const { values, notes } = shownBoard();
  const playing = state.status === "playing";
  const paused = playing && state.paused;
  const wrong = new Set(walk ? [] : state.wrong || []);
  const selValue = values[selected];
  const hintCells = new Set(hint && hint.cells ? hint.cells : []);
  const walkStep = walk ? walk.path[walk.index] : null;
  const walkCells = new Set(walkStep ? walkStep.cells : []);
  const walkPlaced = new Map(walkStep ? walkStep.placements.map(([c, d]) => [c, d]) : []);
  const walkRemoved = new Map();
  if (walkStep) for (const [c, d] of walkStep.eliminations) walkRemoved.set(c, [...(walkRemoved.get(c) || []), d]);

  cells.forEach((el, i) => {
    const value = values[i];
    const given = state.puzzle[i] !== "0";
    const solution = !walk && state.status === "gave_up" && !given && state.values[i] !== state.solution[i];
    const hinted = hintCells.has(i) || walkCells.has(i);
    el.dataset.value = String(value);
    el.querySelector(".value").textContent = value ? String(value) : walkPlaced.has(i) ? String(walkPlaced.get(i)) : "";
    const cellNotes = value ? [] : notes[i] || [];
    el.querySelectorAll("[data-note]").forEach((span) => {
      const d = Number(span.dataset.note);
      span.textContent = cellNotes.includes(d) ? String(d) : "";
      span.classList.toggle("removed", (walkRemoved.get(i) || []).includes(d));
    });
    el.classList.toggle("selected", i === selected);
    el.classList.toggle("peer", i !== selected && PEERS[selected].has(i));
    el.classList.toggle("same", !!selValue && value === selValue && i !== selected);
    el.classList.toggle("wrong", wrong.has(i));
    el.classList.toggle("checked-wrong", checkCell === i);
    el.classList.toggle("hinted", hinted);
    el.classList.toggle("placed-here", walkPlaced.has(i));
    el.classList.toggle("pending", isPending(i));
    el.classList.toggle("solution-shown", solution);
    el.setAttribute("aria-selected", String(i === selected));
    el.tabIndex = i === selected ? 0 : -1;
    const flags = { given, wrong: wrong.has(i) || checkCell === i, solution, hinted, hidden: paused };
    el.setAttribute("aria-label", label(i, value, cellNotes, flags));
  });

  const counts = Array(10).fill(0);
  cells.forEach((_, i) => counts[valueAt(i)]++);
  root.querySelectorAll("[data-digit]").forEach((button) => {
    const d = Number(button.dataset.digit);
    const left = Math.max(0, 9 - counts[d]);
    button.querySelector("[data-left]").textContent = left ? String(left) : "";
    button.classList.toggle("done", left === 0);
    button.setAttribute("aria-label", `${d}, ${left} left`);
  });

  const statusEl = $("[data-status]");
  statusEl.dataset.status = state.status;
  statusEl.textContent = { playing: paused ? "Paused" : "Playing", solved: "Solved", gave_up: "Gave up" }[state.status];
  const mistakes = $("[data-mistakes]");
  mistakes.closest(".counter").hidden = state.mistakes === null;
  mistakes.textContent = String(state.mistakes ?? 0);
  $("[data-hints]").textContent = String(state.hints + state.reveals);
  const changing = playing && !paused && !game.broken;
  $('[data-action="undo"]').disabled = !changing || !state.can_undo;
  $('[data-action="redo"]').disabled = !changing || !state.can_redo;
  for (const name of ["erase", "notes", "hint", "check", "reveal", "give-up"]) {
    $(`[data-action="${name}"]`).disabled = !changing;
  }
  $('[data-action="pause"]').disabled = !playing || game.broken;
  root.querySelectorAll("[data-digit]").forEach((b) => (b.disabled = !changing));
  $('[data-action="notes"]').setAttribute("aria-pressed", String(game.notesMode));
  $("[data-notes-state]").textContent = game.notesMode ? "on" : "off";
  root.classList.toggle("notes-mode", game.notesMode);

  $("[data-pause-cover]").hidden = !paused;
  board.classList.toggle("hidden-board", paused);
  board.setAttribute("aria-hidden", String(paused));
  root.classList.toggle("over", !playing);
  if (!playing) {
    game.hint = null;
    $("[data-hint-panel]").hidden = true;
  }
  showFinished();
  tick();
}

function showFinished() {
  const { state } = game;
  const panel = $("[data-finished]");
  const playing = state.status === "playing";
  panel.hidden = playing;
  if (playing) return;
  $("[data-finished-title]").textContent = state.status === "solved" ? "Solved!" : "The solution";
  $("[data-final-time]").textContent = clock(state.elapsed);
  $("[data-final-mistakes]").textContent = String(state.mistakes ?? 0);
  $("[data-final-hints]").textContent = String(state.hints + state.reveals);
  $("[data-final-note]").textContent =
    state.status === "solved"
      ? state.clean
        ? "A clean solve: no help at all. It counts for leaderboards and your best times."
        : "Solved with help (hints, checks, revealed cells or mistakes shown), so it stays off the leaderboard and your best times."
      : "Cells you had not filled, or had wrong, now show the solution.";
  if (game.wasPlaying) {
    game.wasPlaying = false;
    panel.focus();
  }
}

export function tick() {
  const { state } = game;
  const running = state.status === "playing" && !state.paused;
  // The server stops the clock IDLE seconds after the last request; so does the page.
  const since = Math.min((performance.now() - game.received) / 1000, IDLE);
  const seconds = state.elapsed + (running ? since : 0);
  $("[data-timer]").textContent = clock(seconds);
}
