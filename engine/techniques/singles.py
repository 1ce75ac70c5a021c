"""Placements a beginner finds: full house, hidden single and naked single.

They are most of every solve, so their steps are told only when read (`Step`'s tell):
grading a puzzle reads none of it.
"""

from __future__ import annotations

from functools import partial

from ..board import Board, Step
from ..grid import ALL, BIT, BOX_OF, DIGITS_OF, PEERS, POPCOUNT, UNITS, unit_name
from ..wording import a_digit, cells_in, place
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
            units=[unit],
            tell=partial(_full_house_told, unit, cell, digit),
        )
    return None


def _full_house_told(unit: int, cell: int, digit: int) -> dict:
    return {
        "cause": [c for c in UNITS[unit] if c != cell],
        "region": unit_name(unit),
        "reason": f"{unit_name(unit).capitalize()} has one empty cell left and one digit missing.",
        "explanation": f"{unit_name(unit).capitalize()} has one empty cell left, in "
        f"{cells_in(unit, [cell])}, and one digit missing. So {place(cell)} is {digit}.",
        "result": f"So {place(cell)} is {digit}.",
    }


def _blocker(values: list[int], cell: int, digit: int) -> int:
    """Why the digit cannot go in the cell: a peer holding it, or else the cell itself (its
    candidates, the player's notes, leave it out)."""
    return next((p for p in PEERS[cell] if values[p] == digit), cell)


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
        # The telling waits until it is read, and the board moves on: keep the digits.
        values = board.values[:]
        return step(
            finder,
            placements=[(cell, digit)],
            cells=[cell],
            units=[unit],
            tell=partial(_hidden_single_told, values, unit, cell, digit),
        )
    return None


def _hidden_single_told(values: list[int], unit: int, cell: int, digit: int) -> dict:
    others = [c for c in UNITS[unit] if c != cell and not values[c]]
    kind = unit_name(unit).split()[0]
    blockers = {_blocker(values, c, digit) for c in others}
    if blockers <= set(range(81)) - set(others):
        why = f"sees {a_digit(digit)}"
    else:  # some are ruled out by the player's notes, not by a digit they see
        why = f"either sees {a_digit(digit)} or has no {digit} in its notes"
    return {
        "cause": sorted(blockers),
        "region": unit_name(unit),
        "reason": f"In {unit_name(unit)}, {digit} has one place left: every other empty cell "
        f"of the {kind} {why}.",
        "result": f"So {digit} goes in {place(cell)}.",
    }


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
            values = board.values[:]
            return step(
                "naked_single",
                placements=[(cell, digit)],
                cells=[cell],
                tell=partial(_naked_single_told, values, cell, digit),
            )
    return None


def _naked_single_told(values: list[int], cell: int, digit: int) -> dict:
    blockers = {_blocker(values, cell, d) for d in range(1, 10) if d != digit}
    return {
        "area": [cell],
        "cause": sorted(blockers - {cell}),
        "region": place(cell),
        "reason": f"One cell of {unit_name(18 + BOX_OF[cell])} can hold one digit only: "
        "every other digit is ruled out by its row, column and box.",
        "explanation": f"{place(cell).capitalize()} can hold one digit only: every other "
        f"digit is ruled out by its row, column and box. So {place(cell)} is {digit}.",
        "result": f"So {place(cell)} is {digit}.",
    }
