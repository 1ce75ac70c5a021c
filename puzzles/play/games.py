"""A player's game: starting one, moves, undo and redo, hints, reveals, the clock, the end.

The board is the game's values (81 characters, givens included), notes (81 lists of
digits) and which cells' notes are complete candidate lists, held while it changes in the
engine's Board and a list of flags. A cell's notes are complete once "fill all notes" (or
auto-notes) wrote them, and stay so while the player takes digits out; notes typed into
any other cell are a memo, which hints leave alone. Every change to the board is one Move
row: the cells it touched, each with its value, notes and completeness before and after,
so undo and redo are exact and replaying the applied moves from the puzzle gives the
board. Each change bumps the game's version, and is saved only if the version is still the
one the player saw: a stale tab gets a 409, never a lost move.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import math

from django.contrib.auth.signals import user_logged_out
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Q, Subquery, Value
from django.db.models.functions import Coalesce, Greatest
from django.dispatch import receiver
from django.utils import timezone
from prometheus_client import Counter

import engine
from engine import Board
from engine.techniques.table import entry_for

from ..accounts.players import GUEST_KEY, Player
from ..learn.guide import grade_of, label_of
from ..learn.practice import makes_goal, practice_state
from ..models import (
    DIGIT_BURST,
    DIGIT_RATE,
    NONE_COMPLETE,
    ChangeReceipt,
    DailyPuzzle,
    Difficulty,
    Game,
    Move,
    Preferences,
    Puzzle,
    human_floor,
)
from ..pools.daily import dailies_of, today
from ..pools.stock import claim_fresh_puzzle, make_and_serve, start_refill
from . import rows, stats
from .sharing import share_path

# Counted here, scraped at /metrics (puzzles/metrics.py): games started and moves stored.
GAMES_STARTED = Counter("sudoku_games_started", "Games started, by difficulty.", ["difficulty"])
MOVES = Counter("sudoku_moves", "Moves stored (digits, notes, hints, reveals), by kind.", ["kind"])


class GameError(Exception):
    """A request the game cannot take; status is the HTTP status to answer with."""

    status = 400


class Conflict(GameError):
    """The request does not fit the game's current state (stale version, game over)."""

    status = 409


class NotFound(GameError):
    status = 404


class Unavailable(GameError):
    """Something the request needs cannot be had right now; worth a retry."""

    status = 503


STALE = "The game changed in another window; here is its current state."

# A game's move log holds at most this many moves: a human game needs a few hundred (a
# digit and a few notes per cell), so only a script reaches it. Undo still works past it.
MOVE_LOG_CAP = 5000
LOG_FULL = (
    "This game has {cap} moves, as many as a game can hold: undo some to make room, or "
    "start a new game."
)
# The pace of changes to a board (moves, undos, redos): a burst of MOVE_BURST at once (a
# whole batch of changes queued offline), then MOVE_RATE a second. A fast human places a
# digit or a note every half second or so; a script is slowed to this pace.
MOVE_BURST = 200
MOVE_RATE = 5
TOO_FAST = "Too many changes to this game at once; wait a moment and send them again."
# A game's receipts of a page's changes (ChangeReceipt): a page sends again only what it
# has no answer for, at most a batch or two, so past RECEIPT_CAP the oldest go, down to
# RECEIPT_KEEP, and no game's receipts grow without end.
RECEIPT_CAP = MOVE_LOG_CAP
RECEIPT_KEEP = 1000


class TooFast(GameError):
    """More changes than the pace allows; worth a retry after `retry_after` seconds."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def notes_of(game: Game) -> list[list[int]]:
    """Every cell's notes, as saved from a board (digits in order), none in a new game."""
    return game.notes if len(game.notes) == 81 else [[] for _ in range(81)]


class PlayBoard(Board):
    """A player's board: the engine's, and per cell with a digit the peers whose notes
    auto-remove took that digit from when it was placed (`taken`): erasing or replacing
    the digit puts those notes back."""

    taken: list[list[int]]


def taken_of(game: Game) -> list[list[int]]:
    """Per cell, the peers whose notes its digit took (none for a game from before)."""
    return game.taken if len(game.taken) == 81 else [[] for _ in range(81)]


def board_of(game: Game) -> PlayBoard:
    """The game's values and notes, to change and then save."""
    board = PlayBoard.from_notes(game.values, notes_of(game))
    board.taken = [list(peers) for peers in taken_of(game)]
    return board


def complete_of(game: Game) -> list[bool]:
    """Per cell, whether its notes are a complete candidate list."""
    flags = game.complete if len(game.complete) == 81 else NONE_COMPLETE
    return [flag == "1" for flag in flags]


def _flags(complete: list[bool]) -> str:
    return "".join("1" if flag else "0" for flag in complete)


def _cell(
    board: PlayBoard, complete: list[bool], cell: int
) -> tuple[int, list[int], bool, list[int]]:
    """A cell as the log records it: digit, notes, complete, the notes its digit took."""
    return board.values[cell], list(board.digits(cell)), complete[cell], list(board.taken[cell])


# Starting games ----------------------------------------------------------------------


def new_game(player: Player, difficulty: str, prefs: Preferences | None = None) -> Game:
    """A game on a fresh puzzle of the difficulty. A pool that runs low asks the workers
    for more at once; an empty one falls back to a puzzle of that difficulty, already
    handed out, that the player has not played. A tier made ahead only (master, extreme)
    with neither falls back to the tier below, never making one while the player waits:
    the game's puzzle then is of an easier tier than asked. The clock starts now; with
    auto-notes the notes are all filled in."""
    puzzle = claim_fresh_puzzle(difficulty)
    start_refill(difficulty, Puzzle.objects.fresh(difficulty).count())
    if puzzle is None:
        played = player.all_games().values("puzzle_id")
        # Never a player's own puzzle, nor one whose position the technique guide shows.
        served = (
            Puzzle.objects.without_examples()
            .filter(served_at__isnull=False, dailies__isnull=True)
            .exclude(source=Puzzle.Source.PLAYER)
        )
        puzzle = (
            served.filter(difficulty=difficulty)
            .exclude(pk__in=played)
            .order_by("served_at")
            .first()
        ) or make_and_serve(difficulty)
    if puzzle is None:
        easier = Difficulty.values[Difficulty.values.index(difficulty) - 1]
        return new_game(player, easier, prefs)
    return _create(player, puzzle, None, prefs)


