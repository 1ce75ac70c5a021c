"""Changes to a game, and the one way every write of a game is made.

A request reads the player's game locked (puzzles/sql.py `read_game`), carries its
changes out on the game in memory, and ends with one `Write.save()`: one UPDATE of the
game while it runs (at the version it read, where the request depends on the board), one
INSERT of the moves it logged, and for a page's batch one INSERT of its receipts. A single
move is a write of one change; a page's batch (`apply_changes`) is a write of many, each
stored at most once by its client id and merged cell by cell with other devices' changes.

Every change to the board is one Move row: the cells it touched, each before and after
(puzzles/play/board.py), so undo and redo are exact. Each change bumps the game's version,
and a call that names the version it saw is refused (409) when the game moved on: a stale
tab never loses a move.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from prometheus_client import Counter

import engine

from .. import sql
from ..learn.practice import makes_goal
from ..models import ChangeReceipt, Game, Move, Preferences
from . import pace
from .board import PlayBoard, aimed_cells
from .errors import OVER, SET_ASIDE, STALE, Conflict, GameError

# Counted here, scraped at /metrics (puzzles/site/metrics.py): moves stored, by kind.
MOVES = Counter("sudoku_moves", "Moves stored (digits, notes, hints, reveals), by kind.", ["kind"])

# A game's move log holds at most this many moves: a human game needs a few hundred (a
# digit and a few notes per cell), so only a script reaches it. Undo still works past it.
MOVE_LOG_CAP = 5000
LOG_FULL = _(
    "This game has %(cap)s moves, as many as a game can hold: undo some to make room, or "
    "start a new game."
)
# A game's receipts of a page's changes (ChangeReceipt): a page sends again only what it
# has no answer for, at most a batch or two, so past RECEIPT_CAP the oldest go, down to
# RECEIPT_KEEP, and no game's receipts grow without end.
RECEIPT_CAP = MOVE_LOG_CAP
RECEIPT_KEEP = 1000

NOTHING_TO_UNDO = _("Nothing to undo.")
NOTHING_TO_REDO = _("Nothing to redo.")
OTHER_DEVICE = _(
    # Translators: %(place)s is a cell, "Row 2, column 5" or "R2c5".
    "%(place)s was changed on another device meanwhile, so this change to it was not kept."
)
UNDONE_ELSEWHERE = _(
    "The last move was made on another device meanwhile, so this undo or redo was not kept."
)
OVER_MEANWHILE = _("The game was over before this change arrived, so it was not kept.")


class Write:
    """The writes of one request to a game read locked: its fields, held while the
    request's changes are carried out one by one on the game in memory, then made at the
    end (`save`), whatever the number of changes."""

    def __init__(self, game: Game, device: str = "", *, versioned: bool = True) -> None:
        # versioned: the request depends on the board it read (a change, a hint); the
        # clock and giving up do not.
        self.game, self.device, self.version = game, device, game.version
        self.versioned = versioned
        self.batch = False  # a page's batch: each change draws on the pace as it comes
        # When the change being carried out was made, by the server's clock (a batch's, from
        # the device's stamps; see _moments); None: now.
        self.moment: datetime.datetime | None = None
        self.fields: dict = {}
        self.same: dict = {}  # fields that must still hold the value read (a hint told)
        self.moves: dict[int, Move] = {}  # new moves by number, not yet saved
        self.drop_from: int | None = None  # saved moves from this number on were undone
        self.receipts: list[ChangeReceipt] = []

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

    def save(self) -> Game:
        """Make the writes held: refused whole (409) when the game ended, was set aside or
        (for a versioned write) moved on since it was read. The UPDATE goes first: nothing
        else is written when it finds no such game."""
        game = self.game
        version = self.version if self.versioned else None
        trimmed = False
        if game.status == Game.Status.PLAYING and self.receipts:
            trimmed = _count_receipts(game, len(self.receipts))
            self.fields["receipts_kept"] = game.receipts_kept
        # Within the caller's transaction (the game's row is locked in it) or one of its own;
        # no savepoint, and nothing raised inside: a refusal leaves that transaction whole.
        with transaction.atomic(savepoint=False):
            saved = not self.fields or sql.update_running(
                game, self.fields, version=version, same=self.same
            )
            if saved:
                self._rows(trimmed)
        if not saved:
            raise Conflict(STALE if self.versioned else OVER)
        for move in self.moves.values():
            MOVES.labels(move.kind).inc()
        return game

    def _rows(self, trimmed: bool) -> None:
        """The moves and receipts of a write whose UPDATE was made."""
        game = self.game
        if self.drop_from is not None:
            Move.objects.filter(game=game, number__gte=self.drop_from).delete()
        sql.insert(self.moves.values())
        if game.status != Game.Status.PLAYING:
            # Over: a batch sent again is answered 409 before any id is looked up.
            forget_receipts(game)
            return
        if trimmed:
            keep = RECEIPT_KEEP - len(self.receipts)
            newest = ChangeReceipt.objects.filter(game=game).order_by("-pk")
            cutoff = newest.values_list("pk", flat=True)[keep : keep + 1].first()
            ChangeReceipt.objects.filter(game=game, pk__lte=cutoff or 0).delete()
        sql.insert(self.receipts)


def forget_receipts(game: Game) -> None:
    """A game over needs its receipts no more."""
    ChangeReceipt.objects.filter(game=game).delete()


def _count_receipts(game: Game, new: int) -> bool:
    """Room for a batch's new receipts: past RECEIPT_CAP, the oldest of the game's go (as
    the write is made) so that RECEIPT_KEEP remain with the new ones. Whether they go."""
    game.receipts_kept += new
    if game.receipts_kept <= RECEIPT_CAP:
        return False
    game.receipts_kept = RECEIPT_KEEP
    return True


# Checks ------------------------------------------------------------------------------------


def check_playing(game: Game) -> None:
    if game.set_aside:
        raise Conflict(SET_ASIDE)
    if game.status != Game.Status.PLAYING:
        raise Conflict(OVER)


def check_version(game: Game, version: int) -> None:
    if version != game.version:
        raise Conflict(STALE)


def check_cell(game: Game, cell: int) -> None:
    if game.puzzle.givens[cell] != "0":
        raise GameError(f"{engine.cell_name(cell)} is a given and cannot change.")


def _check_room(game: Game) -> None:
    """A move to log needs room in the log: checked before anything of the game in memory
    changes, so that a change refused leaves the game as it found it."""
    if game.moves_applied + 1 > MOVE_LOG_CAP:
        raise Conflict(LOG_FULL % {"cap": f"{MOVE_LOG_CAP:,}"})


# What a change writes ----------------------------------------------------------------------


def clock_fields(game: Game, now: datetime.datetime) -> dict:
    """The request noted; the clock's fields too, but only if this request moved them."""
    before = (game.resumed_at, game.active_seconds)
    game.resume(now)
    fields = {"seen_at": game.seen_at}
    if (game.resumed_at, game.active_seconds) != before:
        fields |= {"resumed_at": game.resumed_at, "active_seconds": game.active_seconds}
    return fields


