// The replay of the player's own solve, once the game is over: the frames of the move log
// drawn on the board, stepped through with a slider, the arrow buttons or Play.

import { keepInView, render } from "./draw.js";
import { $, game, request, say, where } from "./state.js";

const PLAY_MS = 400;
let timer = null;

function described(frame, index, count) {
  const at = `Move ${index} of ${count - 1}`;
  if (index === 0 || !frame.kind) return `The start: the puzzle as given. ${count - 1} moves follow.`;
  const cell = Number.isInteger(frame.cell) ? where(frame.cell) : "";
  const digit = frame.digit;
  const what = {
    value: digit ? `${digit} in ${cell}` : `${cell} cleared`,
    note: `note ${digit} in ${cell}`,
    hint: `a hint applied${frame.technique ? ` (${frame.technique})` : ""}`,
    reveal: `${cell} revealed`,
    fill: "all notes filled",
  }[frame.kind] || frame.kind;
  return `${at}: ${what}.`;
}

// The frames come a page at a time (the server reads a long game's log by range): a page
// is fetched when the slider, a step or Play reaches a frame not yet here.
const PAGE = 100;

async function load(index) {
  const { replay } = game;
  const start = Math.floor(index / PAGE) * PAGE;
  if (replay.frames[index]) return true;
  if (!replay.loading.has(start)) {
    replay.loading.set(
      start,
      request(`/replay?start=${start}&count=${PAGE}`, null, "GET").then((result) => {
        replay.loading.delete(start);
        if (!result.ok || !result.data.frames) return false;
        result.data.frames.forEach((frame, k) => {
          replay.frames[start + k] = frame;
        });
        return true;
      }),
    );
  }
  return replay.loading.get(start);
}

async function show(index) {
  const { replay } = game;
  const wanted = Math.max(0, Math.min(replay.total - 1, index));
  replay.wanted = wanted;
  if (!(await load(wanted))) {
    say("This part of the replay could not be loaded; try again.");
    return;
  }
  // A later step or slide went elsewhere while this page was on the way: that one draws.
  if (game.replay !== replay || replay.wanted !== wanted) return;
  replay.index = wanted; // the frame drawn, always one that is here
  $("[data-replay-slider]").value = String(wanted);
  $('[data-action="replay-prev"]').disabled = wanted === 0;
  $('[data-action="replay-next"]').disabled = wanted === replay.total - 1;
  const frame = replay.frames[wanted];
  $("[data-replay-count]").textContent = described(frame, wanted, replay.total);
  if (Number.isInteger(frame.cell)) game.selected = frame.cell;
  render();
  if (wanted + 1 < replay.total && !replay.frames[wanted + 1]) load(wanted + 1); // the next page, ahead
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  const button = $('[data-action="replay-play"]');
  button.textContent = "Play";
  button.setAttribute("aria-pressed", "false");
}

export async function openReplay() {
  const result = await request(`/replay?start=0&count=${PAGE}`, null, "GET");
  if (!result.ok || !result.data.frames || !result.data.frames.length) {
    say(result.data.error || "There are no moves to replay.");
    return;
  }
  game.walk = null;
  $("[data-walkthrough]").hidden = true;
  say(""); // what the message line said was about the board before the replay
  game.replay = { frames: [...result.data.frames], total: result.data.total, index: 0, loading: new Map() };
  const slider = $("[data-replay-slider]");
  slider.max = String(result.data.total - 1);
  $("[data-replay]").hidden = false;
  show(0);
  keepInView($("[data-replay] .replay-actions"));
  slider.focus({ preventScroll: true });
}

export function closeReplay() {
  stop();
  game.replay = null;
  $("[data-replay]").hidden = true;
  render();
}

export const replayActions = {
  replay: openReplay,
  "replay-close": closeReplay,
  "replay-prev": () => {
    stop();
    show(game.replay.index - 1);
  },
  "replay-next": () => {
    stop();
    show(game.replay.index + 1);
  },
  "replay-play": () => {
    if (timer) return stop();
    const button = $('[data-action="replay-play"]');
    button.textContent = "Stop";
    button.setAttribute("aria-pressed", "true");
    if (game.replay.index === game.replay.total - 1) show(0);
    timer = setInterval(() => {
      if (game.replay.index >= game.replay.total - 1) return stop();
      show(game.replay.index + 1);
    }, PLAY_MS);
  },
};

export function listenToReplay() {
  $("[data-replay-slider]").addEventListener("input", (event) => {
    stop();
    show(Number(event.target.value));
  });
}