def _create(
    player: Player, puzzle: Puzzle, daily: DailyPuzzle | None, prefs: Preferences | None = None
) -> Game:
    """The player's game on the puzzle: a new one with its clock running, or, when a
    second request of the player's got there first, that one. A practice game of the
    player's on the puzzle showed part of its solve: the new game is helped from then."""
    now = timezone.now()
    notes, complete = [], NONE_COMPLETE
    if prefs is not None and prefs.auto_notes:
        notes = engine.candidates(puzzle.givens)
        complete = "".join("1" if digits else "0" for digits in notes)
    practised = (
        player.all_games()
        .practice_games()
        .filter(puzzle=puzzle)
        .order_by("started_at")
        .values_list("started_at", flat=True)
        .first()
    )
    try:
        with transaction.atomic():
            game = Game.objects.create(
                puzzle=puzzle,
                daily=daily,
                values=puzzle.givens,
                notes=notes,
                complete=complete,
                resumed_at=now,
                seen_at=now,
                helped_at=practised,
                **player.owner_fields(),
            )
    except IntegrityError:
        return player.games().get(puzzle=puzzle)
    GAMES_STARTED.labels(puzzle.difficulty).inc()
    return game


def game_on(player: Player, puzzle: Puzzle, prefs: Preferences | None = None) -> Game:
    """The player's game on a puzzle (a shared one, or their own): the one already started,
    or a new one, which is the day's daily game if the puzzle is a daily of today or
    before."""
    game = player.games().filter(puzzle=puzzle).first()
    if game is not None:
        return game
    daily = puzzle.dailies.filter(date__lte=today()).first()
    return _create(player, puzzle, daily, prefs)


def daily_game(
    player: Player, date: datetime.date, difficulty: str, prefs: Preferences | None = None
) -> Game:
    """The player's game on a date's daily puzzle: the one already started, or a new one."""
    if date > today():
        raise NotFound("That day's puzzles are not out yet.")
    if date == today():
        daily = dailies_of(date).get(difficulty)
        if daily is None:
            raise Unavailable("Today's puzzle could not be picked just now; try again shortly.")
    else:
        daily = DailyPuzzle.objects.filter(date=date, difficulty=difficulty).first()
        if daily is None:
            raise NotFound("There was no daily puzzle that day.")
    game = player.games().filter(puzzle=daily.puzzle_id).first()
    return game or _create(player, daily.puzzle, daily, prefs)


def count_copy_as_help(game: Game) -> None:
    """A changed copy of the game's puzzle typed in (puzzles/play/sharing.py) could tell
    whether a digit is right: help on the puzzle, as a check is. A game that ended stays
    as it was."""
    if game.status == Game.Status.PLAYING:
        now = timezone.now()
        Game.objects.filter(pk=game.pk).update(**_helped_fields(game, now))


def mark_games_in_progress(player: Player) -> int:
    """Mistake marking turned on: the player's unfinished games now show their mistakes,
    so none of them counts as a clean solve any more."""
    return (
        player.games()
        .filter(status=Game.Status.PLAYING, marked=False)
        .update(marked=True, helped_at=Coalesce("helped_at", Value(timezone.now())))
    )


# What the player sees -----------------------------------------------------------------


def state(game: Game, prefs: Preferences) -> dict:
    """The game as the API shows it. The solution only once the game is over."""
    over = game.status != Game.Status.PLAYING
    # Mistakes show only in a game played with marking on: such a game is off the
    # leaderboards, so turning marking on for a look and off again gains nothing.
    shown = over or (prefs.mark_mistakes and game.marked)
    result = {
        "id": game.pk,
        "puzzle": game.puzzle.givens,
        "values": game.values,
        "notes": notes_of(game),
        "complete": game.complete if len(game.complete) == 81 else NONE_COMPLETE,
        "taken": taken_of(game),
        # Rule conflicts are always shown: they need no solution and are no help.
        "conflicts": engine.conflicts(game.values),
        "status": game.status,
        "version": game.version,
        "elapsed": round(game.elapsed(), 1),
        # How long the clock runs on from here with no other request: a page counts that
        # long on its own, then shows the clock stopped, as the server's is.
        "runs_for": round(game.runs_for(), 1),
        "paused": game.resumed_at is None and not over,
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
        "wrong": _wrong_cells(game) if shown else [],
        "set_aside": game.set_aside,
    }
    grade = grade_of(game.puzzle, over=over)
    result["grade"] = {"tier": grade["tier"], "score": grade["score"]}
    result["hidden"] = result["paused"]
    if result["hidden"]:
        # While the clock is stopped the board is out of sight, on the page and here: a
        # player cannot study it paused. The givens only, as on a blank sheet.
        result |= {
            "values": game.puzzle.givens,
            "notes": [[] for _ in range(81)],
            "complete": NONE_COMPLETE,
            "taken": [[] for _ in range(81)],
            "conflicts": [],
            "wrong": [],
        }
    if over and grade["hardest"]:
        result["hardest"] = {
            key: grade["hardest"][key] for key in ("name", "plain", "label", "slug")
        }
    result["share_url"] = share_path(game.puzzle_id)
    if game.practice:
        result["practice"] = practice_state(game)
    if over:
        result["solution"] = game.puzzle.solution
        result["clean"] = game.clean
        result["standing"] = game.standing
        # The time the leaderboards rank: from the start to the solve, pauses included.
        if game.ranked_seconds is not None:
            result["ranked_time"] = round(game.ranked_seconds, 1)
        result |= stats.finish_record(game)  # "best" and "place", for the end of the game
    return result


def _wrong_cells(game: Game) -> list[int]:
    solution = game.puzzle.solution
    return [c for c, v in enumerate(game.values) if v != "0" and v != solution[c]]


# Changing the board -------------------------------------------------------------------