def helped_fields(game: Game, now: datetime.datetime) -> dict:
    """Help used or the solution seen now: no solve of this puzzle after it is clean. An
    earlier moment, carried from another game of the player's, is kept."""
    if game.helped_at is None:
        game.helped_at = now
    return {"helped_at": game.helped_at}


def end_fields(game: Game) -> dict:
    return {
        "status": game.status,
        "finished_at": game.finished_at,
        "active_seconds": game.active_seconds,
        "ranked_seconds": game.ranked_seconds,
        "resumed_at": None,
        "too_fast": game.too_fast,
    }


def _board_fields(game: Game, board: PlayBoard, now: datetime.datetime) -> dict:
    """Put the board on the game, one version on; end the game if it is solved."""
    saved = board.saved()
    for name, value in saved.items():
        setattr(game, name, value)
    game.version += 1
    fields = saved | {"version": game.version, "updated_at": now}
    if game.values == game.puzzle.solution:
        game.finish(Game.Status.SOLVED, now)
        fields |= end_fields(game)
    return fields


def _touch_fields(game: Game, kind: str, changes: list[dict], device: str) -> dict:
    """The move's cells noted as touched at the game's new version by the device that
    sent it ("" for a call that names none)."""
    touched = dict(game.touched)
    for cell in aimed_cells(kind, changes):
        touched[str(cell)] = [game.version, device]
    game.touched = touched
    return {"touched": touched}


def _practice_fields(game: Game, board: PlayBoard, entry: dict, now: datetime.datetime) -> dict:
    """A practice game's step found by this move: when, and whether with no help so far."""
    if not game.practice or game.practice_found_at is not None:
        return {}
    if not makes_goal(game.practice_goal, board, entry["changes"], entry["kind"]):
        return {}
    game.practice_found_at = now
    game.practice_unaided = not (game.hints or game.reveals)
    return {"practice_found_at": now, "practice_unaided": game.practice_unaided}


