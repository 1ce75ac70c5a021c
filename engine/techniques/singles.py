"""Placements a beginner finds: full house, hidden single and naked single.

They are most of every solve, so their steps are told only when read (`Step`'s tell):
grading a puzzle reads none of it.
"""

from __future__ import annotations

from functools import partial

from ..board import Board, Step
from ..grid import ALL, BIT, BOX_OF, DIGITS_OF, PEERS, POPCOUNT, UNITS, unit_name
from ..i18n import _
from ..wording import a_digit, cells_in, place, sentence
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


def _is(cell: int, digit: int) -> str:
    """What a single places: 'So row 2, column 5 is 4.'"""
    # Translators: a digit placed: {place} is a cell, "row 2, column 5".
    return _("So {place} is {digit}.").format(place=place(cell), digit=digit)


def _full_house_told(unit: int, cell: int, digit: int) -> dict:
    where = unit_name(unit)
    # Translators: {unit} is a row, column or box, "row 3".
    reason = _("{unit} has one empty cell left and one digit missing.").format(unit=where)
    # Translators: {unit} is a row, column or box, "row 3"; {cells} the cell in it,
    # "column 5" in a row, "row 2, column 5" in a box.
    said = _("{unit} has one empty cell left, in {cells}, and one digit missing.").format(
        unit=where, cells=cells_in(unit, [cell])
    )
    return {
        "cause": [c for c in UNITS[unit] if c != cell],
        "region": where,
        "reason": sentence(reason),
        "explanation": f"{sentence(said)} {_is(cell, digit)}",
        "result": _is(cell, digit),
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
    blockers = {_blocker(values, c, digit) for c in others}
    # Some may be ruled out by the player's notes, not by a digit they see.
    seen = blockers <= set(range(81)) - set(others)
    reason = _hidden_single_reason(unit // 9, seen).format(
        unit=unit_name(unit), digit=digit, a_digit=a_digit(digit)
    )
    return {
        "cause": sorted(blockers),
        "region": unit_name(unit),
        "reason": reason,
        # Translators: a digit placed: {place} is a cell, "row 2, column 5".
        "result": _("So {digit} goes in {place}.").format(digit=digit, place=place(cell)),
    }


def _hidden_single_reason(kind: int, seen: bool) -> str:
    """Why a hidden single, in a row (kind 0), column (1) or box (2): every other empty
    cell sees the digit, or (not seen) some have no note of it."""
    if kind == 0:
        if seen:
            return _(
                # Translators: {unit} is "row 3"; {a_digit} the digit with its article, "a 4".
                "In {unit}, {digit} has one place left: every other empty cell of the row "
                "sees {a_digit}."
            )
        return _(
            # Translators: {unit} is "row 3"; {a_digit} the digit with its article, "a 4".
            "In {unit}, {digit} has one place left: every other empty cell of the row "
            "either sees {a_digit} or has no {digit} in its notes."
        )
    if kind == 1:
        if seen:
            return _(
                # Translators: {unit} is "row 3"; {a_digit} the digit with its article, "a 4".
                "In {unit}, {digit} has one place left: every other empty cell of the column "
                "sees {a_digit}."
            )
        return _(
            # Translators: {unit} is "row 3"; {a_digit} the digit with its article, "a 4".
            "In {unit}, {digit} has one place left: every other empty cell of the column "
            "either sees {a_digit} or has no {digit} in its notes."
        )
    if seen:
        return _(
            # Translators: {unit} is "row 3"; {a_digit} the digit with its article, "a 4".
            "In {unit}, {digit} has one place left: every other empty cell of the box "
            "sees {a_digit}."
        )
    return _(
        # Translators: {unit} is "row 3"; {a_digit} the digit with its article, "a 4".
        "In {unit}, {digit} has one place left: every other empty cell of the box "
        "either sees {a_digit} or has no {digit} in its notes."
    )


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
    reason = _(
        # Translators: {box} is a box, "box 5".
        "One cell of {box} can hold one digit only: every other digit is ruled out by its "
        "row, column and box."
    ).format(box=unit_name(18 + BOX_OF[cell]))
    said = _(
        # Translators: {place} is a cell, "row 2, column 5".
        "{place} can hold one digit only: every other digit is ruled out by its row, column "
        "and box."
    ).format(place=place(cell))
    return {
        "area": [cell],
        "cause": sorted(blockers - {cell}),
        "region": place(cell),
        "reason": reason,
        "explanation": f"{sentence(said)} {_is(cell, digit)}",
        "result": _is(cell, digit),
    }
