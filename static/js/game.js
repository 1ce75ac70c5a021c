// The game page: a board that sends every change to the server and shows what it saved.
//
// Requests go out one at a time, each with the version of the state the server last sent.
// While they wait, the digits typed show at once (and later keys are judged against them).
// A 409 for a stale version means another window moved first: the server's state comes
// back and what was queued behind is dropped, never applied to a board it was not meant for.

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
const CLOCK_ONLY = new Set(["/pause", "/resume"]);
const IDLE = Number(root.dataset.idle) || 300;

let state = JSON.parse(document.getElementById("game-state").textContent);
let received = performance.now();
let selected = Math.max(0, state.puzzle.indexOf("0"));
let notesMode = false;
let hint = null; // {level, technique, region, cells?, explanation?}
let checkCell = null;
let walk = null; // {path, index}
let broken = false; // the page lost its session: it must be reloaded
let wasPlaying = state.status === "playing";
const queue = []; // {path, body, cell?, value?}
let sending = false;
const pending = new Map(); // cell -> value typed but not yet saved
// The player paused by hand (as opposed to the page being hidden).
let manualPause = false;
// Someone used the page since the last time it told the server they are still there.
let active = true;

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
  if (!next || typeof next.values !== "string") return;
  if (next.version !== state.version) {
    // The board changed: a check's mark and a hint's highlight were about the old one.
    checkCell = null;
    hint = null;
    $("[data-hint-panel]").hidden = true;
  }
  state = next;
  received = performance.now();
  render();
}

function send(path, body = {}, change = null) {
  if (broken) return;
  const item = { path, body, ...(change || {}) };
  if (change) pending.set(change.cell, change.value);
  queue.push(item);
  if (!CLOCK_ONLY.has(path)) setSaved("Saving…");
  pump();
}

function settle(item) {
  if (item.cell !== undefined && !queue.some((q) => q.cell === item.cell)) pending.delete(item.cell);
}

async function pump() {
  if (sending) return;
  sending = true;
  try {
    while (queue.length && !broken) {
      const item = queue[0];
      const sent = state.version;
      let result;
      try {
        result = await request(item.path, { ...item.body, version: sent });
      } catch {
        setSaved("Offline — retrying");
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await resync(item, sent);
        continue;
      }
      queue.shift();
      settle(item);
      handle(item, result, sent);
    }
  } finally {
    sending = false;
    if (!broken) setSaved(state.status === "playing" && !queue.length ? "Saved" : "");
    render();
  }
}

// After a request that got no answer: if the server has moved on and shows the change,
// it got it; otherwise the request goes out again, on the board as it now stands.
async function resync(item, sent) {
  try {
    const result = await request("", null, "GET");
    if (!result.ok) return;
    const moved = result.data.version > sent && !CLOCK_ONLY.has(item.path);
    const shows = item.cell === undefined || Number(result.data.values[item.cell]) === item.value;
    if (moved && shows) {
      queue.shift();
      settle(item);
    }
    accept(result.data);
  } catch {
    // Still offline: the loop tries again.
  }
}

function handle(item, result, sent) {
  const { ok, status, data } = result;
  if (ok) {
    accept(data);
    if (data.hint) showHint(data.hint);
    if (data.check) showCheck(data.check);
    return;
  }
  if (!data.state) {
    // A 403 (the session changed: logged in or out in another tab) or a 404.
    broken = true;
    queue.length = 0;
    pending.clear();
    setSaved("Not saved");
    say(`${data.error || "This page is out of date."} Reload the page to go on.`, true);
    return;
  }
  if (status === 409 && data.state.version !== sent) {
    // Another window changed the game: what was queued was meant for the old board.
    const clock = queue.filter((q) => CLOCK_ONLY.has(q.path));
    queue.length = 0;
    queue.push(...clock);
    pending.clear();
  }
  accept(data.state);
  say(data.error);
}

function setSaved(text) {
  $("[data-saved]").textContent = text;
}

function say(text, alert = false) {
  const message = $("[data-message]");
  message.textContent = text || "";
  message.setAttribute("role", alert ? "alert" : "status");
}

// ---------------------------------------------------------------- drawing

function valueAt(i) {
  return pending.has(i) ? pending.get(i) : Number(state.values[i]);
}