def _change(
    board: PlayBoard,
    complete: list[bool],
    cell: int,
    value: int,
    notes: list[int],
    full: bool,
    taken: list[int] | None = None,
) -> dict | None:
    """Set a cell: its digit, notes and whether they are a complete list (only notes of
    an empty cell can be), and for a digit the peers' notes it took (kept as they were
    unless given). The log entry's record of it, or None if nothing changed."""
    notes = sorted(set(notes))
    full = bool(full and notes and not value)
    if taken is None:
        taken = board.taken[cell] if value and value == board.values[cell] else []
    taken = sorted(set(taken)) if value else []
    before = _cell(board, complete, cell)
    after = (value, notes, full, taken)
    if before == after:
        return None
    board.set_cell(cell, value, notes)
    complete[cell] = full
    board.taken[cell] = taken
    return {"cell": cell, "before": list(before), "after": list(after)}


def _fits_again(board: Board, complete: list[bool], cell: int, digit: int) -> bool:
    """Whether an erased digit goes back into a cell's complete notes: it fits there now."""
    return complete[cell] and digit not in board.digits(cell) and digit in board.allowed(cell)


def _comes_back(board: Board, peer: int, digit: int) -> bool:
    """Whether a note a digit took goes back into a peer's notes: the peer is still empty,
    and the placed digits allow it there."""
    return (
        not board.values[peer] and digit not in board.digits(peer) and digit in board.allowed(peer)
    )


def _hand_over(board: PlayBoard, complete: list[bool], peer: int, digit: int) -> dict | None:
    """A note that cannot come back because another copy of the digit now sees the peer:
    that copy holds it from now on, and gives it back when it goes."""
    if board.values[peer] or digit in board.digits(peer):
        return None
    holder = next((c for c in engine.PEERS[peer] if board.values[c] == digit), None)
    if holder is None:
        return None
    value, notes, full, taken = _cell(board, complete, holder)
    return _change(board, complete, holder, value, notes, full, [*taken, peer])


def _place(
    board: PlayBoard, complete: list[bool], cell: int, digit: int, prefs: Preferences
) -> list[dict]:
    """Put a digit in a cell (0 erases it, notes and all), as one move. The digit leaves
    the notes of the cell's peers: all of them with auto-removal, the complete ones with
    auto-notes; the peers it took a note from are kept with the cell. The digit it
    replaces or erases puts back the notes it took, where the placed digits still allow
    them, and with auto-notes also returns to the complete notes of peers it now fits; an
    erased cell with auto-notes gets its candidates back."""
    old, took = board.values[cell], board.taken[cell]
    same = bool(digit) and digit == old
    before = list(_cell(board, complete, cell))
    if digit == 0 and old and prefs.auto_notes:
        _change(board, complete, cell, 0, list(board.allowed(cell)), True)
    else:
        _change(board, complete, cell, digit, [], False, took if same else [])
    changes, taken = [], list(took) if same else []
    gone = old if old and not same else 0  # the digit erased or replaced
    for peer in engine.PEERS[cell]:
        had = set(board.digits(peer))
        notes = set(had)
        if gone and peer in took and not _comes_back(board, peer, gone):
            changes.append(_hand_over(board, complete, peer, gone))
        elif gone and (
            peer in took or (prefs.auto_notes and _fits_again(board, complete, peer, gone))
        ):
            notes.add(gone)
        tidy = prefs.auto_remove_notes or (prefs.auto_notes and complete[peer])
        if digit in notes and tidy:
            notes.discard(digit)
            taken.append(peer)
        if notes != had:
            changes.append(_change(board, complete, peer, 0, list(notes), complete[peer]))
    if digit:
        board.taken[cell] = sorted(set(taken))
    after = list(_cell(board, complete, cell))
    own = {"cell": cell, "before": before, "after": after} if after != before else None
    return [c for c in [own, *changes] if c]


SET_ASIDE = (
    "This game was set aside when you logged in: your account's game on this puzzle is "
    "the one to play."
)


def _check_playing(game: Game) -> None:
    if game.set_aside:
        raise Conflict(SET_ASIDE)
    if game.status != Game.Status.PLAYING:
        raise Conflict("This game is over.")


def _check_version(game: Game, version: int) -> None:
    if version != game.version:
        raise Conflict(STALE)


def _check_cell(game: Game, cell: int) -> None:
    if game.puzzle.givens[cell] != "0":
        raise GameError(f"{engine.cell_name(cell)} is a given and cannot change.")


def _clock_fields(game: Game, now: datetime.datetime) -> dict:
    """The request noted; the clock's fields too, but only if this request moved them, so
    that a pause saved meanwhile by another request is not overwritten."""
    before = (game.resumed_at, game.active_seconds)
    game.note_request(now)
    fields = {"seen_at": game.seen_at}
    if (game.resumed_at, game.active_seconds) != before:
        fields |= {"resumed_at": game.resumed_at, "active_seconds": game.active_seconds}
    return fields


def _board_fields(
    game: Game, board: Board, complete: list[bool], expected: int, now: datetime.datetime
) -> dict:
    """Put the board on the game, one version on; end the game if it is solved."""
    game.values, game.notes, game.version = board.grid(), board.notes(), expected + 1
    game.complete = _flags(complete)
    game.taken = board.taken
    fields = {
        "values": game.values,
        "notes": game.notes,
        "complete": game.complete,
        "taken": game.taken,
        "version": game.version,
        "updated_at": now,
    }
    if game.values == game.puzzle.solution:
        _finish(game, Game.Status.SOLVED, now)
        fields |= _end_fields(game)
    return fields


def _saved(game: Game, expected: int, fields: dict, where: Q | None = None) -> bool:
    """Save if the game is still running, at the version the player saw, and (when given)
    as `where` says; whether it was saved."""
    running = Game.objects.filter(
        pk=game.pk, version=expected, status=Game.Status.PLAYING, set_aside_at__isnull=True
    )
    if where is not None:
        running = running.filter(where)
    return bool(running.update(**fields))


def _update(game: Game, expected: int, fields: dict, where: Q | None = None) -> Game:
    """Save as _saved does, or refuse: the game changed or ended meanwhile."""
    if not _saved(game, expected, fields, where):
        raise Conflict(STALE)
    _ended(game)
    return game


