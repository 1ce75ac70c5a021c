"""The board rules of play, the server's twin of the page's static/js/game/board.js: what a
digit, a note, fill-all-notes, undo and redo and an applied hint do to a player's board.
No database here: a board is read from a game and its changes are written by changes.py.

The board is the game's values (81 characters, givens included), notes (81 lists of
digits), which cells' notes are complete candidate lists, and per cell with a digit the
peers whose notes auto-remove took that digit from (`taken`): erasing or replacing the
digit puts those notes back. A cell's notes are complete once "fill all notes" (or
auto-notes) wrote them, and stay so while the player takes digits out; notes typed into
any other cell are a memo, which hints leave alone. Every change is recorded cell by cell
(its value, notes, completeness and taken, before and after), so undo and redo are exact
and walking the log from the puzzle gives the board.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

import engine
from engine import Board

from ..models import NONE_COMPLETE, Game, Preferences
from .errors import GameError

# Translators: %(place)s is a cell, "Row 2, column 5" or "R2c5".
NOTES_ON_DIGIT = _("%(place)s holds a digit; clear it before writing notes there.")
# Translators: %(place)s is a cell, "Row 2, column 5" or "R2c5".
MARKS_ON_DIGIT = _("%(place)s holds a digit; clear it before marking there.")

# A cell as the log records it: digit, notes, complete, the notes its digit took.
CellRecord = tuple[int, list[int], bool, list[int]]


def notes_of(game: Game) -> list[list[int]]:
    """Every cell's notes, as saved from a board (digits in order), none in a new game."""
    return game.notes if len(game.notes) == 81 else [[] for _ in range(81)]


def taken_of(game: Game) -> list[list[int]]:
    """Per cell, the peers whose notes its digit took (none for a game from before)."""
    return game.taken if len(game.taken) == 81 else [[] for _ in range(81)]


def marks_of(game: Game) -> dict[str, dict]:
    """The player's marks by cell (corner, centre, colour, candidate colours): Game.marks."""
    return game.marks if isinstance(game.marks, dict) else {}


def complete_flags(game: Game) -> str:
    """Per cell, 1 where its notes are a complete candidate list."""
    return game.complete if len(game.complete) == 81 else NONE_COMPLETE


