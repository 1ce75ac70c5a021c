"""Placements a beginner finds: full house, hidden single and naked single."""

from __future__ import annotations

from ..board import Board, Step
from ..grid import ALL, BIT, DIGITS_OF, POPCOUNT, UNITS, cell_name, unit_name
from .table import step


def full_house(board: Board) -> Step | None:
    """A unit with one empty cell left takes the one digit it is missing."""
    for unit in range(27):
        if board.empties[unit] != 1:
            continue
        cell = next(c for c in UNITS[unit] if not board.values[c])
        present = 0
        for c in UNITS[unit]:
            present |= BIT[board.values[c]]
        missing = DIGITS_OF[ALL & ~present]
        if len(missing) != 1 or not board.cands[cell] & BIT[missing[0]]:
            continue
        digit = missing[0]
        return step(
            "full_house",
            placements=[(cell, digit)],
            cells=[cell],
            region=unit_name(unit),
            explanation=f"{unit_name(unit).capitalize()} has one empty cell left, "
            f"{cell_name(cell)}, and the only digit it is missing is {digit}.",
        )
    return None


def _hidden_single(board: Board, units: range, finder: str) -> Step | None:
    cands = board.cands
    for unit in units:
        cells = UNITS[unit]
        once = twice = 0
        for c in cells:
            m = cands[c]
            twice |= once & m
            once |= m
        exactly = once & ~twice
        if not exactly:
            continue
        digit = DIGITS_OF[exactly][0]
        bit = BIT[digit]
        cell = next(c for c in cells if cands[c] & bit)
        return step(
            finder,
            placements=[(cell, digit)],
            cells=[cell],
            region=unit_name(unit),
            explanation=f"In {unit_name(unit)}, {digit} can go only in {cell_name(cell)}: "
            f"no other empty cell of the {unit_name(unit).split()[0]} can hold it.",
        )
    return None


def hidden_single_box(board: Board) -> Step | None:
    """A digit with one place left in a box."""
    return _hidden_single(board, range(18, 27), "hidden_single_box")


def hidden_single_line(board: Board) -> Step | None:
    """A digit with one place left in a row or column."""
    return _hidden_single(board, range(18), "hidden_single_line")


def naked_single(board: Board) -> Step | None:
    """A cell with one candidate left."""
    for cell, m in enumerate(board.cands):
        if POPCOUNT[m] == 1:
            digit = DIGITS_OF[m][0]
            return step(
                "naked_single",
                placements=[(cell, digit)],
                cells=[cell],
                region=cell_name(cell),
                explanation=f"{cell_name(cell)} can only be {digit}: every other digit is "
                "ruled out by its row, column and box.",
            )
    return None
