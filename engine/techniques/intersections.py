"""Locked candidates: where a box and a line share a digit's only places."""

from __future__ import annotations

from collections.abc import Callable

from ..board import Board, Step
from ..grid import BIT, BOX_OF, COL_OF, ROW_OF, UNITS, unit_name
from ..wording import cells_in, cells_text, is_compact, removals_text
from .kept import Kept
from .table import step


def _line_through(cells: list[int]) -> int | None:
    """The row or column holding all the cells, if there is one."""
    if len({ROW_OF[c] for c in cells}) == 1:
        return ROW_OF[cells[0]]
    if len({COL_OF[c] for c in cells}) == 1:
        return 9 + COL_OF[cells[0]]
    return None


def _all(cells: list[int]) -> str:
    return "both" if len(cells) == 2 else "all"


def _along(line: int, cells: list[int]) -> str:
    """Cells on one line, the line named once: 'row 2, columns 7 and 9' ('r2c7 and r2c9,
    both in row 2')."""
    if is_compact():
        return f"{cells_text(cells)}, {_all(cells)} in {unit_name(line)}"
    return f"{unit_name(line)}, {cells_in(line, cells)}"


# Both depend only on their digit's places: each digit's search is kept for every
# position that has the same places.
_POINTINGS: Kept[tuple | None] = Kept(4096)
_CLAIMINGS: Kept[tuple | None] = Kept(4096)


def _first(board: Board, kept: Kept[tuple | None], search: Callable) -> tuple | None:
    """What the search finds for the digit whose find lies in the first unit (of those
    in the same unit, the lowest digit's), as (digit, unit, ...the rest of the find)."""
    on = board.digit_cells()
    best = None
    for digit in range(1, 10):
        found = kept.get((digit, on[digit]), search, board, digit)
        if found and (best is None or found[0] < best[1]):
            best = (digit, *found)
    return best


def pointing(board: Board) -> Step | None:
    """A digit confined to one line inside a box leaves the rest of that line."""
    found = _first(board, _POINTINGS, _pointing_of)
    if found is None:
        return None
    digit, box, cells, line, removed = found
    return step(
        "pointing",
        eliminations=list(removed),
        cells=list(cells),
        units=[box],
        region=unit_name(box),
        reason=f"In {unit_name(box)}, {digit} can go only in {_along(line, cells)}: "
        f"the {digit} of {unit_name(line)} is in this box.",
        result=f"So {digit} leaves the rest of {unit_name(line)}: "
        f"take out {removals_text(removed)}.",
    )


def _pointing_of(board: Board, digit: int) -> tuple | None:
    """The first box whose places of the digit point along a line that loses it: (box,
    those places, the line, removed)."""
    places = board.places()
    for box in range(18, 27):
        cells = places[box][digit]
        if len(cells) < 2:
            continue
        line = _line_through(cells)
        if line is None:
            continue
        removed = [(c, digit) for c in places[line][digit] if c not in cells]
        if removed:
            return box, list(cells), line, removed
    return None


def claiming(board: Board) -> Step | None:
    """A digit confined to one box inside a line leaves the rest of that box."""
    found = _first(board, _CLAIMINGS, _claiming_of)
    if found is None:
        return None
    digit, line, cells, box, removed = found
    return step(
        "claiming",
        eliminations=list(removed),
        cells=list(cells),
        units=[line],
        region=unit_name(line),
        reason=f"In {unit_name(line)}, {digit} can go only in {cells_in(line, cells)}, "
        f"{_all(cells)} in {unit_name(box)}: the {digit} of {unit_name(box)} is on "
        "this line.",
        result=f"So {digit} leaves the rest of {unit_name(box)}: "
        f"take out {removals_text(removed)}.",
    )


def _claiming_of(board: Board, digit: int) -> tuple | None:
    """The first line whose places of the digit lie in a box that loses it elsewhere:
    (line, those places, the box, removed)."""
    places = board.places()
    bit = BIT[digit]
    for line in range(18):
        cells = places[line][digit]
        if len(cells) < 2 or len({BOX_OF[c] for c in cells}) != 1:
            continue
        box = 18 + BOX_OF[cells[0]]
        removed = [(c, digit) for c in UNITS[box] if board.cands[c] & bit and c not in cells]
        if removed:
            return line, list(cells), box, removed
    return None