class PlayBoard(Board):
    """A player's board: the engine's, with each cell's completeness (`complete`) and the
    peers whose notes its digit took (`taken`)."""

    complete: list[bool]
    taken: list[list[int]]
    marks: dict[str, dict]  # by cell, as Game.marks holds them

    @classmethod
    def of(cls, game: Game) -> PlayBoard:
        """The game's board, to change and then save."""
        board = cls.from_notes(game.values, notes_of(game))
        board.complete = [flag == "1" for flag in complete_flags(game)]
        board.taken = [list(peers) for peers in taken_of(game)]
        board.marks = dict(marks_of(game))
        return board

    @classmethod
    def at(cls, values: str, notes: list[list[int]], marks: dict | None = None) -> PlayBoard:
        """A board of values, notes and marks alone (a replay's frame): nothing complete
        or taken."""
        board = cls.from_notes(values, notes)
        board.complete, board.taken = [False] * 81, [[] for _ in range(81)]
        board.marks = dict(marks or {})
        return board

    def saved(self) -> dict:
        """The board as the game's fields hold it."""
        return {
            "values": self.grid(),
            "notes": self.notes(),
            "complete": "".join("1" if flag else "0" for flag in self.complete),
            "taken": self.taken,
            "marks": self.marks,
        }

    def record(self, cell: int) -> CellRecord:
        """A cell as the log records it."""
        return (
            self.values[cell],
            list(self.digits(cell)),
            self.complete[cell],
            list(self.taken[cell]),
        )

    def change(
        self, cell: int, value: int, notes: list[int], full: bool, taken: list[int] | None = None
    ) -> dict | None:
        """Set a cell: its digit, notes and whether they are a complete list (only notes of
        an empty cell can be), and for a digit the peers' notes it took (kept as they were
        unless given). The log entry's record of it, or None if nothing changed."""
        notes = sorted(set(notes))
        full = bool(full and notes and not value)
        if taken is None:
            taken = self.taken[cell] if value and value == self.values[cell] else []
        taken = sorted(set(taken)) if value else []
        before = self.record(cell)
        after = (value, notes, full, taken)
        if before == after:
            return None
        self.set_cell(cell, value, notes)
        self.complete[cell] = full
        self.taken[cell] = taken
        return {"cell": cell, "before": list(before), "after": list(after)}

    def _fits_again(self, cell: int, digit: int) -> bool:
        """Whether an erased digit goes back into a cell's complete notes: it fits there."""
        return (
            self.complete[cell] and digit not in self.digits(cell) and digit in self.allowed(cell)
        )

    def _comes_back(self, peer: int, digit: int) -> bool:
        """Whether a note a digit took goes back into a peer's notes: the peer is still
        empty, and the placed digits allow it there."""
        return (
            not self.values[peer] and digit not in self.digits(peer) and digit in self.allowed(peer)
        )

    def _hand_over(self, peer: int, digit: int) -> dict | None:
        """A note that cannot come back because another copy of the digit now sees the
        peer: that copy holds it from now on, and gives it back when it goes."""
        if self.values[peer] or digit in self.digits(peer):
            return None
        holder = next((c for c in engine.PEERS[peer] if self.values[c] == digit), None)
        if holder is None:
            return None
        value, notes, full, taken = self.record(holder)
        return self.change(holder, value, notes, full, [*taken, peer])

    def put(self, cell: int, digit: int, prefs: Preferences) -> list[dict]:
        """Put a digit in a cell (0 erases it, notes and all), as one move. The digit
        leaves the notes of the cell's peers: all of them with auto-removal, the complete
        ones with auto-notes; the peers it took a note from are kept with the cell. The
        digit it replaces or erases puts back the notes it took, where the placed digits
        still allow them, and with auto-notes also returns to the complete notes of peers
        it now fits; an erased cell with auto-notes gets its candidates back."""
        old, took = self.values[cell], self.taken[cell]
        same = bool(digit) and digit == old
        before = list(self.record(cell))
        if digit == 0 and old and prefs.auto_notes:
            self.change(cell, 0, list(self.allowed(cell)), True)
        else:
            self.change(cell, digit, [], False, took if same else [])
        taken = list(took) if same else []
        gone = old if old and not same else 0  # the digit erased or replaced
        changes: list[dict | None] = []
        for peer in engine.PEERS[cell]:
            changes += self._tidy(peer, digit, gone, took, taken, prefs)
        if digit:
            self.taken[cell] = sorted(set(taken))
        after = list(self.record(cell))
        own = {"cell": cell, "before": before, "after": after} if after != before else None
        return [c for c in [own, *changes] if c]

    def _tidy(
        self,
        peer: int,
        digit: int,
        gone: int,
        took: list[int],
        taken: list[int],
        prefs: Preferences,
    ) -> list[dict | None]:
        """A peer's notes after `digit` went into its cell in place of `gone`: a note it had
        taken comes back (or is handed to another copy), `digit` leaves tidied notes (the
        peer added to `taken`). The changes made."""
        changes: list[dict | None] = []
        had = set(self.digits(peer))
        notes = set(had)
        if gone and peer in took and not self._comes_back(peer, gone):
            changes.append(self._hand_over(peer, gone))
        elif gone and (peer in took or (prefs.auto_notes and self._fits_again(peer, gone))):
            notes.add(gone)
        tidy = prefs.auto_remove_notes or (prefs.auto_notes and self.complete[peer])
        if digit in notes and tidy:
            notes.discard(digit)
            taken.append(peer)
        if notes != had:
            changes.append(self.change(peer, 0, list(notes), self.complete[peer]))
        return changes

    def toggle_note(self, cell: int, digit: int) -> list[dict]:
        """A note toggled (0 clears the cell's notes). A note taken out of (or put back
        into) a complete list leaves it complete: the player's elimination; notes written
        into any other cell are a memo. Refused for a cell that holds a digit."""
        if self.values[cell]:
            name = engine.place(cell).capitalize()
            raise GameError(NOTES_ON_DIGIT % {"place": name})
        notes = [] if digit == 0 else sorted(set(self.digits(cell)) ^ {digit})
        return [c for c in [self.change(cell, 0, notes, self.complete[cell])] if c]

    def put_many(self, cells: list[int], digit: int, prefs: Preferences) -> list[dict]:
        """A digit in several cells as one move (0 erases each): on more than one cell, a
        digit goes in the empty ones only, the cells holding a digit kept as they are. One
        record per cell change, in order, so that undo and redo are exact."""
        if digit and len(cells) > 1:
            cells = [cell for cell in cells if not self.values[cell]]
        changes: list[dict] = []
        for cell in cells:
            changes += self.put(cell, digit, prefs)
        return changes

    def toggle_notes(self, cells: list[int], digit: int) -> list[dict]:
        """A note on several cells as one move: on one cell toggle_note; on more, the empty
        ones among them get the note, or lose it when every one has it already (0 clears
        their notes). Refused when every cell holds a digit."""
        if len(cells) == 1:
            return self.toggle_note(cells[0], digit)
        empty = [cell for cell in cells if not self.values[cell]]
        if not empty:
            name = engine.place(cells[0]).capitalize()
            raise GameError(NOTES_ON_DIGIT % {"place": name})
        has = bool(digit) and all(digit in self.digits(cell) for cell in empty)
        changes = []
        for cell in empty:
            notes = set(self.digits(cell))
            if not digit:
                notes = set()
            elif has:
                notes.discard(digit)
            else:
                notes.add(digit)
            changes.append(self.change(cell, 0, list(notes), self.complete[cell]))
        return [c for c in changes if c]

    def fill_notes(self, givens: str) -> list[dict]:
        """Every empty cell gets the candidates the placed digits allow, as a complete
        list; each digit of the player's keeps itself out of the filled notes of the empty
        cells it sees, as if it had taken it (erasing or replacing it puts it back)."""
        candidates = engine.candidates(self.grid())
        changes = [
            self.change(cell, 0, candidates[cell], True)
            for cell in range(81)
            if not self.values[cell]
        ]
        for cell in range(81):
            digit = self.values[cell]
            if not digit or givens[cell] != "0":
                continue
            kept = [p for p in engine.PEERS[cell] if not self.values[p] and self.complete[p]]
            value, notes, full, taken = self.record(cell)
            changes.append(self.change(cell, value, notes, full, [*taken, *kept]))
        return [c for c in changes if c]

    def walk(self, changes: list[dict], side: str) -> None:
        """Set each changed cell as it was (`side` "before") or became ("after")."""
        for change in changes:
            # Moves logged before completeness have no third item (memos), those logged
            # before notes were taken back no fourth.
            value, notes, *rest = change[side]
            self.set_cell(change["cell"], value, notes)
            self.complete[change["cell"]] = bool(rest and rest[0])
            self.taken[change["cell"]] = list(rest[1]) if len(rest) > 1 else []
            if len(rest) > 2:  # a mark move's: the cell's marks
                self._set_marks(change["cell"], rest[2])

    # Marks: corner and centre marks and colours, beside the notes -------------------------

    def marks_at(self, cell: int) -> dict:
        return dict(self.marks.get(str(cell), {}))

    def _set_marks(self, cell: int, marks: dict) -> None:
        self.marks = dict(self.marks)
        if marks:
            self.marks[str(cell)] = marks
        else:
            self.marks.pop(str(cell), None)

    def mark(self, cells: list[int], layer: str, digit: int, colour: int) -> list[dict]:
        """A mark change on cells (one move): a corner or centre mark toggled (digit 0
        clears the layer), a cell's colour set (0 clears), or a candidate's colour set
        (colour 0 clears it). When every cell already has what is asked, it is taken off
        them all instead, so that the same tap twice takes a mark back. Corner and centre
        marks and candidate colours go in empty cells only; a colour goes on any cell."""
        if layer != "colour":
            for cell in cells:
                if self.values[cell]:
                    name = engine.place(cell).capitalize()
                    raise GameError(MARKS_ON_DIGIT % {"place": name})
        wanted = [self.marks_at(cell) for cell in cells]
        has = all(_has_mark(m, layer, digit, colour) for m in wanted)
        changes = []
        for cell, marks in zip(cells, wanted, strict=True):
            after = _marked(marks, layer, digit, colour, not has)
            if after == marks:
                continue
            record = list(self.record(cell))
            self._set_marks(cell, after)
            changes.append({"cell": cell, "before": [*record, marks], "after": [*record, after]})
        return changes

    def carry_out(self, does: dict, givens: str, prefs: Preferences) -> list[dict]:
        """A hint's step on the player's board: wrong digits taken out (never a given),
        lost candidates put back, digits placed, candidates eliminated. A cell whose notes
        were a memo gets its candidates as a complete list less the ones eliminated, so
        that the next hint builds on this one; a memo's note that cannot be right only
        leaves the memo."""
        changes: list[dict | None] = []
        for cell in does["clears"]:
            if givens[cell] == "0" and self.values[cell]:
                changes += self.put(cell, 0, prefs)
        for cell, digit in does["restores"]:
            changes.append(self.change(cell, 0, [*self.digits(cell), digit], True))
        for cell, digit in does["placements"]:
            changes += self.put(cell, digit, prefs)
        for cell, digit in does["eliminations"]:
            memo = not self.complete[cell] and digit not in self.allowed(cell)
            notes = self.digits(cell) if self.complete[cell] or memo else self.allowed(cell)
            kept = [d for d in notes if d != digit]
            changes.append(self.change(cell, 0, kept, not memo))
        return [c for c in changes if c]


