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

function show(index) {
  const { replay } = game;
  replay.index = Math.max(0, Math.min(replay.frames.length - 1, index));
  const slider = $("[data-replay-slider]");
  slider.value = String(replay.index);
  const frame = replay.frames[replay.index];
  $("[data-replay-count]").textContent = described(frame, replay.index, replay.frames.length);
  $('[data-action="replay-prev"]').disabled = replay.index === 0;
  $('[data-action="replay-next"]').disabled = replay.index === replay.frames.length - 1;
  if (Number.isInteger(frame.cell)) game.selected = frame.cell;
  render();
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  const button = $('[data-action="replay-play"]');
  button.textContent = "Play";
  button.setAttribute("aria-pressed", "false");
}

export async function openReplay() {
  const result = await request("/replay", null, "GET");
  if (!result.ok || !result.data.frames || !result.data.frames.length) {
    say(result.data.error || "There are no moves to replay.");
    return;
  }
  game.walk = null;
  $("[data-walkthrough]").hidden = true;
  say(""); // what the message line said was about the board before the replay
  game.replay = { frames: result.data.frames, index: 0 };
  const slider = $("[data-replay-slider]");
  slider.max = String(result.data.frames.length - 1);
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
    if (game.replay.index === game.replay.frames.length - 1) show(0);
    timer = setInterval(() => {
      if (game.replay.index >= game.replay.frames.length - 1) return stop();
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
