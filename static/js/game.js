// The game page: a board that sends every change to the server and shows what it saved.
//
// Actions go out one at a time, each with the version of the state the server last sent;
// a 409 (another window moved first) brings the server's state back instead of losing it.

const root = document.querySelector("[data-game]");
const api = root.dataset.api;
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const board = root.querySelector("[data-board]");
const cells = [...board.querySelectorAll("[data-cell]")];
const $ = (selector) => root.querySelector(selector);

const PEERS = cells.map((_, i) => {
  const r = Math.floor(i / 9), c = i % 9, br = r - (r % 3), bc = c - (c % 3);
  const set = new Set();
  for (let k = 0; k < 9; k++) {
    set.add(r * 9 + k);
    set.add(k * 9 + c);
    set.add((br + Math.floor(k / 3)) * 9 + bc + (k % 3));
  }
  set.delete(i);
  return set;
});

let state = JSON.parse(document.getElementById("game-state").textContent);
let received = performance.now();
let selected = state.puzzle.indexOf("0") >= 0 ? state.puzzle.indexOf("0") : 0;
let notesMode = false;
let hint = null; // {level, technique, region, cells?, explanation?}
let checkCell = null;
let walk = null; // {path, index}
const queue = [];
let sending = false;
// Opening the page means playing: the clock starts (or resumes) as it loads.
let manualPause = false;
state.paused = false;

// ---------------------------------------------------------------- talking to the server

