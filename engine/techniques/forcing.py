"""Forcing chains: try each option of a cell or unit, follow what it forces, keep what is
common or drop what contradicts. The following is done by the compiled propagation."""

from __future__ import annotations

import numpy as np

from .. import kernel
from ..board import Board, Step
from ..grid import BIT, DIGITS_OF, UNITS, unit_name
from ..wording import cells_text, digits_text, either, join, place
from .table import step


def _position(board: Board) -> np.ndarray:
    return np.array(
        [BIT[v] | kernel.DONE if v else m for v, m in zip(board.values, board.cands, strict=True)],
        np.int32,
    )


def _contradiction(board: Board, base: np.ndarray, level: int) -> tuple[int, int] | None:
    """The first candidate whose consequences run into a contradiction."""
    for cell in range(81):
        for digit in DIGITS_OF[board.cands[cell]]:
            trial = base.copy()
            trial[cell] = BIT[digit]
            if not kernel.propagate(trial, level):
                return cell, digit
    return None


def _common(board: Board, base: np.ndarray, options: list[tuple[int, int]], level: int):
    """Placements every option leads to, or None if an option contradicts."""
    common = None
    for cell, digit in options:
        trial = base.copy()
        trial[cell] = BIT[digit]
        if not kernel.propagate(trial, level):
            return None
        placed = kernel.placed(trial)
        common = placed if common is None else np.where(common == placed, common, 0)
    empty = np.array(board.values) == 0
    return [(int(c), int(common[c])) for c in np.flatnonzero((common > 0) & empty)]


def _forcing(board: Board, level: int, finder: str) -> Step | None:
    base = _position(board)
    how = "the singles" if level == kernel.SINGLES else "the singles, locked candidates and pairs"
    false = _contradiction(board, base, level)
    if false:
        cell, digit = false
        return step(
            finder,
            eliminations=[false],
            cells=[cell],
            area=[cell],
            region=place(cell),
            reason=f"Suppose {place(cell)} were {digit} and follow {how} that forces: some cell "
            "is left with no candidate, or some digit with no place in a unit.",
            result=f"So {place(cell)} is not {digit}.",
        )
    for cell in range(81):
        digits = DIGITS_OF[board.cands[cell]]
        if 2 <= len(digits) <= 4:
            placed = _common(board, base, [(cell, d) for d in digits], level)
            if placed:
                return step(
                    finder,
                    placements=placed,
                    cells=[cell, *(c for c, _ in placed)],
                    area=[cell],
                    region=place(cell),
                    reason=f"{place(cell).capitalize()} is {either(digits)}. Follow {how} each "
                    "choice forces: the same digits end up in the same cells every time.",
                    result=f"So {join(f'{place(c)} is {d}' for c, d in placed)}.",
                )
    for unit in range(27):
        for digit in range(1, 10):
            cells = [c for c in UNITS[unit] if board.cands[c] & BIT[digit]]
            if 2 <= len(cells) <= 4:
                placed = _common(board, base, [(c, digit) for c in cells], level)
                if placed:
                    return step(
                        finder,
                        placements=placed,
                        cells=[*cells, *(c for c, _ in placed)],
                        units=[unit],
                        region=unit_name(unit),
                        reason=f"In {unit_name(unit)}, {digit} goes in one of "
                        f"{cells_text(cells)}. Follow {how} each choice forces: the same "
                        "digits end up in the same cells every time.",
                        result=f"So {join(f'{place(c)} is {d}' for c, d in placed)}.",
                    )
    return None


def forcing_chain(board: Board) -> Step | None:
    """Options whose singles lead to a contradiction, or all to the same placement."""
    return _forcing(board, kernel.SINGLES, "forcing_chain")


def dynamic_forcing_chain(board: Board) -> Step | None:
    """The same, following locked candidates and pairs as well as singles."""
    return _forcing(board, kernel.MEDIUM, "dynamic_forcing_chain")


def trial_and_error(board: Board) -> Step | None:
    """The last resort: search settles the cell with the fewest candidates."""
    open_cells = [c for c in range(81) if not board.values[c]]
    if not open_cells:
        return None
    solution = kernel.solve(board.grid())
    if solution is None:
        return None
    cell = min(open_cells, key=lambda c: (board.cands[c].bit_count(), c))
    digit = int(solution[cell])
    others = [d for d in board.digits(cell) if d != digit]
    return step(
        "trial_and_error",
        placements=[(cell, digit)],
        cells=[cell],
        area=[cell],
        region=place(cell),
        reason="No pattern settles this position. Try each candidate of "
        f"{place(cell)} in turn and search on"
        + (
            f": {digits_text(others)} {'leads' if len(others) == 1 else 'lead'} nowhere."
            if others
            else "."
        ),
        result=f"So {place(cell)} is {digit}.",
    )