def commit(
    write: Write, board: PlayBoard, entry: dict | None, extra: dict | None = None, **counters: int
) -> Game:
    """Hold a change to the board, logged as the next move (dropping the moves that were
    undone), or, with no entry, only the clock, counters and extra fields (a hint told).
    In a practice game, a move that makes the practised step finds it."""
    game, now = write.game, timezone.now()
    if entry is not None:
        _check_room(game)
    fields = clock_fields(game, now) | (extra or {})
    if entry is not None:
        fields |= _practice_fields(game, board, entry, now)
    for name, increment in counters.items():
        if increment:
            setattr(game, name, getattr(game, name) + increment)
            fields[name] = getattr(game, name)
    if game.marked:
        fields["marked"] = True
    if game.marked or counters.get("hints") or counters.get("reveals"):
        fields |= helped_fields(game, now)
    if entry is None:
        return write.hold(fields)
    number, undone = game.moves_applied + 1, game.moves_logged > game.moves_applied
    if not write.batch:  # a batch draws once for each change it carries (apply_changes)
        fields |= pace.changes_fields(game, now)
    fields |= pace.digit_fields(game, entry["changes"], "after", write.moment or now)
    game.moves_applied = game.moves_logged = number
    fields |= {"moves_applied": number, "moves_logged": number}
    fields |= _board_fields(game, board, now)
    fields |= _touch_fields(game, entry["kind"], entry["changes"], write.device)
    return write.hold(fields, Move(game=game, number=number, created_at=now, **entry), undone)


def _step(write: Write, kind: str, changes: list[dict], side: str, applied: int) -> Game:
    """Undo (`side` "before") or redo ("after") a logged move's changes."""
    game, now = write.game, timezone.now()
    board = PlayBoard.of(game)
    board.walk(changes, side)
    game.moves_applied = applied
    fields = clock_fields(game, now) | {"moves_applied": applied}
    if not write.batch:
        fields |= pace.changes_fields(game, now)
    fields |= pace.digit_fields(game, changes, side, write.moment or now)
    fields |= _board_fields(game, board, now)
    fields |= _touch_fields(game, kind, changes, write.device)
    return write.hold(fields)


# The changes a page makes ------------------------------------------------------------------


def _written(write: Write | None, game: Game) -> tuple[Write, bool]:
    """The request's write: the batch's, or one of its own, to be saved by the caller."""
    return (write, False) if write is not None else (Write(game), True)


def move(
    game: Game,
    cell: int | list[int],
    digit: int,
    mode: str,
    version: int,
    prefs: Preferences,
    write: Write | None = None,
) -> Game:
    """A digit in a cell (mode "value", 0 clears) or a note toggled (mode "note", 0 clears
    the cell's notes), or either on a list of cells as one move (PlayBoard.put_many,
    toggle_notes); `write` when it is a change of a page's batch."""
    check_playing(game)
    check_version(game, version)
    cells = cell if isinstance(cell, list) else [cell]
    for each in cells:
        check_cell(game, each)
    write, own = _written(write, game)
    board = PlayBoard.of(game)
    mistakes = 0
    if mode == "value":
        changes = board.put_many(cells, digit, prefs)
    else:
        changes = board.toggle_notes(cells, digit)
    entry = None
    if changes:
        _check_room(game)
        entry = {"kind": mode, "cell": cells[0], "digit": digit, "changes": changes}
    if mode == "value" and changes and digit:
        solution = game.puzzle.solution
        placed = {c["cell"] for c in changes if c["after"][0] == digit != c["before"][0]}
        mistakes = sum(str(digit) != solution[c] for c in placed if c in cells)
        if prefs.mark_mistakes and not game.marked:
            game.marked = True  # played with mistakes shown: off the leaderboards
    commit(write, board, entry, mistakes=mistakes)
    return write.save() if own else game


def fill_notes(game: Game, version: int, write: Write | None = None) -> Game:
    """Fill all notes: every empty cell gets the candidates the placed digits allow, as a
    complete list. One move, which one undo takes back; no help."""
    check_playing(game)
    check_version(game, version)
    write, own = _written(write, game)
    board = PlayBoard.of(game)
    changes = board.fill_notes(game.puzzle.givens)
    entry = {"kind": Move.Kind.FILL, "changes": changes} if changes else None
    commit(write, board, entry)
    return write.save() if own else game


def mark(
    game: Game,
    cells: list[int],
    layer: str,
    digit: int,
    colour: int,
    version: int,
    write: Write | None = None,
) -> Game:
    """A mark change on cells, one move (PlayBoard.mark): corner or centre marks, a cell's
    colour or a candidate's. Marks are the player's own, like notes: no help, no digit."""
    check_playing(game)
    check_version(game, version)
    write, own = _written(write, game)
    board = PlayBoard.of(game)
    changes = board.mark(cells, layer, digit, colour)
    entry = None
    if changes:
        entry = {"kind": Move.Kind.MARK, "cell": cells[0], "digit": digit, "changes": changes}
    commit(write, board, entry)
    return write.save() if own else game


