"""The board the game page computes (static/js/game/board.js) agrees with the server's,
move after move: digits, notes, erase, undo and redo, fill all notes, auto-notes and
auto-remove with the notes they take out put back; corner and centre marks and colours.
The page draws a tap from its own board before the server answers, so any difference
would show as a board that jumps.

The page's module runs in Node; a random game is played through the API and the same
moves through the module, and the two boards are compared after every move."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import engine

from ..helpers import post, start, state

pytestmark = pytest.mark.django_db

NODE = shutil.which("node")
BOARD_JS = Path(__file__).resolve().parents[3] / "static" / "js" / "game" / "board.js"
SETTINGS = {"theme": "system", "show_timer": "on"}

# Reads {start, peers, prefs, actions} on stdin; prints the board after each action.
RUN_BOARD = """
import { Board } from %s;
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { start, peers, prefs, actions } = JSON.parse(input);
  const board = Board.fromState(start, peers);
  const boards = actions.map(([kind, cell, digit]) => {
    if (kind === "undo") board.undo();
    else if (kind === "redo") board.redo();
    else if (kind === "fill-notes") board.fillNotes();
    else board.move(cell, digit, kind, prefs);
    const complete = board.complete.map((c) => (c ? "1" : "0")).join("");
    return [board.grid(), board.notes.map((n) => [...n]), complete, board.taken.map((t) => [...t])];
  });
  console.log(JSON.stringify(boards));
});
"""


def page_boards(start_state: dict, prefs: dict, actions: list) -> list:
    script = RUN_BOARD % json.dumps(BOARD_JS.as_uri())
    stdin = json.dumps(
        {
            "start": start_state,
            "peers": [sorted(p) for p in engine.PEERS],
            "prefs": prefs,
            "actions": actions,
        }
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def play_at_random(client, game, rng: random.Random, count: int) -> tuple[list, list]:
    """Moves the server takes, chosen at random from the board as it stands: digits (right
    and wrong), erasing, notes, undo, redo, fill all notes. The actions and the server's
    board after each."""
    body = state(client, game)
    blanks = [c for c, ch in enumerate(game.puzzle.givens) if ch == "0"]
    actions, boards = [], []
    while len(actions) < count:
        roll = rng.random()
        cell = rng.choice(blanks)
        if roll < 0.08:
            action, path, data = ["undo", None, None], "undo", {}
        elif roll < 0.13:
            action, path, data = ["redo", None, None], "redo", {}
        elif roll < 0.16:
            action, path, data = ["fill-notes", None, None], "fill-notes", {}
        elif roll < 0.45 and body["values"][cell] == "0":
            digit = rng.choice([0, *range(1, 10)]) if rng.random() < 0.1 else rng.randint(1, 9)
            action, path = ["note", cell, digit], "moves"
            data = {"cell": cell, "digit": digit, "mode": "note"}
        else:
            digit = 0 if rng.random() < 0.25 else rng.randint(1, 9)
            action, path = ["value", cell, digit], "moves"
            data = {"cell": cell, "digit": digit, "mode": "value"}
        response = post(client, game, path, data | {"version": body["version"]})
        if response.status_code != 200:
            continue  # nothing to undo or redo: the page does nothing either
        body = response.json()
        if body["status"] != "playing":
            break
        actions.append(action)
        boards.append([body["values"], body["notes"], body["complete"], body["taken"]])
    return actions, boards


@pytest.mark.skipif(NODE is None, reason="Node runs the page's module")
@pytest.mark.parametrize(
    "auto_remove,auto_notes",
    [(True, False), (False, False), (True, True), (False, True)],
    ids=["auto-remove", "plain", "auto-notes", "auto-notes-only"],
)
def test_the_page_computes_the_board_the_server_stores(player, stocked, auto_remove, auto_notes):
    choices = {"auto_remove_notes": "on"} if auto_remove else {}
    choices |= {"auto_notes": "on"} if auto_notes else {}
    player.post("/settings/", SETTINGS | choices)
    for seed in range(3):
        game = start(player, ["easy", "medium", "hard"][seed])
        opening = state(player, game)
        actions, expected = play_at_random(player, game, random.Random(seed), 120)
        prefs = {"autoRemove": auto_remove, "autoNotes": auto_notes}
        computed = page_boards(opening, prefs, actions)
        for number, (action, want, got) in enumerate(zip(actions, expected, computed, strict=True)):
            assert got == want, f"after move {number + 1} {action}: {differences(got, want)}"


def differences(got: list, want: list) -> list[tuple]:
    """Per cell that differs: (cell, the page's value, notes, complete; the server's)."""
    mine = [tuple(part[cell] for part in got) for cell in range(81)]
    theirs = [tuple(part[cell] for part in want) for cell in range(81)]
    return [(cell, mine[cell], theirs[cell]) for cell in range(81) if mine[cell] != theirs[cell]]


# Reads {start, peers, prefs, actions} on stdin, marks among them; prints the digits and
# the marks after each action.
RUN_MARKS = """
import { Board } from %s;
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { start, peers, prefs, actions } = JSON.parse(input);
  const board = Board.fromState(start, peers);
  const boards = actions.map(([kind, cells, layer, digit, colour]) => {
    if (kind === "undo") board.undo();
    else if (kind === "redo") board.redo();
    else if (kind === "mark") board.mark(cells, layer, digit, colour);
    else board.move(cells[0], digit, "value", prefs);
    return [board.grid(), board.marks];
  });
  console.log(JSON.stringify(boards));
});
"""

LAYERS = ("corner", "centre", "colour", "candidate")


def mark_at_random(client, game, rng: random.Random, count: int) -> tuple[list, list]:
    """Marks of every layer on one or more cells, digits, undo and redo, sent as a page
    sends them (the batch endpoint, one change a batch). The actions the server took and
    its digits and marks after each."""
    # A few cells, digits and colours, so that marks meet again: toggled off, recoloured.
    blanks = [c for c, ch in enumerate(game.puzzle.givens) if ch == "0"][:6]
    givens = [c for c, ch in enumerate(game.puzzle.givens) if ch != "0"][:2]
    version = state(client, game)["version"]
    actions, boards = [], []
    while len(actions) < count:
        roll = rng.random()
        change: dict = {"id": f"c{len(actions)}-{rng.random():.6f}"[:60].replace(".", "")}
        if roll < 0.1:
            action = ["undo", None, None, 0, 0]
            change |= {"kind": "undo"}
        elif roll < 0.16:
            action = ["redo", None, None, 0, 0]
            change |= {"kind": "redo"}
        elif roll < 0.3:
            cell, digit = rng.choice(blanks), rng.randint(0, 3)
            action = ["value", [cell], None, digit, 0]
            change |= {"kind": "move", "cell": cell, "digit": digit, "mode": "value"}
        else:
            layer = rng.choice(LAYERS)
            pool = blanks + givens if layer == "colour" else blanks
            cells = rng.sample(pool, rng.choice([1, 1, 2, 3]))
            digit = rng.randint(1 if layer == "candidate" else 0, 3) if layer != "colour" else 0
            colour = rng.randint(0, 3) if layer in ("colour", "candidate") else 0
            action = ["mark", cells, layer, digit, colour]
            change |= {"kind": "mark", "cells": cells, "layer": layer, "digit": digit}
            change |= {"colour": colour}
        batch = {"device": "page-board-1", "changes": [change | {"base": version}]}
        answer = post(client, game, "changes", batch).json()
        assert "refused" in answer, (change, answer)
        if answer["refused"]:
            continue  # nothing to undo, a mark on a digit: the page refuses it too
        body = answer["state"]
        version = body["version"]
        if body["status"] != "playing":
            break
        actions.append(action)
        boards.append([body["values"], body["marks"]])
    return actions, boards


@pytest.mark.skipif(NODE is None, reason="Node runs the page's module")
def test_the_page_computes_the_marks_the_server_stores(player, stocked):
    game = start(player)
    opening = state(player, game)
    actions, expected = mark_at_random(player, game, random.Random(35), 100)
    script = RUN_MARKS % json.dumps(BOARD_JS.as_uri())
    stdin = json.dumps(
        {
            "start": opening,
            "peers": [sorted(p) for p in engine.PEERS],
            "prefs": {"autoRemove": True, "autoNotes": False},
            "actions": actions,
        }
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    computed = json.loads(done.stdout)
    assert any(a[0] == "mark" for a in actions) and any(a[0] == "undo" for a in actions)
    for number, (action, want, got) in enumerate(zip(actions, expected, computed, strict=True)):
        assert got == want, f"after move {number + 1} {action}"


# Reads {start, peers, prefs, actions} on stdin, moves on several cells among them; prints
# the board after each action.
RUN_MANY = """
import { Board } from %s;
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { start, peers, prefs, actions } = JSON.parse(input);
  const board = Board.fromState(start, peers);
  const boards = actions.map(([kind, cells, digit]) => {
    if (kind === "undo") board.undo();
    else if (kind === "redo") board.redo();
    else board.move(cells, digit, kind, prefs);
    const complete = board.complete.map((c) => (c ? "1" : "0")).join("");
    return [board.grid(), board.notes.map((n) => [...n]), complete, board.taken.map((t) => [...t])];
  });
  console.log(JSON.stringify(boards));
});
"""


def many_at_random(client, game, rng: random.Random, count: int) -> tuple[list, list]:
    """Digits, notes and erases on one to four cells at once, undo and redo, sent as a page
    sends them (the batch endpoint). The actions the server took and its board after each."""
    blanks = [c for c, ch in enumerate(game.puzzle.givens) if ch == "0"][:12]
    version = state(client, game)["version"]
    actions, boards = [], []
    while len(actions) < count:
        roll = rng.random()
        change: dict = {"id": f"m{len(actions)}-{rng.randint(0, 10**9)}"}
        if roll < 0.12:
            action, change = ["undo", None, 0], change | {"kind": "undo"}
        elif roll < 0.2:
            action, change = ["redo", None, 0], change | {"kind": "redo"}
        else:
            mode = "note" if roll < 0.55 else "value"
            cells = rng.sample(blanks, rng.choice([1, 2, 3, 4]))
            digit = 0 if rng.random() < 0.15 else rng.randint(1, 9)
            action = [mode, cells, digit]
            change |= {"kind": "move", "cells": cells, "digit": digit, "mode": mode}
        batch = {"device": "page-board-2", "changes": [change | {"base": version}]}
        answer = post(client, game, "changes", batch).json()
        assert "refused" in answer, (change, answer)
        if answer["refused"]:
            continue  # nothing to undo, notes where every cell holds a digit: the page refuses too
        body = answer["state"]
        version = body["version"]
        if body["status"] != "playing":
            break
        actions.append(action)
        boards.append([body["values"], body["notes"], body["complete"], body["taken"]])
    return actions, boards


@pytest.mark.skipif(NODE is None, reason="Node runs the page's module")
def test_the_page_computes_moves_on_several_cells_as_the_server_does(player, stocked):
    player.post("/settings/", SETTINGS | {"auto_remove_notes": "on"})
    game = start(player)
    opening = state(player, game)
    actions, expected = many_at_random(player, game, random.Random(36), 120)
    script = RUN_MANY % json.dumps(BOARD_JS.as_uri())
    stdin = json.dumps(
        {
            "start": opening,
            "peers": [sorted(p) for p in engine.PEERS],
            "prefs": {"autoRemove": True, "autoNotes": False},
            "actions": actions,
        }
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    computed = json.loads(done.stdout)
    assert any(a[0] == "value" and len(a[1]) > 1 and a[2] for a in actions)
    assert any(a[0] == "note" and len(a[1]) > 1 for a in actions)
    for number, (action, want, got) in enumerate(zip(actions, expected, computed, strict=True)):
        assert got == want, f"after move {number + 1} {action}: {differences(got, want)}"
