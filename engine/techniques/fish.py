"""Basic fish: n rows whose places for a digit fall in n columns (or the other way round)."""

from __future__ import annotations

from itertools import combinations

from ..board import Board, Step
from ..grid import BIT, DIGITS_OF, POPCOUNT
from ..i18n import _, ngettext
from ..wording import a_digit, cells_text, join, removals_text
from .kept import Kept
from .table import step

FINDERS = {2: "x_wing", 3: "swordfish", 4: "jellyfish"}


def cell_at(base_is_row: bool, base: int, cover: int) -> int:
    """The cell where a base line meets a cover line."""
    return base * 9 + cover if base_is_row else cover * 9 + base


def line_places(board: Board) -> list[tuple[list[int], list[int]]]:
    """line_places(board)[digit][base_is_row]: per row (if true) or column, the digit's
    places in it as a 9-bit mask of the columns (rows) they lie in; worked out once a
    position for every fish."""
    return board.derived("line places", _line_places)


def _line_places(board: Board) -> list[tuple[list[int], list[int]]]:
    table = [([0] * 9, [0] * 9) for _ in range(10)]  # [digit][base_is_row][line]
    for cell, mask in enumerate(board.cands):
        row, col = divmod(cell, 9)
        for d in DIGITS_OF[mask]:
            columns, rows = table[d]
            rows[row] |= 1 << col
            columns[col] |= 1 << row
    return table


# A fish depends only on its digit's places on the lines: the search of those places, by
# size, is kept for every position (and line direction) that has them.
_FISH: Kept[tuple[tuple[int, ...], list[int]] | None] = Kept(16384)


def _fish_of(every: tuple[int, ...], size: int) -> tuple[tuple[int, ...], list[int]] | None:
    """The first fish of the size in one digit's places on the lines of one direction
    (every: per line, the cover lines it has places on) that leaves a place outside its
    base lines: (base lines, cover lines)."""
    lines = {b: m for b, m in enumerate(every) if 2 <= POPCOUNT[m] <= size}
    if len(lines) < size:
        return None
    for bases in combinations(lines, size):
        covers = 0
        for b in bases:
            covers |= lines[b]
        if POPCOUNT[covers] != size:
            continue
        if any(every[b] & covers for b in range(9) if b not in bases):
            return bases, [c for c in range(9) if covers >> c & 1]
    return None


def _fish(board: Board, size: int) -> Step | None:
    cands = board.cands
    for digit in range(1, 10):
        bit = BIT[digit]
        for base_is_row in (True, False):
            every = tuple(line_places(board)[digit][base_is_row])
            found = _FISH.get((size, every), _fish_of, every, size)
            if found is None:
                continue
            bases, cover_lines = found
            removed = [
                (cell_at(base_is_row, b, c), digit)
                for c in cover_lines
                for b in range(9)
                if b not in bases and cands[cell_at(base_is_row, b, c)] & bit
            ]
            corners = [cell_at(base_is_row, b, c) for b in bases for c in cover_lines]
            cells = [c for c in corners if cands[c] & bit]
            base_names = _lines(base_is_row, bases)
            cover_names = _lines(not base_is_row, cover_lines)
            return step(
                FINDERS[size],
                eliminations=sorted(removed),
                cells=sorted(cells),
                units=[b if base_is_row else 9 + b for b in bases],
                region=base_names,
                reason=_fish_reason(base_is_row).format(
                    bases=base_names,
                    digit=digit,
                    covers=cover_names,
                    cells=cells_text(cells),
                    a_digit=a_digit(digit),
                ),
                # Translators: {where} is a unit or units, "row 2", "columns 3 and 7";
                # {removals} the digits to take out and where from, "4 from row 2, columns 1
                # and 5".
                result=_("So {digit} leaves the rest of {where}: take out {removals}.").format(
                    digit=digit, where=cover_names, removals=removals_text(removed)
                ),
            )
    return None


def _lines(rows: bool, lines: tuple[int, ...] | list[int]) -> str:
    """Rows (or columns) by their numbers: 'rows 1 and 5'."""
    numbers = join(str(b + 1) for b in lines)
    if rows:
        # Translators: cells of a column already named, by their rows: "rows 2 and 5".
        return ngettext("row {numbers}", "rows {numbers}", len(lines)).format(numbers=numbers)
    # Translators: cells of a row already named, by their columns: "columns 2 and 5".
    return ngettext("column {numbers}", "columns {numbers}", len(lines)).format(numbers=numbers)


def _fish_reason(base_is_row: bool) -> str:
    """Why a fish, on rows or on columns."""
    if base_is_row:
        return _(
            # Translators: {bases} are rows, "rows 1 and 5"; {covers} columns, "columns 2 and 7";
            # {cells} the cells where they cross; {a_digit} the digit with its article, "a 4".
            "In {bases}, {digit} can go only in {covers} ({cells}). Each of those rows needs "
            "{a_digit} there, so they fill {covers} with {digit}s."
        )
    return _(
        # Translators: {bases} are columns, "columns 1 and 5"; {covers} rows, "rows 2 and 7";
        # {cells} the cells where they cross; {a_digit} the digit with its article, "a 4".
        "In {bases}, {digit} can go only in {covers} ({cells}). Each of those columns needs "
        "{a_digit} there, so they fill {covers} with {digit}s."
    )


def x_wing(board: Board) -> Step | None:
    """Two rows (columns) whose places for a digit lie in the same two columns (rows)."""
    return _fish(board, 2)


def swordfish(board: Board) -> Step | None:
    """Three rows (columns) whose places for a digit lie in the same three columns (rows)."""
    return _fish(board, 3)


def jellyfish(board: Board) -> Step | None:
    """Four rows (columns) whose places for a digit lie in the same four columns (rows)."""
    return _fish(board, 4)