async function request(path, body, method = "POST") {
  const response = await fetch(api + path, {
    method,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
    body: method === "POST" ? JSON.stringify(body || {}) : undefined,
    credentials: "same-origin",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { error: `The server answered ${response.status}.` };
  }
  return { ok: response.ok, status: response.status, data };
}

function accept(next) {
  state = next;
  received = performance.now();
  render();
}

// Requests queue up and go one after the other, each with the latest version.
function send(path, body = {}, { quiet = false } = {}) {
  queue.push({ path, body });
  if (!quiet) setSaved("Saving…");
  pump();
}

async function pump() {
  if (sending) return;
  sending = true;
  while (queue.length) {
    const { path, body } = queue[0];
    let result;
    try {
      result = await request(path, { ...body, version: state.version });
    } catch {
      setSaved("Offline — retrying");
      await new Promise((resolve) => setTimeout(resolve, 2000));
      continue;
    }
    queue.shift();
    if (result.ok) {
      accept(result.data);
      if (result.data.hint) showHint(result.data.hint);
      if (result.data.check) showCheck(result.data.check);
    } else if (result.data.state) {
      queue.length = 0; // the queued actions were meant for a board that is gone
      accept(result.data.state);
      say(result.data.error);
    } else {
      say(result.data.error || "Something went wrong.");
    }
  }
  sending = false;
  setSaved(state.status === "playing" ? "Saved" : "");
}

function setSaved(text) {
  $("[data-saved]").textContent = text;
}

function say(text) {
  $("[data-message]").textContent = text || "";
}

// ---------------------------------------------------------------- drawing

function valueAt(i) {
  return Number(state.values[i]);
}

function shownBoard() {
  if (walk) {
    const step = walk.path[walk.index];
    return { values: step.values, notes: step.candidates };
  }
  if (state.status === "gave_up" && state.solution) return { values: state.solution, notes: state.notes };
  return { values: state.values, notes: state.notes };
}

function label(i, value, notes, given, wrong) {
  const where = `Row ${Math.floor(i / 9) + 1}, column ${(i % 9) + 1}`;
  if (value) return `${where}: ${value}${given ? ", given" : ""}${wrong ? ", wrong" : ""}`;
  if (notes.length) return `${where}: empty, notes ${notes.join(" ")}`;
  return `${where}: empty`;
}

function render() {
  const { values, notes } = shownBoard();
  const wrong = new Set(walk ? [] : state.wrong || []);
  const sel = selected;
  const selValue = Number(values[sel]);
  const hintCells = new Set(hint && hint.cells ? hint.cells : []);
  const walkStep = walk ? walk.path[walk.index] : null;
  const walkCells = new Set(walkStep ? walkStep.cells : []);
  const walkPlaced = new Map(walkStep ? walkStep.placements.map(([c, d]) => [c, d]) : []);
  const walkRemoved = new Map();
  if (walkStep) for (const [c, d] of walkStep.eliminations) walkRemoved.set(c, [...(walkRemoved.get(c) || []), d]);

  cells.forEach((el, i) => {
    const value = Number(values[i]);
    const given = state.puzzle[i] !== "0";
    el.dataset.value = String(value);
    el.querySelector(".value").textContent = value ? String(value) : walkPlaced.has(i) ? String(walkPlaced.get(i)) : "";
    const cellNotes = value ? [] : notes[i] || [];
    el.querySelectorAll("[data-note]").forEach((span) => {
      const d = Number(span.dataset.note);
      span.textContent = cellNotes.includes(d) ? String(d) : "";
      span.classList.toggle("removed", (walkRemoved.get(i) || []).includes(d));
    });
    el.classList.toggle("selected", i === sel);
    el.classList.toggle("peer", i !== sel && PEERS[sel].has(i));
    el.classList.toggle("same", !!selValue && value === selValue && i !== sel);
    el.classList.toggle("wrong", wrong.has(i));
    el.classList.toggle("checked-wrong", checkCell === i);
    el.classList.toggle("hinted", hintCells.has(i) || walkCells.has(i));
    el.classList.toggle("placed-here", walkPlaced.has(i));
    el.classList.toggle(
      "solution-shown",
      !walk && state.status === "gave_up" && !given && state.values[i] !== state.solution[i],
    );
    el.setAttribute("aria-selected", String(i === sel));
    el.tabIndex = i === sel ? 0 : -1;
    el.setAttribute("aria-label", label(i, value, cellNotes, given, wrong.has(i)));
  });

  const counts = Array(10).fill(0);
  for (const ch of state.values) counts[Number(ch)]++;
  root.querySelectorAll("[data-digit]").forEach((button) => {
    const d = Number(button.dataset.digit);
    const left = Math.max(0, 9 - counts[d]);
    button.querySelector("[data-left]").textContent = left ? String(left) : "";
    button.classList.toggle("done", left === 0);
    button.setAttribute("aria-label", `${d}, ${left} left`);
  });

  const playing = state.status === "playing";
  const statusEl = $("[data-status]");
  statusEl.dataset.status = state.status;
  statusEl.textContent = { playing: state.paused ? "Paused" : "Playing", solved: "Solved", gave_up: "Gave up" }[state.status];
  $("[data-mistakes]").textContent = String(state.mistakes);
  $("[data-hints]").textContent = String(state.hints + state.reveals);
  $('[data-action="undo"]').disabled = !state.can_undo;
  $('[data-action="redo"]').disabled = !state.can_redo;
  for (const name of ["erase", "notes", "hint", "pause", "check", "reveal", "give-up"]) {
    $(`[data-action="${name}"]`).disabled = !playing;
  }
  root.querySelectorAll("[data-digit]").forEach((b) => (b.disabled = !playing));
  const notesButton = $('[data-action="notes"]');
  notesButton.setAttribute("aria-pressed", String(notesMode));
  $("[data-notes-state]").textContent = notesMode ? "on" : "off";
  root.classList.toggle("notes-mode", notesMode);

  const paused = playing && state.paused;
  $("[data-pause-cover]").hidden = !paused;
  board.classList.toggle("hidden-board", paused);
  root.classList.toggle("over", !playing);
  if (!playing) {
    hint = null;
    $("[data-hint-panel]").hidden = true;
  }
  showFinished();
  tick();
}

function showFinished() {
  const panel = $("[data-finished]");
  if (state.status === "playing") {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  $("[data-finished-title]").textContent = state.status === "solved" ? "Solved!" : "The solution";
  $("[data-final-time]").textContent = clock(state.elapsed);
  $("[data-final-mistakes]").textContent = String(state.mistakes);
  $("[data-final-hints]").textContent = String(state.hints + state.reveals);
  $("[data-final-note]").textContent =
    state.status === "solved"
      ? state.clean
        ? "A clean solve: no hints, nothing revealed. It counts for leaderboards and your best times."
        : "Solved with help, so it stays off the leaderboard and your best times."
      : "Cells you had not filled, or had wrong, now show the solution.";
}

// ---------------------------------------------------------------- the clock

function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? `${h}:` : "") + `${mm}:${String(sec).padStart(2, "0")}`;
}

