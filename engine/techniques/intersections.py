"""Locked candidates: where a box and a line share a digit's only places."""

from __future__ import annotations

from collections.abc import Callable

from ..board import Board, Step
from ..grid import BIT, BOX_OF, COL_OF, ROW_OF, UNITS, unit_name
from ..i18n import _
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


def _along(line: int, cells: list[int]) -> str:
    """Cells on one line, the line named once: 'row 2, columns 7 and 9' ('r2c7 and r2c9,
    both in row 2')."""
    if is_compact():
        if len(cells) == 2:
            # Translators: two cells in compact notation, "r2c7 and r2c9", and their line.
            said = _("{cells}, both in {unit}")
        else:
            # Translators: cells in compact notation, "r2c7, r2c8 and r2c9", and their line.
            said = _("{cells}, all in {unit}")
        return said.format(cells=cells_text(cells), unit=unit_name(line))
    # Translators: a line, "row 2", then cells of it, "columns 7 and 9".
    return _("{unit}, {cells}").format(unit=unit_name(line), cells=cells_in(line, cells))


def _leaves(digit: int, where: str, removed: list) -> str:
    """What a digit's confinement takes out: 'So 4 leaves the rest of row 2: take out ...'."""
    # Translators: {where} is a unit or units, "row 2", "columns 3 and 7"; {removals} the
    # digits to take out and where from, "4 from row 2, columns 1 and 5".
    return _("So {digit} leaves the rest of {where}: take out {removals}.").format(
        digit=digit, where=where, removals=removals_text(removed)
    )


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
        reason=_(
            # Translators: {box} is "box 4"; {cells} "row 2, columns 7 and 9"; {line} "row 2".
            "In {box}, {digit} can go only in {cells}: the {digit} of {line} is in this box."
        ).format(box=unit_name(box), digit=digit, cells=_along(line, cells), line=unit_name(line)),
        result=_leaves(digit, unit_name(line), removed),
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
        reason=_claimed(line, digit, cells, box),
        result=_leaves(digit, unit_name(box), removed),
    )


def _claimed(line: int, digit: int, cells: list[int], box: int) -> str:
    """Why a line claims a box's digit."""
    if len(cells) == 2:
        said = _(
            # Translators: {line} is "row 2"; {cells} two of its cells, "columns 7 and 9";
            # {box} "box 3".
            "In {line}, {digit} can go only in {cells}, both in {box}: the {digit} of {box} "
            "is on this line."
        )
    else:
        said = _(
            # Translators: {line} is "row 2"; {cells} its cells, "columns 7, 8 and 9";
            # {box} "box 3".
            "In {line}, {digit} can go only in {cells}, all in {box}: the {digit} of {box} "
            "is on this line."
        )
    return said.format(
        line=unit_name(line), digit=digit, cells=cells_in(line, cells), box=unit_name(box)
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
