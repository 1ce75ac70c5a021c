"""Help on a game: hints in three levels and Apply, "where did I go wrong" (check),
revealing a cell, giving up, a typed-in copy of the puzzle counted as help, and the
logical solve shown once the game is over. Help marks the game (and the player's later
games on the puzzle) as helped: no solve of it after is clean.
"""

from __future__ import annotations

import contextlib
import hashlib
import json

from django.core.cache import cache
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

import engine

from ..models import Game, Move, Preferences
from .board import PlayBoard, wrong_cells
from .changes import (
    Write,
    check_cell,
    check_playing,
    check_version,
    commit,
    end_fields,
    helped_fields,
)
from .errors import Conflict

NO_HINT = _(
    "There is no full hint on this board to apply: open the hint's last level first "
    "(the board may have changed since)."
)


def _next_step(game: Game, board: PlayBoard, prefs: Preferences) -> engine.Step:
    """The next step on the player's own board: the candidates the placed digits allow,
    narrowed by the notes of complete cells only."""
    step = engine.next_step(
        board.grid(),
        board.notes(),
        puzzle=game.puzzle.givens,
        complete=board.complete,
        compact=prefs.compact_places,
    )
    if step is None:
        raise Conflict(_("The board is complete."))
    return step


def _what_it_does(step: engine.Step) -> dict:
    """The changes a step makes, as Apply carries them out."""
    return {
        "technique": step.technique,
        "placements": [list(p) for p in step.placements],
        "eliminations": [list(e) for e in step.eliminations],
        "clears": list(step.clears),
        "restores": [list(r) for r in step.restores],
    }


def _key(version: int, does: dict) -> str:
    """The same step on the same version of the board is the same hint."""
    digest = hashlib.sha256(json.dumps(does, sort_keys=True).encode()).hexdigest()[:16]
    return f"{version}:{digest}"


def hint(game: Game, level: int, version: int, prefs: Preferences) -> tuple[Game, dict]:
    """The next step on the player's own board, told at a level: 1 the technique in plain
    words and where to look, 2 why (the cells that cause it and those it changes), 3 what
    follows, in words. Nothing changes on the board (Apply does that). A hint is counted
    once, however many of its levels are opened; the deepest level reached is recorded."""
    check_playing(game)
    check_version(game, version)
    board = PlayBoard.of(game)
    step = _next_step(game, board, prefs)
    does = _what_it_does(step)
    key = _key(version, does)
    try:
        _tell_hint(game, board, key, level, version, does)
    except Conflict:
        # Where rows are not locked (SQLite), another request may have saved a hint since
        # this one read the game: the same one, opened in another tab, is not counted
        # again; anything else gets the usual answer.
        game.refresh_from_db()
        check_playing(game)
        check_version(game, version)
        _tell_hint(game, board, key, level, version, does)
    return game, engine.tell(step, level)


def _tell_hint(
    game: Game, board: PlayBoard, key: str, level: int, version: int, does: dict
) -> None:
    """Record a hint told, counted unless it is the one last told; saved only if the hint
    last told is still the one this request read."""
    write = Write(game)
    write.same = {"hint": game.hint}
    same = game.hint.get("key") == key
    reached = max(level, game.hint.get("level", 0)) if same else level
    game.hint = {"key": key, "version": version, "level": reached, "step": does}
    game.hint_level_max = max(game.hint_level_max, level)
    extra = {"hint": game.hint, "hint_level_max": game.hint_level_max}
    commit(write, board, None, extra, hints=0 if same else 1)
    write.save()


