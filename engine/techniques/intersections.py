"""Locked candidates: where a box and a line share a digit's only places."""

from __future__ import annotations

from ..board import Board, Step
from ..grid import BIT, BOX_OF, COL_OF, ROW_OF, UNITS, unit_name
from ..wording import cells_in, cells_text, is_compact, removals_text
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


def pointing(board: Board) -> Step | None:
    """A digit confined to one line inside a box leaves the rest of that line."""
    for box in range(18, 27):
        for digit in range(1, 10):
            cells = board.cells_with(digit, box)
            if len(cells) < 2:
                continue
            line = _line_through(cells)
            if line is None:
                continue
            removed = [(c, digit) for c in board.cells_with(digit, line) if c not in cells]
            if removed:
                return step(
                    "pointing",
                    eliminations=removed,
                    cells=cells,
                    units=[box],
                    region=unit_name(box),
                    reason=f"In {unit_name(box)}, {digit} can go only in {_along(line, cells)}: "
                    f"the {digit} of {unit_name(line)} is in this box.",
                    result=f"So {digit} leaves the rest of {unit_name(line)}: "
                    f"take out {removals_text(removed)}.",
                )
    return None


def claiming(board: Board) -> Step | None:
    """A digit confined to one box inside a line leaves the rest of that box."""
    for line in range(18):
        for digit in range(1, 10):
            cells = board.cells_with(digit, line)
            if len(cells) < 2 or len({BOX_OF[c] for c in cells}) != 1:
                continue
            box = 18 + BOX_OF[cells[0]]
            bit = BIT[digit]
            removed = [(c, digit) for c in UNITS[box] if board.cands[c] & bit and c not in cells]
            if removed:
                return step(
                    "claiming",
                    eliminations=removed,
                    cells=cells,
                    units=[line],
                    region=unit_name(line),
                    reason=f"In {unit_name(line)}, {digit} can go only in {cells_in(line, cells)}, "
                    f"{_all(cells)} in {unit_name(box)}: the {digit} of {unit_name(box)} is on "
                    "this line.",
                    result=f"So {digit} leaves the rest of {unit_name(box)}: "
                    f"take out {removals_text(removed)}.",
                )
    return None
