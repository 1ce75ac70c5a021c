"""A position (values and candidate masks) and the Step that changes it.

The same Board holds a logical solve's position and a player's: for a player, a cell's
candidates are the notes written in it (none where there are none).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from operator import itemgetter
from typing import Any, TypeVar

from .grid import (
    BIT,
    BOX_OF,
    COL_OF,
    DIGITS_OF,
    PEER_BITS,
    PEERS,
    ROW_OF,
    UNITS,
    UNITS_OF,
    allowed_mask,
    candidates_of,
    mask_of,
)
from .wording import compact_places, is_compact

T = TypeVar("T")

# Per unit, a function picking its cells' digits out of the 81 values.
_UNIT_VALUES = tuple(itemgetter(*unit) for unit in UNITS)


_WORDS = (
    "region",
    "area",
    "cause",
    "reason",
    "result",
    "explanation",
    "kind",
    "chain",
    "notation",
    "on",
    "off",
    "links",
)
# The words a hint's first level reads, which a step told by tell() may carry as well.
_EARLY = ("kind", "region", "area")

# A link drawn between two candidates: (from cell, from digit, to cell, to digit, "strong"
# or "weak").
Link = tuple[int, int, int, int, str]


class Step:
    """One logical deduction: what it places and removes, where, and why in plain English.

    Told in three parts for a player: where to look (`region`, the place in words, and
    `area`, its cells, the `units` named), why (`reason`, with the `cause`: the cells whose
    digits or notes make it so) and what follows (`result`). `explanation` is the whole.
    `cells` are the cells of the pattern.

    The telling is given either as words (the keyword arguments region, area, cause,
    reason, result, explanation) or as `tell`, a function that returns them as a dict and
    is called only when one of them is first read: a solve that grades a puzzle reads none,
    so the finders it runs most often leave their wording until a player asks. With `tell`,
    the words a hint's first level reads (kind, region, area) may be given as well: they
    are read without calling it (a chain's links are worked out only past that level).
    Places are written the way `wording.compact_places` said when the step was made.
    """

    __slots__ = (
        "_compact",
        "_early",
        "_tell",
        "_words",
        "cells",
        "clears",
        "eliminations",
        "placements",
        "rating",
        "restores",
        "technique",
        "units",
    )

    def __init__(
        self,
        technique: str,
        rating: float,
        *,
        placements: list[tuple[int, int]] | None = None,
        eliminations: list[tuple[int, int]] | None = None,
        cells: list[int] | None = None,
        units: list[int] | None = None,
        clears: list[int] | None = None,
        restores: list[tuple[int, int]] | None = None,
        tell: Callable[[], dict[str, Any]] | None = None,
        **words: Any,
    ) -> None:
        unknown = set(words) - set(_WORDS)
        if unknown:
            raise TypeError(f"Step() got unexpected keyword arguments: {sorted(unknown)}")
        if tell is not None and set(words) - set(_EARLY):
            raise TypeError("a Step is told by words or by tell(), not both")
        self.technique = technique
        self.rating = rating
        self.placements = placements or []
        self.eliminations = eliminations or []
        self.cells = cells or []
        self.units = units or []
        # Checks of a player's board, not techniques: digits to take out of cells, and
        # candidates to put back into notes that lost the answer, as (cell, digit).
        self.clears = clears or []
        self.restores = restores or []
        self._tell = tell
        self._compact = is_compact()
        self._early = words if tell else {}
        self._words: dict[str, Any] | None = None if tell else self._complete(words)

    def _complete(self, words: dict[str, Any]) -> dict[str, Any]:
        """The words given, with what is missing made from the rest."""
        told = {
            "region": words.get("region") or "",
            "area": list(words.get("area") or ()),
            "cause": list(words.get("cause") or ()),
            "reason": words.get("reason") or "",
            "result": words.get("result") or "",
            "explanation": words.get("explanation") or "",
            "kind": words.get("kind") or "",
            "chain": list(words.get("chain") or ()),
            "notation": list(words.get("notation") or ()),
            "on": sorted(words.get("on") or ()),
            "off": sorted(words.get("off") or ()),
            "links": list(words.get("links") or ()),
        }
        if not told["area"]:
            told["area"] = sorted({c for u in self.units for c in UNITS[u]}) or sorted(self.cells)
        if not told["cause"]:
            told["cause"] = sorted(self.cells)
        if not told["explanation"]:
            told["explanation"] = " ".join(t for t in (told["reason"], told["result"]) if t)
        elif not told["reason"]:
            told["reason"] = told["explanation"]
        return told

    def _told(self, name: str) -> Any:
        if self._words is None and name in self._early:
            return self._early[name]
        if self._words is None:
            assert self._tell is not None
            with compact_places(self._compact):
                self._words = self._complete(self._tell())
            self._tell = None
        return self._words[name]

    @property
    def region(self) -> str:
        """Where to look, in words: 'box 5', 'row 2, column 5'."""
        return self._told("region")

    @property
    def area(self) -> list[int]:
        """The cells to look at: those of the units named, else the pattern's."""
        return self._told("area")

    @property
    def cause(self) -> list[int]:
        """The cells whose digits or notes make the step so."""
        return self._told("cause")

    @property
    def reason(self) -> str:
        """Why, in words."""
        return self._told("reason")

    @property
    def result(self) -> str:
        """What follows, in words."""
        return self._told("result")

    @property
    def explanation(self) -> str:
        """The whole telling: the reason, then the result."""
        return self._told("explanation")

    @property
    def kind(self) -> str:
        """Which form of its technique the step is, when the table names its forms apart
        (a forcing chain's "contradiction", "cell" or "unit"); "" otherwise."""
        return self._told("kind")

    @property
    def chain(self) -> list[str]:
        """A chain's links in words, one sentence each, in order (branch by branch)."""
        return self._told("chain")

    @property
    def notation(self) -> list[str]:
        """A chain in the compact notation HoDoKu and sudokuwiki print, a line a branch:
        "(9)r1c3 = (9)r1c1 - (9)r5c1" for an alternating chain, "r1c3=9 -> r1c1<>9 -> ..."
        for a forcing chain."""
        return self._told("notation")

    @property
    def on(self) -> list[tuple[int, int]]:
        """The candidates (cell, digit) the step's chain marks true."""
        return self._told("on")

    @property
    def off(self) -> list[tuple[int, int]]:
        """The candidates (cell, digit) the step's chain marks false."""
        return self._told("off")

    @property
    def links(self) -> list[Link]:
        """The chain's links, each (from cell, from digit, to cell, to digit, "strong" or
        "weak"): strong when the first false makes the second true, weak when the first
        true makes the second false."""
        return self._told("links")

    def _key(self) -> tuple:
        return (
            self.technique,
            self.rating,
            self.placements,
            self.eliminations,
            self.cells,
            self.units,
            self.clears,
            self.restores,
            [self._told(name) for name in _WORDS],
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Step({self.technique!r}, {self.rating!r}, placements={self.placements!r}, "
            f"eliminations={self.eliminations!r})"
        )

    @property
    def targets(self) -> list[int]:
        """The cells the step changes."""
        return sorted({c for c, _ in self.placements} | {c for c, _ in self.eliminations})

    def as_dict(self) -> dict:
        """A JSON-ready form of the step."""
        return {
            "technique": self.technique,
            "rating": self.rating,
            "placements": [list(p) for p in self.placements],
            "eliminations": [list(e) for e in self.eliminations],
            "cells": list(self.cells),
            "explanation": self.explanation,
            "region": self.region,
            "area": list(self.area),
            "cause": list(self.cause),
            "kind": self.kind,
            "chain": list(self.chain),
            "notation": list(self.notation),
            "on": [list(n) for n in self.on],
            "off": [list(n) for n in self.off],
            "links": [list(link) for link in self.links],
        }


class Board:
    """Digits placed so far and the candidates left in every empty cell (0 in filled ones);
    on a player's board, the candidates are the player's notes."""

    __slots__ = ("_derived", "cands", "empties", "values")

    def __init__(self, values: list[int], cands: list[int]) -> None:
        self.values = values
        self.cands = cands
        self.empties = [take(values).count(0) for take in _UNIT_VALUES]
        self._derived: dict[str, object] = {}

    @classmethod
    def from_puzzle(cls, puzzle: str) -> Board:
        """The position of an 81-character puzzle, every candidate its peers allow."""
        return cls([int(ch) for ch in puzzle], candidates_of(puzzle))

    @classmethod
    def from_notes(cls, grid: str, notes: Sequence[Iterable[int]]) -> Board:
        """A player's position: the grid's digits, and each cell's notes (digits 1-9) as
        its candidates."""
        return cls([int(ch) for ch in grid], [mask_of(digits) for digits in notes])

    def notes(self) -> list[list[int]]:
        """Every cell's candidates as a list of digits."""
        return [list(DIGITS_OF[mask]) for mask in self.cands]

    def set_cell(self, cell: int, value: int, digits: Iterable[int]) -> None:
        """Write a cell as given, its digit (0 for none) and its candidates; peers keep theirs."""
        self._derived.clear()
        if bool(self.values[cell]) != bool(value):
            for unit in UNITS_OF[cell]:
                self.empties[unit] += -1 if value else 1
        self.values[cell] = value
        self.cands[cell] = mask_of(digits)

    def place(self, cell: int, digit: int) -> None:
        """Put digit in cell and remove it from the cell's peers."""
        self._derived.clear()
        self.values[cell] = digit
        self.cands[cell] = 0
        bit = BIT[digit]
        cands = self.cands
        for peer in PEERS[cell]:
            cands[peer] &= ~bit
        for unit in UNITS_OF[cell]:
            self.empties[unit] -= 1

    def apply(self, step: Step) -> None:
        """Carry out a step's placements and eliminations."""
        for cell, digit in step.placements:
            self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.cands[cell] &= ~BIT[digit]
        self._derived.clear()

    def derived(self, name: str, compute: Callable[[Board], T]) -> T:
        """compute(self), worked out once per position: techniques share what they derive."""
        if name not in self._derived:
            self._derived[name] = compute(self)
        return self._derived[name]  # type: ignore[return-value]

    def places(self) -> list[list[list[int]]]:
        """places()[unit][digit]: the cells of the unit where the digit is a candidate."""
        table = self._derived.get("places")
        if table is None:
            table = self._derived["places"] = _places(self)
        return table  # type: ignore[return-value]

    def digit_cells(self) -> list[int]:
        """digit_cells()[digit]: the cells where the digit is a candidate, as a bitmask."""
        return self.derived("digit cells", _digit_cells)

    @property
    def solved(self) -> bool:
        """True when every cell holds a digit."""
        return all(self.values)

    def grid(self) -> str:
        """The 81-character string of the digits placed so far."""
        return "".join(map(str, self.values))

    def digits(self, cell: int) -> tuple[int, ...]:
        """The candidates of a cell, as digits."""
        return DIGITS_OF[self.cands[cell]]

    def seen_by_all(
        self, cells: Iterable[int], digit: int, keep: Collection[int] = ()
    ) -> list[tuple[int, int]]:
        """The digit's candidates in the cells that see every one of cells, outside keep,
        as (cell, digit) eliminations."""
        seen = (1 << 81) - 1
        for c in cells:
            seen &= PEER_BITS[c]
        bit = BIT[digit]
        cands = self.cands
        return [(c, digit) for c in range(81) if seen >> c & 1 and cands[c] & bit and c not in keep]

    def allowed(self, cell: int) -> tuple[int, ...]:
        """The digits no peer of the cell holds, whatever its candidates say."""
        return DIGITS_OF[allowed_mask(self.values, cell)]

    def cells_with(self, digit: int, unit: int) -> list[int]:
        """Cells of the unit where digit is still a candidate."""
        return self.places()[unit][digit]


def _digit_cells(board: Board) -> list[int]:
    masks = [0] * 10
    for c, m in enumerate(board.cands):
        if m:
            bit = 1 << c
            for d in DIGITS_OF[m]:
                masks[d] |= bit
    return masks


def _places(board: Board) -> list[list[list[int]]]:
    table: list[list[list[int]]] = [[[] for _ in range(10)] for _ in range(27)]
    # Cells in order: each unit's lists come out in the order of its cells.
    for c, m in enumerate(board.cands):
        if m:
            row, col, box = table[ROW_OF[c]], table[9 + COL_OF[c]], table[18 + BOX_OF[c]]
            for d in DIGITS_OF[m]:
                row[d].append(c)
                col[d].append(c)
                box[d].append(c)
    return table