def apply_hint(game: Game, version: int, prefs: Preferences) -> tuple[Game, int | None]:
    """Carry out the step of the hint last opened at level 3 on this version of the board,
    as one move that one undo takes back. Counts nothing more: the hint was counted. Also
    returns the cell the step is about."""
    check_playing(game)
    check_version(game, version)
    told = game.hint
    if not told or told.get("version") != version or told.get("level", 0) < 3:
        raise Conflict(NO_HINT)
    does = told["step"]
    board = PlayBoard.of(game)
    changes = board.carry_out(does, game.puzzle.givens, prefs)
    entry = {"kind": Move.Kind.HINT, "technique": does["technique"][:40], "changes": changes}
    write = Write(game)
    commit(write, board, entry if changes else None)
    write.save()
    cells = [
        *(c for c, _ in does["placements"]),
        *(c for c, _ in does["eliminations"]),
        *does["clears"],
        *(c for c, _ in does["restores"]),
    ]
    return game, (cells[0] if cells else None)


def reveal(game: Game, cell: int, version: int, prefs: Preferences) -> Game:
    """Fill a cell with its solution digit; counted as assisted, like a level-3 hint."""
    check_playing(game)
    check_version(game, version)
    check_cell(game, cell)
    board = PlayBoard.of(game)
    digit = int(game.puzzle.solution[cell])
    changes = board.put(cell, digit, prefs) if board.values[cell] != digit else []
    # A reveal of a digit already right changes nothing but still tells the player the
    # digit is right, so it counts all the same.
    entry = {"kind": "reveal", "cell": cell, "digit": digit, "changes": changes}
    write = Write(game)
    commit(write, board, entry if changes else None, reveals=1)
    return write.save()


def check(game: Game) -> list[int]:
    """Where did I go wrong: every digit on the board that is not the solution's.
    Counted as a hint."""
    check_playing(game)
    write = Write(game)
    commit(write, PlayBoard.of(game), None, hints=1)
    write.save()
    return wrong_cells(game)


def give_up(game: Game) -> Game:
    """End the game unsolved; the solution is shown from now on."""
    check_playing(game)
    now = timezone.now()
    game.resume(now)
    game.finish(Game.Status.GAVE_UP, now)
    write = Write(game, versioned=False)
    write.hold(end_fields(game) | helped_fields(game, now) | {"seen_at": now, "updated_at": now})
    return write.save()


def count_copy_as_help(game: Game) -> None:
    """A changed copy of the game's puzzle typed in (puzzles/play/sharing.py) could tell
    whether a digit is right: help on the puzzle, as a check is. A game that ended stays
    as it was."""
    if game.status != Game.Status.PLAYING or game.set_aside:
        return
    write = Write(game, versioned=False)
    write.hold(helped_fields(game, timezone.now()))
    with contextlib.suppress(Conflict):  # it ended meanwhile: it stays as it was
        write.save()


def solution_path(game: Game) -> list[dict]:
    """After the game: the engine's logical solve of the original puzzle, step by step,
    each with the board as it stood before the step. Kept in the cache a day: grading a
    hard puzzle is work a client should not be able to ask for again and again."""
    if game.status == Game.Status.PLAYING:
        raise Conflict(_("The solving path is shown once the game is over."))
    # 4: in the language of the request (the steps are told in it).
    key = f"solution-path:4:{translation.get_language()}:{game.puzzle_id}"
    try:
        path = cache.get(key)
    except Exception:  # the cache is down: work it out every time
        path = None
    if path is None:
        path = [
            entry.as_dict() | {"name": engine.told_entry(entry.step).said_label}
            for entry in engine.solution_path(game.puzzle.givens)
        ]
        with contextlib.suppress(Exception):
            cache.set(key, path, 24 * 3600)
    return path


def count_analysis_as_help(game: Game) -> Game:
    """ "Analyse this position" on a game in play (puzzles/play/analyse.py): the whole
    logical path from the player's board, so counted as a hint is, and the game is helped.
    The clock is left as it is: the page that asked paused it as it left."""
    check_playing(game)
    game.hints += 1
    write = Write(game, versioned=False)
    write.hold({"hints": game.hints} | helped_fields(game, timezone.now()))
    return write.save()