def _has_mark(marks: dict, layer: str, digit: int, colour: int) -> bool:
    """Whether a cell's marks already hold what a mark change asks for."""
    if layer in ("corner", "centre"):
        return digit in marks.get(layer, []) if digit else not marks.get(layer)
    if layer == "colour":
        return marks.get("colour", 0) == colour
    return dict(marks.get("candidates", [])).get(digit, 0) == colour


def _marked(marks: dict, layer: str, digit: int, colour: int, put: bool) -> dict:
    """A cell's marks after a mark change: what it asks put on (`put`) or taken off."""
    after = dict(marks)
    if layer in ("corner", "centre"):
        digits = set(marks.get(layer, []))
        if not digit:
            digits = set()
        elif put:
            digits.add(digit)
        else:
            digits.discard(digit)
        after[layer] = sorted(digits)
    elif layer == "colour":
        after["colour"] = colour if put else 0
    else:
        pairs = dict(marks.get("candidates", []))
        pairs[digit] = colour if put else 0
        after["candidates"] = sorted([d, c] for d, c in pairs.items() if c)
    # Each part only when there is one, in one order: equal marks are equal records.
    return {k: after[k] for k in ("corner", "centre", "colour", "candidates") if after.get(k)}


def aimed_cells(kind: str, changes: list[dict]) -> list[int]:
    """The cells a logged move was aimed at: those whose digit it changed, and for notes,
    fills and hints those whose notes it changed too, for marks those whose marks it
    changed; not the peers whose notes a digit placed or erased tidied on its own, nor a
    digit's record of the notes it took."""
    notes_aimed = kind in ("note", "fill", "hint")
    return [
        c["cell"]
        for c in changes
        if c["before"][0] != c["after"][0]
        or (notes_aimed and c["before"][1:3] != c["after"][1:3])
        or (kind == "mark" and c["before"][4:] != c["after"][4:])
    ]


def digits_put(changes: list[dict], side: str) -> int:
    """How many cells a change puts a digit in (on `side` of its records)."""
    other = "before" if side == "after" else "after"
    return sum(1 for c in changes if c[side][0] and c[side][0] != c[other][0])


def wrong_cells(game: Game) -> list[int]:
    """The player's digits that are not the solution's."""
    solution = game.puzzle.solution
    return [c for c, v in enumerate(game.values) if v != "0" and v != solution[c]]