function shownBoard() {
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

function render() {
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
    el.classList.toggle("pending", pending.has(i));
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
  const changing = playing && !paused && !broken;
  $('[data-action="undo"]').disabled = !changing || !state.can_undo;
  $('[data-action="redo"]').disabled = !changing || !state.can_redo;
  for (const name of ["erase", "notes", "hint", "check", "reveal", "give-up"]) {
    $(`[data-action="${name}"]`).disabled = !changing;
  }
  $('[data-action="pause"]').disabled = !playing || broken;
  root.querySelectorAll("[data-digit]").forEach((b) => (b.disabled = !changing));
  $('[data-action="notes"]').setAttribute("aria-pressed", String(notesMode));
  $("[data-notes-state]").textContent = notesMode ? "on" : "off";
  root.classList.toggle("notes-mode", notesMode);

  $("[data-pause-cover]").hidden = !paused;
  board.classList.toggle("hidden-board", paused);
  board.setAttribute("aria-hidden", String(paused));
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
  if (wasPlaying) {
    wasPlaying = false;
    panel.focus();
  }
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
  // The server stops the clock IDLE seconds after the last request; so does the page.
  const since = Math.min((performance.now() - received) / 1000, IDLE);
  const seconds = state.elapsed + (running ? since : 0);
  $("[data-timer]").textContent = clock(seconds);
}
setInterval(tick, 1000);

// Pause and resume go through the same queue as moves, so they reach the server in the
// order they happened (a quick tab switch right after loading must end up paused).
function setPaused(paused, manual = false) {
  if (state.status !== "playing" || broken) return;
  if (manual) manualPause = paused;
  send(paused ? "/pause" : "/resume");
}

document.addEventListener("visibilitychange", () => {
  if (state.status !== "playing") return;
  if (document.visibilityState === "hidden") setPaused(true);
  else if (!manualPause) setPaused(false);
});

// Leaving the page: the queue may not get to run, so the pause goes out on its own.
window.addEventListener("pagehide", () => {
  if (state.status !== "playing" || broken) return;
  fetch(api + "/pause", { method: "POST", keepalive: true, headers: { "X-CSRFToken": csrf }, credentials: "same-origin" });
});

// Once a minute, if the player did something on the page, tell the server they are
// still there; a page nobody touches lets the server's clock stop after five minutes.
for (const event of ["keydown", "pointerdown"]) document.addEventListener(event, () => (active = true));
setInterval(() => {
  const shown = document.visibilityState === "visible";
  if (active && shown && state.status === "playing" && !state.paused && !manualPause) setPaused(false);
  active = false;
}, 60000);

// ---------------------------------------------------------------- playing

function canChange() {
  return state.status === "playing" && !state.paused && !walk && !broken;
}

function select(i) {
  selected = Math.max(0, Math.min(80, i));
  render();
  cells[selected].focus();
}

function input(digit, asNote = notesMode) {
  if (!canChange()) return;
  if (state.puzzle[selected] !== "0") return say("That is a given: it cannot change.");
  say("");
  if (asNote) {
    if (valueAt(selected)) return say("Clear the digit first to write notes in this cell.");
    send("/moves", { cell: selected, digit, mode: "note" });
  } else {
    const value = valueAt(selected) === digit ? 0 : digit;
    send("/moves", { cell: selected, digit: value, mode: "value" }, { cell: selected, value });
  }
}

function erase() {
  if (!canChange() || state.puzzle[selected] !== "0") return;
  if (!valueAt(selected) && !(state.notes[selected] || []).length) return;
  send("/moves", { cell: selected, digit: 0, mode: "value" }, { cell: selected, value: 0 });
}

function showHint(told) {
  hint = told;
  $("[data-hint-panel]").hidden = false;
  let text = `${told.technique}: look at ${told.region}.`;
  if (told.level >= 2 && told.cells) text += " The cells involved are highlighted.";
  if (told.level >= 3) text = `${told.technique}. ${told.explanation}`;
  $("[data-hint-text]").textContent = text;
  say(text);
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
  if (!result.ok || !result.data.path || !result.data.path.length) {
    say(result.data.error || "There is no solving path to show.");
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
  undo: () => canChange() && send("/undo"),
  redo: () => canChange() && send("/redo"),
  erase,
  notes: () => {
    notesMode = !notesMode;
    render();
  },
  hint: () => canChange() && send("/hint", { level: 1 }),
  "hint-more": () => canChange() && send("/hint", { level: Math.min(3, (hint ? hint.level : 0) + 1) }),
  "hint-close": () => {
    hint = null;
    $("[data-hint-panel]").hidden = true;
    render();
  },
  pause: () => setPaused(true, true),
  resume: () => setPaused(false, true),
  check: () => canChange() && send("/check"),
  reveal: () => {
    if (!canChange()) return;
    if (state.puzzle[selected] !== "0") return say("Select an empty or wrong cell to reveal.");
    if (confirm("Reveal this cell? The game will count as assisted.")) send("/reveal", { cell: selected });
  },
  "give-up": () => {
    if (state.status === "playing" && !broken && confirm("Give up and see the solution?")) send("/give-up");
  },
  "show-how": showHow,
  print: () => window.print(),
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

// Keys act on the board while the focus is in the game (board, pad, toolbar) or nowhere in
// particular; in a form or a panel they keep their usual meaning, and the arrow keys move
// on the board only when the focus is on it.
function keysForGame(target) {
  if (target === document.body) return true;
  return root.contains(target) && !target.closest(".panel, input, select, textarea");
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || !keysForGame(event.target)) return;
  const key = event.key;
  if (event.ctrlKey || event.metaKey) {
    // Ctrl on most keyboards, Cmd on a Mac.
    if (event.repeat) return;
    if (key === "z" || key === "Z") {
      event.preventDefault();
      return event.shiftKey ? actions.redo() : actions.undo();
    }
    if (key === "y" || key === "Y") {
      event.preventDefault();
      return actions.redo();
    }
    return;
  }
  const onBoard = event.target === document.body || board.contains(event.target);
  const moves = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 };
  if (key in moves && onBoard) {
    event.preventDefault();
    const step = moves[key];
    let next = selected + step;
    if (step === -1 && selected % 9 === 0) next = selected + 8;
    if (step === 1 && selected % 9 === 8) next = selected - 8;
    if (next < 0) next += 81;
    if (next > 80) next -= 81;
    return select(next);
  }
  if ((key === "Home" || key === "End") && onBoard) {
    event.preventDefault();
    return select(selected - (selected % 9) + (key === "End" ? 8 : 0));
  }
  if (event.repeat) return; // a key held down enters its digit once
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
  if (key === "p" || key === "P") return manualPause ? actions.resume() : actions.pause();
});

// Opening the page means playing: the clock (started when the game was) goes on, unless
// the page opened in a background tab.
render();
if (state.status === "playing") setPaused(document.visibilityState !== "visible");
root.dataset.ready = "true"; // for scripts and tests: the page now takes input