function tick() {
  const running = state.status === "playing" && !state.paused;
  const seconds = state.elapsed + (running ? (performance.now() - received) / 1000 : 0);
  $("[data-timer]").textContent = clock(seconds);
}
setInterval(tick, 1000);

// Pause and resume go through the same queue as moves, so they reach the server in the
// order they happened (a quick tab switch right after loading must end up paused).
function setPaused(paused, manual = false) {
  if (state.status !== "playing") return;
  if (manual) manualPause = paused;
  send(paused ? "/pause" : "/resume", {}, { quiet: true });
}

document.addEventListener("visibilitychange", () => {
  if (state.status !== "playing") return;
  if (document.visibilityState === "hidden") setPaused(true);
  else if (!manualPause) setPaused(false);
});

// Leaving the page: the queue may not get to run, so the pause goes out on its own.
window.addEventListener("pagehide", () => {
  if (state.status !== "playing") return;
  fetch(api + "/pause", { method: "POST", keepalive: true, headers: { "X-CSRFToken": csrf }, credentials: "same-origin" });
});

// While the page is shown and the game runs, tell the server once a minute that the
// player is still here, so that the clock keeps counting.
setInterval(() => {
  if (document.visibilityState === "visible" && state.status === "playing" && !state.paused) setPaused(false);
}, 60000);

// ---------------------------------------------------------------- playing

function select(i) {
  selected = Math.max(0, Math.min(80, i));
  checkCell = null;
  render();
  cells[selected].focus({ preventScroll: false });
}

function input(digit, asNote = notesMode) {
  if (state.status !== "playing" || state.paused || walk) return;
  if (state.puzzle[selected] !== "0") {
    say("That is a given: it cannot change.");
    return;
  }
  say("");
  if (asNote) {
    if (valueAt(selected)) {
      say("Clear the digit first to write notes in this cell.");
      return;
    }
    send("/moves", { cell: selected, digit, mode: "note" });
  } else {
    const current = valueAt(selected);
    send("/moves", { cell: selected, digit: current === digit ? 0 : digit, mode: "value" });
  }
}

function erase() {
  if (state.status !== "playing" || state.puzzle[selected] !== "0") return;
  if (valueAt(selected)) send("/moves", { cell: selected, digit: 0, mode: "value" });
  else if ((state.notes[selected] || []).length) send("/moves", { cell: selected, digit: 0, mode: "note" });
}

function showHint(told) {
  hint = told;
  const panel = $("[data-hint-panel]");
  panel.hidden = false;
  let text = `${told.technique}: look at ${told.region}.`;
  if (told.level >= 2 && told.cells) text += " The cells involved are highlighted.";
  if (told.level >= 3) text = `${told.technique}. ${told.explanation}`;
  $("[data-hint-text]").textContent = text;
  $('[data-action="hint-more"]').hidden = told.level >= 3;
  render();
}

function showCheck(result) {
  if (result.wrong.length) {
    checkCell = result.wrong[0];
    const i = checkCell;
    say(`The ${state.values[i]} in row ${Math.floor(i / 9) + 1}, column ${(i % 9) + 1} is wrong.`);
  } else {
    checkCell = null;
    say("No mistakes so far.");
  }
  render();
}