def _ended(game: Game) -> None:
    """A game just saved as over, by whatever call ended it, needs its receipts no more."""
    if game.status != Game.Status.PLAYING:
        _forget_receipts(game)


def _commit(
    game: Game,
    board: Board,
    complete: list[bool],
    entry: dict | None,
    expected: int,
    extra: dict | None = None,
    where: Q | None = None,
    batch: Batch | None = None,
    **counters: int,
) -> Game:
    """Save a change to the board and log it as the next move, dropping the moves that
    were undone; or, with no entry, save only the clock, counters and extra fields (a hint
    told). In a practice game, a move that makes the practised step finds it. The cells it
    is aimed at are noted as touched by the device that sent it. Within a batch, the
    writes wait for the batch's end (Batch)."""
    now = timezone.now()
    fields = _clock_fields(game, now) | (extra or {})
    if entry is not None:
        fields |= _practice_fields(game, board, entry, now)
    for name, increment in counters.items():
        if increment:
            setattr(game, name, getattr(game, name) + increment)
            fields[name] = F(name) + increment
    if game.marked:
        fields["marked"] = True
    if game.marked or counters.get("hints") or counters.get("reveals"):
        fields |= _helped_fields(game, now)
    if entry is None:
        return batch.hold(fields) if batch else _update(game, expected, fields, where)
    number, undone = game.moves_applied + 1, game.moves_logged > game.moves_applied
    if number > MOVE_LOG_CAP:
        raise Conflict(LOG_FULL.format(cap=f"{MOVE_LOG_CAP:,}"))
    if batch is None:  # a batch draws once for each change it carries (_apply_changes)
        fields |= _pace_fields(game, now)
    fields |= _digit_fields(game, entry["changes"], "after", now)
    game.moves_applied = game.moves_logged = number
    fields |= {"moves_applied": number, "moves_logged": number}
    fields |= _board_fields(game, board, complete, expected, now)
    fields |= _touch_fields(game, entry["kind"], entry["changes"], batch)
    if batch:
        batch.hold(fields, Move(game=game, number=number, created_at=now, **entry), undone)
        MOVES.labels(entry["kind"]).inc()
        return game
    # No savepoint inside a caller's transaction (two round trips fewer): nothing is raised
    # inside the block, so a stale version leaves that transaction whole.
    with transaction.atomic(savepoint=False):
        saved = _saved(game, expected, fields)
        if saved:
            if undone:
                Move.objects.filter(game=game, number__gte=number).delete()
            Move.objects.create(game=game, number=number, created_at=now, **entry)
    if not saved:
        raise Conflict(STALE)
    _ended(game)
    MOVES.labels(entry["kind"]).inc()
    return game


def _pace_fields(game: Game, now: datetime.datetime) -> dict:
    """One change taken from the game's allowance, which refills at MOVE_RATE a second up
    to MOVE_BURST; TooFast when it has less than one. Every change to the board made by a
    call is saved through here (_commit, _step), and every change of a batch, stored or
    refused, draws here once (_apply_changes)."""
    allowance = float(MOVE_BURST)
    if game.move_allowance is not None and game.allowance_at is not None:
        rested = max(0.0, (now - game.allowance_at).total_seconds())
        allowance = min(allowance, game.move_allowance + rested * MOVE_RATE)
    if allowance < 1:
        raise TooFast(TOO_FAST, retry_after=math.ceil((1 - allowance) / MOVE_RATE))
    game.move_allowance, game.allowance_at = allowance - 1, now
    return {"move_allowance": game.move_allowance, "allowance_at": now}


def _digit_fields(game: Game, changes: list[dict], side: str, now: datetime.datetime) -> dict:
    """The digits a change puts on the board (on `side` of its cells' records) taken from
    the game's digit allowance, which refills at DIGIT_RATE a second up to DIGIT_BURST: a
    game whose digits ran past it came faster than a person places them, and is hurried
    from then on (its solve is not ranked)."""
    other = "before" if side == "after" else "after"
    placed = sum(1 for c in changes if c[side][0] and c[side][0] != c[other][0])
    if not placed:
        return {}
    allowance = float(DIGIT_BURST)
    if game.digit_allowance is not None and game.digit_allowance_at is not None:
        rested = max(0.0, (now - game.digit_allowance_at).total_seconds())
        allowance = min(allowance, game.digit_allowance + rested * DIGIT_RATE)
    game.digit_allowance, game.digit_allowance_at = allowance - placed, now
    fields = {"digit_allowance": game.digit_allowance, "digit_allowance_at": now}
    if game.digit_allowance < 0 and not game.hurried:
        game.hurried = True
        fields["hurried"] = True
    return fields


def aimed_cells(kind: str, changes: list[dict]) -> list[int]:
    """The cells a logged move was aimed at: those whose digit it changed, and for notes,
    fills and hints those whose notes it changed too; not the peers whose notes a digit
    placed or erased tidied on its own, nor a digit's record of the notes it took."""
    notes_aimed = kind in (Move.Kind.NOTE, Move.Kind.FILL, Move.Kind.HINT)
    return [
        c["cell"]
        for c in changes
        if c["before"][0] != c["after"][0] or (notes_aimed and c["before"][1:3] != c["after"][1:3])
    ]


def _touch_fields(game: Game, kind: str, changes: list[dict], batch: Batch | None) -> dict:
    """The move's cells noted as touched at the game's new version by the batch's device
    (none for a call that names no device)."""
    device = batch.device if batch else ""
    touched = dict(game.touched)
    for cell in aimed_cells(kind, changes):
        touched[str(cell)] = [game.version, device]
    game.touched = touched
    return {"touched": touched}


def _practice_fields(game: Game, board: Board, entry: dict, now: datetime.datetime) -> dict:
    """A practice game's step found by this move: when, and whether with no help so far."""
    if not game.practice or game.practice_found_at is not None:
        return {}
    if not makes_goal(game.practice_goal, board, entry["changes"], entry["kind"]):
        return {}
    game.practice_found_at = now
    game.practice_unaided = not (game.hints or game.reveals)
    return {"practice_found_at": now, "practice_unaided": game.practice_unaided}


