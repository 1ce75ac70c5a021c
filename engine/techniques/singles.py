"""Placements a beginner finds: full house, hidden single and naked single."""

from __future__ import annotations

from ..board import Board, Step
from ..grid import ALL, BIT, DIGITS_OF, PEERS, POPCOUNT, UNITS, unit_name
from ..wording import place
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
            cause=[c for c in UNITS[unit] if c != cell],
            region=unit_name(unit),
            reason=f"{unit_name(unit).capitalize()} has one empty cell left, {place(cell)}, "
            f"and one digit missing.",
            result=f"So {place(cell)} is {digit}.",
        )
    return None


def _blocker(board: Board, cell: int, digit: int) -> int:
    """Why the digit cannot go in the cell: a peer holding it, or else the cell itself (its
    candidates, the player's notes, leave it out)."""
    return next((p for p in PEERS[cell] if board.values[p] == digit), cell)


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
        others = [c for c in cells if c != cell and not board.values[c]]
        kind = unit_name(unit).split()[0]
        return step(
            finder,
            placements=[(cell, digit)],
            cells=[cell],
            units=[unit],
            cause=sorted({_blocker(board, c, digit) for c in others}),
            region=unit_name(unit),
            reason=f"In {unit_name(unit)}, {digit} has one place left: every other empty cell "
            f"of the {kind} sees a {digit} or cannot hold it.",
            result=f"So {digit} goes in {place(cell)}.",
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
            blockers = {_blocker(board, cell, d) for d in range(1, 10) if d != digit}
            return step(
                "naked_single",
                placements=[(cell, digit)],
                cells=[cell],
                area=[cell],
                cause=sorted(blockers - {cell}) or [cell],
                region=place(cell),
                reason=f"{place(cell).capitalize()} can hold one digit only: every other "
                "digit is ruled out by its row, column and box.",
                result=f"So {place(cell)} is {digit}.",
            )
    return None