async function showHow() {
  const result = await request("/path", null, "GET");
  if (!result.ok) {
    say(result.data.error);
    return;
  }
  walk = { path: result.data.path, index: 0 };
  $("[data-walkthrough]").hidden = false;
  showWalkStep();
}

function showWalkStep() {
  const step = walk.path[walk.index];
  $("[data-walk-step]").textContent = `${step.technique}: ${step.explanation}`;
  $("[data-walk-count]").textContent = `Step ${walk.index + 1} of ${walk.path.length}`;
  $('[data-action="walk-prev"]').disabled = walk.index === 0;
  $('[data-action="walk-next"]').disabled = walk.index === walk.path.length - 1;
  if (step.cells.length) selected = step.cells[0];
  render();
}

const actions = {
  undo: () => send("/undo"),
  redo: () => send("/redo"),
  erase,
  notes: () => {
    notesMode = !notesMode;
    render();
  },
  hint: () => send("/hint", { level: 1 }),
  "hint-more": () => send("/hint", { level: Math.min(3, (hint ? hint.level : 0) + 1) }),
  "hint-close": () => {
    hint = null;
    $("[data-hint-panel]").hidden = true;
    render();
  },
  pause: () => setPaused(true, true),
  resume: () => setPaused(false, true),
  check: () => send("/check"),
  reveal: () => {
    if (state.puzzle[selected] !== "0") return say("Select an empty or wrong cell to reveal.");
    if (confirm("Reveal this cell? The game will count as assisted.")) send("/reveal", { cell: selected });
  },
  "give-up": () => {
    if (confirm("Give up and see the solution?")) send("/give-up");
  },
  "show-how": showHow,
  "walk-prev": () => {
    walk.index = Math.max(0, walk.index - 1);
    showWalkStep();
  },
  "walk-next": () => {
    walk.index = Math.min(walk.path.length - 1, walk.index + 1);
    showWalkStep();
  },
  "walk-close": () => {
    walk = null;
    $("[data-walkthrough]").hidden = true;
    render();
  },
};

root.addEventListener("click", (event) => {
  const cell = event.target.closest("[data-cell]");
  if (cell) return select(Number(cell.dataset.cell));
  const digit = event.target.closest("[data-digit]");
  if (digit) return input(Number(digit.dataset.digit));
  const action = event.target.closest("[data-action]");
  if (action && actions[action.dataset.action]) actions[action.dataset.action]();
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select") || event.altKey || event.metaKey) return;
  const key = event.key;
  const ctrl = event.ctrlKey;
  if (ctrl && (key === "z" || key === "Z")) {
    event.preventDefault();
    return event.shiftKey ? actions.redo() : actions.undo();
  }
  if (ctrl && (key === "y" || key === "Y")) {
    event.preventDefault();
    return actions.redo();
  }
  if (ctrl) return;
  const moves = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 };
  if (key in moves) {
    event.preventDefault();
    const step = moves[key];
    let next = selected + step;
    if (step === -1 && selected % 9 === 0) next = selected + 8;
    if (step === 1 && selected % 9 === 8) next = selected - 8;
    if (next < 0) next += 81;
    if (next > 80) next -= 81;
    return select(next);
  }
  const code = /^(Digit|Numpad)([0-9])$/.exec(event.code || "");
  const digit = /^[0-9]$/.test(key) ? Number(key) : code ? Number(code[2]) : null;
  if (digit !== null) {
    event.preventDefault();
    return digit === 0 ? erase() : input(digit, notesMode !== event.shiftKey);
  }
  if (key === "Backspace" || key === "Delete") {
    event.preventDefault();
    return erase();
  }
  if (key === "n" || key === "N") return actions.notes();
  if (key === "p" || key === "P") return state.paused ? actions.resume() : actions.pause();
  if (key === "Home") return select(selected - (selected % 9));
  if (key === "End") return select(selected - (selected % 9) + 8);
});

render();
if (state.status === "playing" && !state.paused) setPaused(false);