def _helped_fields(game: Game, now: datetime.datetime) -> dict:
    """Help used or the solution seen now: no solve of this puzzle after it is clean. An
    earlier moment, carried from another game of the player's, is kept."""
    if game.helped_at is None:
        game.helped_at = now
    return {"helped_at": Coalesce("helped_at", Value(now))}


def _finish(game: Game, status: str, now: datetime.datetime) -> None:
    game.stop_clock(now)
    game.status = status
    game.finished_at = now
    if status != Game.Status.SOLVED:
        return
    # Ranked: the time the puzzle was in sight, from the start to the solve. A pause hides
    # the board but not the puzzle (another window, a share link, a second account), and a
    # page that sends nothing still shows it: neither may take time off the leaderboard.
    game.ranked_seconds = max(game.active_seconds, (now - game.started_at).total_seconds())
    # Faster than a person could, or digits faster than a person places them: kept in the
    # history, off the leaderboards and bests.
    game.too_fast = game.hurried or game.ranked_seconds < human_floor(game.puzzle)


def _end_fields(game: Game) -> dict:
    return {
        "status": game.status,
        "finished_at": game.finished_at,
        "active_seconds": game.active_seconds,
        "ranked_seconds": game.ranked_seconds,
        "resumed_at": None,
        "too_fast": game.too_fast,
    }


def move(
    game: Game,
    cell: int,
    digit: int,
    mode: str,
    version: int,
    prefs: Preferences,
    batch: Batch | None = None,
) -> Game:
    """A digit in a cell (mode "value", 0 clears) or a note toggled (mode "note", 0 clears
    the cell's notes); `batch` when it is a change of a page's batch."""
    _check_playing(game)
    _check_version(game, version)
    _check_cell(game, cell)
    board, complete = board_of(game), complete_of(game)
    mistakes = 0
    if mode == "value":
        changes = _place(board, complete, cell, digit, prefs)
        if changes and digit and str(digit) != game.puzzle.solution[cell]:
            mistakes = 1
        if changes and digit and prefs.mark_mistakes and not game.marked:
            game.marked = True  # played with mistakes shown: off the leaderboards
    else:
        if board.values[cell]:
            name = engine.place(cell).capitalize()
            raise GameError(f"{name} holds a digit; clear it before writing notes there.")
        # A note taken out of (or put back into) a complete list leaves it complete: the
        # player's elimination. Notes written into any other cell are a memo.
        notes = [] if digit == 0 else sorted(set(board.digits(cell)) ^ {digit})
        changes = [c for c in [_change(board, complete, cell, 0, notes, complete[cell])] if c]
    entry = {"kind": mode, "cell": cell, "digit": digit, "changes": changes} if changes else None
    return _commit(game, board, complete, entry, version, batch=batch, mistakes=mistakes)


def fill_notes(game: Game, version: int, batch: Batch | None = None) -> Game:
    """Fill all notes: every empty cell gets the candidates the placed digits allow, as a
    complete list. One move, which one undo takes back; no help."""
    _check_playing(game)
    _check_version(game, version)
    board, complete = board_of(game), complete_of(game)
    candidates = engine.candidates(board.grid())
    changes = [
        _change(board, complete, cell, 0, candidates[cell], True)
        for cell in range(81)
        if not board.values[cell]
    ]
    changes += _kept_out(board, complete, game.puzzle.givens)
    changes = [c for c in changes if c]
    entry = {"kind": Move.Kind.FILL, "changes": changes} if changes else None
    return _commit(game, board, complete, entry, version, batch=batch)


def _kept_out(board: PlayBoard, complete: list[bool], givens: str) -> list[dict | None]:
    """Each digit of the player's is kept out of the filled notes of the empty cells it
    sees, as if it had taken it: erasing or replacing it puts it back (see _place)."""
    changes = []
    for cell in range(81):
        digit = board.values[cell]
        if not digit or givens[cell] != "0":
            continue
        kept = [p for p in engine.PEERS[cell] if not board.values[p] and complete[p]]
        value, notes, full, taken = _cell(board, complete, cell)
        changes.append(_change(board, complete, cell, value, notes, full, [*taken, *kept]))
    return changes


def _replay(board: PlayBoard, complete: list[bool], changes: list[dict], side: str) -> None:
    for change in changes:
        # Moves logged before completeness have no third item (memos), those logged before
        # notes were taken back no fourth.
        value, notes, *rest = change[side]
        board.set_cell(change["cell"], value, notes)
        complete[change["cell"]] = bool(rest and rest[0])
        board.taken[change["cell"]] = list(rest[1]) if len(rest) > 1 else []


NOTHING_TO_UNDO = "Nothing to undo."
NOTHING_TO_REDO = "Nothing to redo."


def undoable(game: Game, batch: Batch | None = None) -> Move:
    """The move undo takes back: the last on the board."""
    if game.moves_applied == 0:
        raise Conflict(NOTHING_TO_UNDO)
    return _logged(game, game.moves_applied, batch)


def redoable(game: Game, batch: Batch | None = None) -> Move:
    """The move redo puts back: the last taken back."""
    if game.moves_logged == game.moves_applied:
        raise Conflict(NOTHING_TO_REDO)
    return _logged(game, game.moves_applied + 1, batch)


def _logged(game: Game, number: int, batch: Batch | None) -> Move:
    """A move of the log by number, also one a batch holds unsaved."""
    held = batch.moves.get(number) if batch else None
    return held or Move.objects.get(game=game, number=number)


def undo(game: Game, version: int, batch: Batch | None = None, move: Move | None = None) -> Game:
    """Take back the last move (`move`, when the caller already read it)."""
    _check_playing(game)
    _check_version(game, version)
    move = move or undoable(game, batch)
    changes = list(reversed(move.changes))
    return _step(game, version, move.kind, changes, "before", game.moves_applied - 1, batch)


def redo(game: Game, version: int, batch: Batch | None = None, move: Move | None = None) -> Game:
    """Put back the last move taken back (`move`, when the caller already read it)."""
    _check_playing(game)
    _check_version(game, version)
    move = move or redoable(game, batch)
    return _step(game, version, move.kind, move.changes, "after", game.moves_applied + 1, batch)


