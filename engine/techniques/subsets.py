"""Naked and hidden subsets: n cells of a unit that hold exactly n digits between them."""

from __future__ import annotations

from itertools import combinations

from ..board import Board, Step
from ..grid import BIT, DIGITS_OF, POPCOUNT, UNIT_BITS, UNITS, shared_units, unit_name
from ..i18n import _
from ..wording import cells_in, cells_text, digits_text, is_compact, join, removals_text
from .table import step

NAKED = {2: "naked_pair", 3: "naked_triple", 4: "naked_quad"}
HIDDEN = {2: "hidden_pair", 3: "hidden_triple", 4: "hidden_quad"}


def _the_cells(shared: list[int], group: tuple[int, ...] | list[int]) -> str:
    """The cells of a subset in the units already named: 'the cells in columns 4 and 6'."""
    if is_compact():
        # Translators: {cells} are cells in compact notation, "r1c4 and r1c6".
        return _("the cells {cells}").format(cells=cells_text(group))
    line = next((u for u in shared if u < 18), None)
    cells = cells_in(line, group) if line is not None else cells_text(group)
    # Translators: {cells} are cells, "columns 4 and 6" (in a row already named).
    return _("the cells in {cells}").format(cells=cells)


def _naked(board: Board, size: int) -> Step | None:
    cands = board.cands
    for unit in range(27):
        cells = [c for c in UNITS[unit] if 2 <= POPCOUNT[cands[c]] <= size]
        for group in combinations(cells, size):
            union = 0
            for c in group:
                union |= cands[c]
            if POPCOUNT[union] != size:
                continue
            shared = shared_units(group)
            removed = sorted(
                {
                    (c, d)
                    for u in shared
                    for c in UNITS[u]
                    if c not in group
                    for d in DIGITS_OF[cands[c] & union]
                }
            )
            if removed:
                where = join(unit_name(u) for u in shared)
                return step(
                    NAKED[size],
                    eliminations=removed,
                    cells=list(group),
                    units=[unit],
                    region=unit_name(unit),
                    reason=_(
                        # Translators: {units} are units, "row 1 and box 2"; {cells} the cells
                        # of the subset, "the cells in columns 4 and 6"; {digits} "3 and 7".
                        "In {units}, {cells} can hold only {digits} between them: those "
                        "digits belong to these cells."
                    ).format(
                        units=where,
                        cells=_the_cells(shared, group),
                        digits=digits_text(DIGITS_OF[union]),
                    ),
                    # Translators: {units} as above; {removals} the digits to take out and
                    # where from, "3 from row 1, column 2; also 7 from row 1, column 5".
                    result=_("So they leave the rest of {units}: take out {removals}.").format(
                        units=where, removals=removals_text(removed)
                    ),
                )
    return None


def _hidden(board: Board, size: int) -> Step | None:
    cands = board.cands
    on = board.digit_cells()
    for unit in range(27):
        in_unit = UNIT_BITS[unit]
        places = {}  # digit -> its places in the unit, as a bitmask of cells
        for d in range(1, 10):
            where = on[d] & in_unit
            if 2 <= where.bit_count() <= size:
                places[d] = where
        if len(places) < size:
            continue
        for digits in combinations(places, size):
            union = 0
            for d in digits:
                union |= places[d]
            if union.bit_count() != size:
                continue
            group = [c for c in UNITS[unit] if union >> c & 1]
            keep = sum(BIT[d] for d in digits)
            removed = [(c, d) for c in group for d in DIGITS_OF[cands[c] & ~keep]]
            if removed:
                return step(
                    HIDDEN[size],
                    eliminations=removed,
                    cells=group,
                    units=[unit],
                    region=unit_name(unit),
                    reason=_(
                        # Translators: {unit} is "row 1"; {digits} "3 and 7"; {cells} "columns 4
                        # and 6" (in a row), or "row 1, column 4 and row 2, column 6" (in a box).
                        "In {unit}, the digits {digits} can go only in {cells}: those cells are "
                        "taken by them."
                    ).format(
                        unit=unit_name(unit),
                        digits=digits_text(digits),
                        cells=cells_in(unit, group),
                    ),
                    # Translators: {removals} are the digits to take out and where from,
                    # "3 from row 1, column 2; also 7 from row 1, column 5".
                    result=_("So those cells hold nothing else: take out {removals}.").format(
                        removals=removals_text(removed)
                    ),
                )
    return None


def naked_pair(board: Board) -> Step | None:
    """Two cells of a unit with the same two candidates."""
    return _naked(board, 2)


def naked_triple(board: Board) -> Step | None:
    """Three cells of a unit with three candidates between them."""
    return _naked(board, 3)


def naked_quad(board: Board) -> Step | None:
    """Four cells of a unit with four candidates between them."""
    return _naked(board, 4)


def hidden_pair(board: Board) -> Step | None:
    """Two digits with the same two places in a unit."""
    return _hidden(board, 2)


def hidden_triple(board: Board) -> Step | None:
    """Three digits with three places between them in a unit."""
    return _hidden(board, 3)


def hidden_quad(board: Board) -> Step | None:
    """Four digits with four places between them in a unit."""
    return _hidden(board, 4)
