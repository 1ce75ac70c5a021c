"""What the API answers of a game: its state (the solution only once it is over; while it
is paused, the givens only), and a finished game's replay, a page of frames at a time.
"""

from __future__ import annotations

import contextlib

from django.core.cache import cache
from django.utils.translation import gettext as _

import engine

from ..learn.guide import grade_of, label_of
from ..learn.practice import practice_state
from ..models import NONE_COMPLETE, Game, Move, Preferences
from . import stats
from .board import PlayBoard, complete_flags, marks_of, notes_of, taken_of, wrong_cells
from .errors import Conflict
from .sharing import share_path


def state(game: Game, prefs: Preferences) -> dict:
    """The game as the API shows it. The solution only once the game is over."""
    over = game.status != Game.Status.PLAYING
    # Mistakes show only in a game played with marking on: such a game is off the
    # leaderboards, so turning marking on for a look and off again gains nothing.
    shown = over or (prefs.mark_mistakes and game.marked)
    paused = game.resumed_at is None and not over
    result = {
        "id": game.pk,
        "puzzle": game.puzzle.givens,
        **_board(game, shown, paused),
        "status": game.status,
        "version": game.version,
        "elapsed": round(game.elapsed(), 1),
        # How long the clock runs on from here with no other request: a page counts that
        # long on its own, then shows the clock stopped, as the server's is.
        "runs_for": round(game.runs_for(), 1),
        "paused": paused,
        # While the clock is stopped the board is out of sight, on the page and here.
        "hidden": paused,
        # With marking off, a live count would tell whether a digit is right.
        "mistakes": game.mistakes if shown else None,
        # Mistakes were shown as they were made: the end shows their count the same way.
        "marked": game.marked,
        "hints": game.hints,
        "reveals": game.reveals,
        "difficulty": game.puzzle.difficulty,
        "daily": game.daily.date.isoformat() if game.daily_id else None,
        "can_undo": game.moves_applied > 0 and not over,
        "can_redo": game.moves_logged > game.moves_applied and not over,
        "set_aside": game.set_aside,
    }
    grade = grade_of(game.puzzle, over=over)
    result["grade"] = {"tier": grade["tier"], "score": grade["score"]}
    if over and grade["hardest"]:
        result["hardest"] = {
            key: grade["hardest"][key] for key in ("name", "plain", "label", "slug")
        }
    result["share_url"] = share_path(game.puzzle_id)
    if game.practice:
        result["practice"] = practice_state(game)
    if over:
        result |= _ending(game)
    return result


def _board(game: Game, shown: bool, paused: bool) -> dict:
    """The board's part of the state; while paused, the givens only, as on a blank sheet:
    a player cannot study it paused."""
    if paused:
        return {
            "values": game.puzzle.givens,
            "notes": [[] for _ in range(81)],
            "complete": NONE_COMPLETE,
            "taken": [[] for _ in range(81)],
            "marks": {},
            "conflicts": [],
            "wrong": [],
        }
    return {
        "values": game.values,
        "notes": notes_of(game),
        "complete": complete_flags(game),
        "taken": taken_of(game),
        # The player's corner and centre marks and colours, by cell (Game.marks).
        "marks": marks_of(game),
        # Rule conflicts are always shown: they need no solution and are no help.
        "conflicts": engine.conflicts(game.values),
        "wrong": wrong_cells(game) if shown else [],
    }


def _ending(game: Game) -> dict:
    """What a game over shows: the solution, how it counts, and for a solve the time
    ranked, the best time and the place on the day's board."""
    ending = {"solution": game.puzzle.solution, "clean": game.clean, "standing": game.standing}
    # The time the leaderboards rank: from the start to the solve, pauses included.
    if game.ranked_seconds is not None:
        ending["ranked_time"] = round(game.ranked_seconds, 1)
    return ending | stats.finish_record(game)  # "best" and "place"


# A replay is read a page at a time: the board at every KEYFRAME_EVERY-th frame is worked
# out once per finished game and kept (a few kB), and a page replays the moves of its
# range from the nearest one before it, read from the database by number.
KEYFRAME_EVERY = 100


def replay(game: Game, start: int = 0, count: int | None = None) -> tuple[list[dict], int]:
    """After the game: the board after each of the player's moves, from the move log (the
    moves on the board; those undone are left out), as frames `start` to `start + count`
    (all from `start` without count), and how many frames there are in all. The first
    frame is the board the game started from (the givens, and for a practice game its
    position); each later one the values and notes after a move, with the move's kind,
    cell and digit. The last frame is the board as the game ended (for a game given up,
    before the solution was shown)."""
    if game.status == Game.Status.PLAYING:
        raise Conflict(_("The replay is shown once the game is over."))
    total = game.moves_applied + 1
    end = total if count is None else min(total, start + count)
    if start >= end:
        return [], total
    # The keyframe before the page's first move: frame `start` needs that move's own row.
    first = 0 if start == 0 else KEYFRAME_EVERY * ((start - 1) // KEYFRAME_EVERY)
    board = PlayBoard.at(*_keyframes(game)[first // KEYFRAME_EVERY])
    frames = [_frame(board, None)] if start == 0 else []
    moves = Move.objects.filter(game=game, number__gt=first, number__lt=end).order_by("number")
    for logged in moves:
        board.walk(logged.changes, "after")
        if logged.number >= start:
            frames.append(_frame(board, logged))
    return frames, total


def _keyframes(game: Game) -> list[tuple[str, list[list[int]], dict]]:
    """The board (values, notes, marks) at frames 0, KEYFRAME_EVERY, 2 * KEYFRAME_EVERY ... of a
    game over, which never changes again: worked out once and kept a day."""
    finished = game.finished_at.isoformat() if game.finished_at else ""
    key = f"replay-keys-marked:{game.pk}:{game.version}:{finished}"
    try:
        keys = cache.get(key)
    except Exception:  # the cache is down: work them out every time
        keys = None
    if keys is None:
        keys = _work_out_keyframes(game)
        with contextlib.suppress(Exception):
            cache.set(key, keys, 24 * 3600)
    return keys


def _work_out_keyframes(game: Game) -> list[tuple[str, list[list[int]], dict]]:
    logged = Move.objects.filter(game=game, number__lte=game.moves_applied).order_by("number")
    changes = list(logged.values_list("changes", flat=True))
    board = PlayBoard.of(game)
    for each in reversed(changes):
        board.walk(list(reversed(each)), "before")
    keys = [(board.grid(), board.notes(), board.marks)]
    for number, each in enumerate(changes, 1):
        board.walk(each, "after")
        if number % KEYFRAME_EVERY == 0:
            keys.append((board.grid(), board.notes(), board.marks))
    return keys


def _frame(board: PlayBoard, logged: Move | None) -> dict:
    return {
        "values": board.grid(),
        "notes": board.notes(),
        "marks": board.marks,
        "kind": logged.kind if logged else None,
        "cell": logged.cell if logged else None,
        "digit": logged.digit if logged else None,
        "technique": label_of(logged.technique) if logged and logged.technique else "",
    }