def _step(
    game: Game,
    version: int,
    kind: str,
    changes: list[dict],
    side: str,
    applied: int,
    batch: Batch | None,
) -> Game:
    board, complete = board_of(game), complete_of(game)
    _replay(board, complete, changes, side)
    game.moves_applied = applied
    now = timezone.now()
    fields = _clock_fields(game, now) | {"moves_applied": applied}
    if batch is None:  # a batch draws once for each change it carries (_apply_changes)
        fields |= _pace_fields(game, now)
    fields |= _digit_fields(game, changes, side, now)
    fields |= _board_fields(game, board, complete, version, now)
    fields |= _touch_fields(game, kind, changes, batch)
    return batch.hold(fields) if batch else _update(game, version, fields)


# Batches of changes from a page's queue ----------------------------------------------

OTHER_DEVICE = "{place} was changed on another device meanwhile, so this change to it was not kept."
UNDONE_ELSEWHERE = (
    "The last move was made on another device meanwhile, so this undo or redo was not kept."
)
OVER_MEANWHILE = "The game was over before this change arrived, so it was not kept."


class Batch:
    """The writes of a page's batch, held while its changes are carried out one by one on
    the game in memory (its row locked), then made at its end: one UPDATE of the game and
    one INSERT of its new moves, whatever the number of changes."""

    def __init__(self, game: Game, device: str) -> None:
        self.game, self.device, self.version = game, device, game.version
        self.fields: dict = {}
        self.moves: dict[int, Move] = {}  # new moves by number, not yet saved
        self.drop_from: int | None = None  # saved moves from this number on were undone

    def hold(self, fields: dict, move: Move | None = None, undone: bool = False) -> Game:
        """A change's writes: the game's fields (a later change's win), and its move, which
        drops the moves undone before it, held or saved."""
        self.fields |= fields
        if move is not None:
            if undone:
                self.moves = {n: m for n, m in self.moves.items() if n < move.number}
                self.drop_from = min(self.drop_from or move.number, move.number)
            self.moves[move.number] = move
        return self.game

    def write(self) -> None:
        """Make the writes held. Counters and help were worked out on the game in memory,
        read locked: their values stand for the expressions a single call would send."""
        game = self.game
        if self.drop_from is not None:
            Move.objects.filter(game=game, number__gte=self.drop_from).delete()
        rows.insert(self.moves.values())
        fields = {
            name: getattr(game, name) if hasattr(value, "resolve_expression") else value
            for name, value in self.fields.items()
        }
        if fields and not rows.update_running(game, self.version, fields):
            raise Conflict(STALE)


def apply_changes(
    game: Game, device: str, changes: list[dict], prefs: Preferences, *, locked: bool = False
) -> tuple[Game, list[str], list[dict]]:
    """Store a page's queued changes, in order, each at most once (by its client id), in one
    transaction with the game's row locked. A change aimed at a cell that another device
    changed after the version the page drew it on (its base) is refused in words; any other
    goes in on the board as it now stands. The changes are already read and checked (see
    api.changes). Returns the game, the ids stored (now or before) and those refused.

    With locked, the caller read the game locked, in the transaction it has open (as
    api.changes does): the game is not read again."""
    if locked:
        return _apply_changes(game, device, changes, prefs, locked=True)
    for attempt in range(3):
        try:
            return _apply_changes(game, device, changes, prefs)
        except (Conflict, IntegrityError) as error:
            # Only where the database has no row locks (SQLite) can another request write
            # between the read and the save, or store the same batch first: read again.
            if isinstance(error, Conflict) and str(error) != STALE:
                raise
            if attempt == 2:
                raise Conflict(STALE) from error
            game.refresh_from_db()
    raise AssertionError("unreachable")


def _apply_changes(
    game: Game, device: str, changes: list[dict], prefs: Preferences, locked: bool = False
) -> tuple[Game, list[str], list[dict]]:
    _check_playing(game)
    # Within the caller's transaction, no savepoint: a failure fails the whole batch anyway.
    with transaction.atomic(savepoint=not locked):
        if not locked:
            game = _locked(game)
            _check_playing(game)
        ids = [change["id"] for change in changes]
        known = rows.receipts(game, ids)
        applied, refused, receipts = [], [], []
        batch = Batch(game, device)
        for change in changes:
            receipt = known.get(change["id"])
            if receipt is None:
                # Stored or refused, each change takes its share of the game's pace.
                batch.hold(_pace_fields(game, timezone.now()))
                reason = _apply_change(game, batch, change, prefs)
                receipt = ChangeReceipt(
                    game=game,
                    client_id=change["id"],
                    device=device,
                    kind=change["kind"],
                    version=None if reason else game.version,
                    refused=reason or "",
                )
                receipts.append(receipt)
            if receipt.refused:
                cell = change.get("cell")
                refused.append({"id": change["id"], "cell": cell, "reason": receipt.refused})
            else:
                applied.append(change["id"])
        if game.status == Game.Status.PLAYING and receipts:
            batch.hold(_receipt_fields(game, len(receipts)))
        batch.write()
        if game.status == Game.Status.PLAYING:
            rows.insert(receipts)
        else:
            _forget_receipts(game)
    return game, applied, refused


def _receipt_fields(game: Game, new: int) -> dict:
    """Room for a batch's new receipts: past RECEIPT_CAP, the oldest of the game's are
    deleted so that RECEIPT_KEEP remain with the new ones."""
    kept = game.receipts_kept + new
    if kept > RECEIPT_CAP:
        older = ChangeReceipt.objects.filter(game=game).order_by("-pk")
        cutoff = older.values_list("pk", flat=True)[RECEIPT_KEEP - new : RECEIPT_KEEP - new + 1]
        ChangeReceipt.objects.filter(game=game, pk__lte=Subquery(cutoff)).delete()
        kept = RECEIPT_KEEP
    game.receipts_kept = kept
    return {"receipts_kept": kept}


def _forget_receipts(game: Game) -> None:
    """A game over needs its receipts no more: a batch sent to it again is answered 409
    with its state before any id is looked up."""
    ChangeReceipt.objects.filter(game=game).delete()