def undoable(game: Game, write: Write | None = None) -> Move:
    """The move undo takes back: the last on the board."""
    if game.moves_applied == 0:
        raise Conflict(NOTHING_TO_UNDO)
    return _logged(game, game.moves_applied, write)


def redoable(game: Game, write: Write | None = None) -> Move:
    """The move redo puts back: the last taken back."""
    if game.moves_logged == game.moves_applied:
        raise Conflict(NOTHING_TO_REDO)
    return _logged(game, game.moves_applied + 1, write)


def _logged(game: Game, number: int, write: Write | None) -> Move:
    """A move of the log by number, also one a write holds unsaved."""
    held = write.moves.get(number) if write else None
    return held or Move.objects.get(game=game, number=number)


def undo(game: Game, version: int, write: Write | None = None, logged: Move | None = None) -> Game:
    """Take back the last move (`logged`, when the caller already read it)."""
    check_playing(game)
    check_version(game, version)
    logged = logged or undoable(game, write)
    write, own = _written(write, game)
    changes = list(reversed(logged.changes))
    _step(write, logged.kind, changes, "before", game.moves_applied - 1)
    return write.save() if own else game


def redo(game: Game, version: int, write: Write | None = None, logged: Move | None = None) -> Game:
    """Put back the last move taken back (`logged`, when the caller already read it)."""
    check_playing(game)
    check_version(game, version)
    logged = logged or redoable(game, write)
    write, own = _written(write, game)
    _step(write, logged.kind, logged.changes, "after", game.moves_applied + 1)
    return write.save() if own else game


# A page's batch ----------------------------------------------------------------------------


def apply_changes(
    game: Game, device: str, changes: list[dict], prefs: Preferences
) -> tuple[Game, list[str], list[dict]]:
    """Store a page's queued changes, in order, each at most once (by its client id), the
    game read locked by the caller in the transaction it has open. A change aimed at a cell
    that another device changed after the version the page drew it on (its base) is
    refused in words; any other goes in on the board as it now stands. The changes are
    already read and checked (see api.changes). Returns the game, the ids stored (now or
    before) and those refused."""
    check_playing(game)
    known = sql.receipts(game, [change["id"] for change in changes])
    write = Write(game, device)
    write.batch = True
    applied, refused = [], []
    moments = pace.moments(game, changes, timezone.now())
    for change, moment in zip(changes, moments, strict=True):
        write.moment = moment
        receipt = known.get(change["id"])
        if receipt is None:
            # Stored or refused, each change takes its share of the game's pace.
            write.hold(pace.changes_fields(game, timezone.now()))
            reason = _apply_change(game, write, change, prefs)
            receipt = ChangeReceipt(
                game=game,
                client_id=change["id"],
                device=device,
                kind=change["kind"],
                version=None if reason else game.version,
                refused=reason or "",
            )
            write.receipts.append(receipt)
        if receipt.refused:
            cell = change.get("cell")
            refused.append({"id": change["id"], "cell": cell, "reason": receipt.refused})
        else:
            applied.append(change["id"])
    write.save()
    return game, applied, refused


def _apply_change(game: Game, write: Write, change: dict, prefs: Preferences) -> str | None:
    """Carry one change out; the reason it was refused, or None once it is held. Whatever
    refuses a change does so before anything of the game in memory changes."""
    if game.status != Game.Status.PLAYING:
        return str(OVER_MEANWHILE)
    kind, base, device = change["kind"], change["base"], write.device
    try:
        if kind == "move":
            if _changed_elsewhere(game, change["cells"], base, device):
                return OTHER_DEVICE % {"place": engine.place(change["cell"]).capitalize()}
            move(game, change["cells"], change["digit"], change["mode"], game.version, prefs, write)
        elif kind == "mark":
            if _changed_elsewhere(game, change["cells"], base, device):
                return OTHER_DEVICE % {"place": engine.place(change["cell"]).capitalize()}
            cells, layer = change["cells"], change["layer"]
            mark(game, cells, layer, change["digit"], change["colour"], game.version, write)
        elif kind in ("undo", "redo"):
            logged = undoable(game, write) if kind == "undo" else redoable(game, write)
            if _changed_elsewhere(game, aimed_cells(logged.kind, logged.changes), base, device):
                return str(UNDONE_ELSEWHERE)
            (undo if kind == "undo" else redo)(game, game.version, write, logged)
        else:
            fill_notes(game, game.version, write)
    except GameError as error:
        if str(error) == STALE or error.status not in (400, 409):
            raise  # the game changed under the lock, or a limit: the whole batch fails
        return str(error)
    return None


def _changed_elsewhere(game: Game, cells: list[int], base: int, device: str) -> bool:
    """Whether another device changed any of the cells after version `base`."""
    for cell in cells:
        version, by = game.touched.get(str(cell), (0, device))
        if version > base and by != device:
            return True
    return False