def _locked(game: Game) -> Game:
    """The game's row, read again and locked until the transaction ends."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    locked.puzzle, locked.daily = game.puzzle, game.daily
    return locked


def _apply_change(game: Game, batch: Batch, change: dict, prefs: Preferences) -> str | None:
    """Carry one change out; the reason it was refused, or None once it is stored."""
    if game.status != Game.Status.PLAYING:
        return OVER_MEANWHILE
    kind, base, device = change["kind"], change["base"], batch.device
    # A change refused part-way may have counted something on the game in memory (a
    # mistake, a mark) before it was refused: it leaves the game as it found it.
    before = dict(game.__dict__)
    try:
        if kind == "move":
            if _changed_elsewhere(game, [change["cell"]], base, device):
                return OTHER_DEVICE.format(place=engine.place(change["cell"]).capitalize())
            move(game, change["cell"], change["digit"], change["mode"], game.version, prefs, batch)
        elif kind in ("undo", "redo"):
            logged = undoable(game, batch) if kind == "undo" else redoable(game, batch)
            if _changed_elsewhere(game, aimed_cells(logged.kind, logged.changes), base, device):
                return UNDONE_ELSEWHERE
            (undo if kind == "undo" else redo)(game, game.version, batch, logged)
        else:
            fill_notes(game, game.version, batch)
    except GameError as error:
        if str(error) == STALE or error.status not in (400, 409):
            raise  # the game changed under the lock, or a limit: the whole batch fails
        game.__dict__.update(before)
        return str(error)
    return None


def _changed_elsewhere(game: Game, cells: list[int], base: int, device: str) -> bool:
    """Whether another device changed any of the cells after version `base`."""
    for cell in cells:
        version, by = game.touched.get(str(cell), (0, device))
        if version > base and by != device:
            return True
    return False


# Help ---------------------------------------------------------------------------------


NO_HINT = (
    "There is no full hint on this board to apply: open the hint's last level first "
    "(the board may have changed since)."
)


def _next_step(game: Game, board: Board, complete: list[bool], prefs: Preferences) -> engine.Step:
    """The next step on the player's own board: the candidates the placed digits allow,
    narrowed by the notes of complete cells only."""
    step = engine.next_step(
        board.grid(),
        board.notes(),
        puzzle=game.puzzle.givens,
        complete=complete,
        compact=prefs.compact_places,
    )
    if step is None:
        raise Conflict("The board is complete.")
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
    _check_playing(game)
    _check_version(game, version)
    board, complete = board_of(game), complete_of(game)
    step = _next_step(game, board, complete, prefs)
    does = _what_it_does(step)
    key = _key(version, does)
    try:
        _tell_hint(game, board, complete, key, level, version, does)
    except Conflict:
        # Another request saved a hint since this one read the game: the same one, opened
        # in another tab, is not counted again; anything else gets the usual answer.
        game.refresh_from_db()
        _check_playing(game)
        _check_version(game, version)
        _tell_hint(game, board, complete, key, level, version, does)
    return game, engine.tell(step, level)


def _tell_hint(
    game: Game,
    board: Board,
    complete: list[bool],
    key: str,
    level: int,
    version: int,
    does: dict,
) -> None:
    """Record a hint told, counted unless it is the one last told; saved only if the hint
    last told is still the one this request read."""
    seen = game.hint.get("key")
    same = seen == key
    reached = max(level, game.hint.get("level", 0)) if same else level
    game.hint = {"key": key, "version": version, "level": reached, "step": does}
    game.hint_level_max = max(game.hint_level_max, level)
    extra = {"hint": game.hint, "hint_level_max": Greatest("hint_level_max", Value(level))}
    where = Q(hint__key=seen) if seen is not None else ~Q(hint__has_key="key")
    _commit(game, board, complete, None, version, extra, where, hints=0 if same else 1)


def apply_hint(game: Game, version: int, prefs: Preferences) -> tuple[Game, int | None]:
    """Carry out the step of the hint last opened at level 3 on this version of the board,
    as one move that one undo takes back. Counts nothing more: the hint was counted. Also
    returns the cell the step is about."""
    _check_playing(game)
    _check_version(game, version)
    told = game.hint
    if not told or told.get("version") != version or told.get("level", 0) < 3:
        raise Conflict(NO_HINT)
    does = told["step"]
    board, complete = board_of(game), complete_of(game)
    changes = _apply_step(board, complete, does, game, prefs)
    entry = {"kind": Move.Kind.HINT, "technique": does["technique"][:40], "changes": changes}
    _commit(game, board, complete, entry if changes else None, version)
    cells = [
        *(c for c, _ in does["placements"]),
        *(c for c, _ in does["eliminations"]),
        *does["clears"],
        *(c for c, _ in does["restores"]),
    ]
    return game, (cells[0] if cells else None)


def _apply_step(
    board: Board, complete: list[bool], does: dict, game: Game, prefs: Preferences
) -> list[dict]:
    """Carry a step out on the player's board: wrong digits taken out (never a given),
    lost candidates put back, digits placed, candidates eliminated. A cell whose notes were
    a memo gets its candidates as a complete list less the ones eliminated, so that the
    next hint builds on this one; a memo's note that cannot be right only leaves the memo."""
    changes: list[dict | None] = []
    givens = game.puzzle.givens
    for cell in does["clears"]:
        if givens[cell] == "0" and board.values[cell]:
            changes += _place(board, complete, cell, 0, prefs)
    for cell, digit in does["restores"]:
        notes = [*board.digits(cell), digit]
        changes.append(_change(board, complete, cell, 0, notes, True))
    for cell, digit in does["placements"]:
        changes += _place(board, complete, cell, digit, prefs)
    for cell, digit in does["eliminations"]:
        # A memo's note that cannot be right leaves the memo, which stays a memo.
        memo = not complete[cell] and digit not in board.allowed(cell)
        notes = board.digits(cell) if complete[cell] or memo else board.allowed(cell)
        kept = [d for d in notes if d != digit]
        changes.append(_change(board, complete, cell, 0, kept, not memo))
    return [c for c in changes if c]


def reveal(game: Game, cell: int, version: int, prefs: Preferences) -> Game:
    """Fill a cell with its solution digit; counted as assisted, like a level-3 hint."""
    _check_playing(game)
    _check_version(game, version)
    _check_cell(game, cell)
    board, complete = board_of(game), complete_of(game)
    digit = int(game.puzzle.solution[cell])
    changes = _place(board, complete, cell, digit, prefs) if board.values[cell] != digit else []
    # A reveal of a digit already right changes nothing but still tells the player the
    # digit is right, so it counts all the same.
    entry = {"kind": "reveal", "cell": cell, "digit": digit, "changes": changes}
    return _commit(game, board, complete, entry if changes else None, version, reveals=1)


def check(game: Game) -> list[int]:
    """Where did I go wrong: the first digit on the board that is not the solution's.
    Counted as a hint."""
    _check_playing(game)
    _commit(game, board_of(game), complete_of(game), None, game.version, hints=1)
    return _wrong_cells(game)[:1]


# The clock and the end ----------------------------------------------------------------


def pause(game: Game) -> Game:
    """Stop the clock."""
    _check_playing(game)
    now = timezone.now()
    game.stop_clock(now)
    game.seen_at = now
    _save_clock(game, active_seconds=game.active_seconds, resumed_at=None, seen_at=now)
    return game


def pause_all(player: Player) -> int:
    """Stop the clock of every game the player has running (logging out ends the play)."""
    now, stopped = timezone.now(), 0
    running = player.all_games().filter(status=Game.Status.PLAYING, resumed_at__isnull=False)
    for game in running:
        running = Game.objects.filter(
            pk=game.pk, status=Game.Status.PLAYING, resumed_at=game.resumed_at
        )
        stopped += running.update(active_seconds=game.elapsed(now), resumed_at=None)
    return stopped


@receiver(user_logged_out)
def _pause_on_logout(sender, request, user, **kwargs) -> None:
    """The page's own pause would come after the session ended, and be refused: stop the
    clocks of the player's games (and of the session's guest games, if any) here."""
    if user is not None:
        pause_all(Player(user=user))
    guest_id = None if request is None else request.session.get(GUEST_KEY)
    if guest_id:
        pause_all(Player(guest_id=guest_id))


def resume(game: Game) -> Game:
    """Start the clock again (the page also calls this each minute the player is active)."""
    _check_playing(game)
    _save_clock(game, **_clock_fields(game, timezone.now()))
    return game


def give_up(game: Game) -> Game:
    """End the game unsolved; the solution is shown from now on."""
    _check_playing(game)
    now = timezone.now()
    game.note_request(now)
    _finish(game, Game.Status.GAVE_UP, now)
    fields = _end_fields(game) | _helped_fields(game, now)
    _save_clock(game, **fields, seen_at=now, updated_at=now)
    _forget_receipts(game)
    return game


def _save_clock(game: Game, **fields: object) -> None:
    """Save fields that are not the board, while the game still runs."""
    running = Game.objects.filter(pk=game.pk, status=Game.Status.PLAYING, set_aside_at__isnull=True)
    if not running.update(**fields):
        raise Conflict("This game is over.")


def solution_path(game: Game) -> list[dict]:
    """After the game: the engine's logical solve of the original puzzle, step by step,
    each with the board as it stood before the step. Kept in the cache a day: grading a
    hard puzzle is work a client should not be able to ask for again and again."""
    if game.status == Game.Status.PLAYING:
        raise Conflict("The solving path is shown once the game is over.")
    key = f"solution-path:2:{game.puzzle_id}"  # 2: each step carries its name
    try:
        path = cache.get(key)
    except Exception:  # the cache is down: work it out every time
        path = None
    if path is None:
        path = [
            entry.as_dict() | {"name": entry_for(entry.step).label}
            for entry in engine.solution_path(game.puzzle.givens)
        ]
        with contextlib.suppress(Exception):
            cache.set(key, path, 24 * 3600)
    return path


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
        raise Conflict("The replay is shown once the game is over.")
    total = game.moves_applied + 1
    end = total if count is None else min(total, start + count)
    if start >= end:
        return [], total
    keys = _keyframes(game)
    # The keyframe before the page's first move: frame `start` needs that move's own row.
    first = 0 if start == 0 else KEYFRAME_EVERY * ((start - 1) // KEYFRAME_EVERY)
    values, notes = keys[first // KEYFRAME_EVERY]
    board = PlayBoard.from_notes(values, notes)
    board.taken = [[] for _ in range(81)]
    complete = [False] * 81
    frames = [_frame(board, None)] if start == 0 else []
    moves = Move.objects.filter(game=game, number__gt=first, number__lt=end).order_by("number")
    for logged in moves:
        _replay(board, complete, logged.changes, "after")
        if logged.number >= start:
            frames.append(_frame(board, logged))
    return frames, total


def _keyframes(game: Game) -> list[tuple[str, list[list[int]]]]:
    """The board (values, notes) at frames 0, KEYFRAME_EVERY, 2 * KEYFRAME_EVERY ... of a
    game over, which never changes again: worked out once and kept a day."""
    finished = game.finished_at.isoformat() if game.finished_at else ""
    key = f"replay-keys:{game.pk}:{game.version}:{finished}"
    try:
        keys = cache.get(key)
    except Exception:  # the cache is down: work them out every time
        keys = None
    if keys is None:
        keys = _work_out_keyframes(game)
        with contextlib.suppress(Exception):
            cache.set(key, keys, 24 * 3600)
    return keys


def _work_out_keyframes(game: Game) -> list[tuple[str, list[list[int]]]]:
    logged = Move.objects.filter(game=game, number__lte=game.moves_applied).order_by("number")
    changes = list(logged.values_list("changes", flat=True))
    board, complete = board_of(game), complete_of(game)
    for each in reversed(changes):
        _replay(board, complete, list(reversed(each)), "before")
    keys = [(board.grid(), board.notes())]
    for number, each in enumerate(changes, 1):
        _replay(board, complete, each, "after")
        if number % KEYFRAME_EVERY == 0:
            keys.append((board.grid(), board.notes()))
    return keys


def _frame(board: Board, logged: Move | None) -> dict:
    return {
        "values": board.grid(),
        "notes": board.notes(),
        "kind": logged.kind if logged else None,
        "cell": logged.cell if logged else None,
        "digit": logged.digit if logged else None,
        "technique": label_of(logged.technique) if logged and logged.technique else "",
    }
