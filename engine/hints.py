"""Hints on a player's own position: mistakes first, then the easiest logical step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import kernel
from .board import Board, Step
from .grid import BIT, UNITS, InvalidPuzzle, candidates_of, cell_name, parse, unit_name
from .techniques import find_step
from .wording import cells_text

CHECKS_RATING = 0.0  # pointing out a mistake is not a solving technique


def _position(grid: str) -> str:
    """The 81-character form of a player's grid, which may break the rules."""
    try:
        return parse(grid)
    except InvalidPuzzle as error:
        if "twice" not in str(error):
            raise
    # parse refuses repeated digits; a player's grid may have them, and the hint says so.
    return "".join("0" if ch == "." else ch for ch in grid if ch not in " \t\r\n|-+")


def _conflict(values: list[int]) -> Step | None:
    for unit in range(27):
        seen: dict[int, int] = {}
        for cell in UNITS[unit]:
            digit = values[cell]
            if not digit:
                continue
            if digit in seen:
                first = seen[digit]
                return Step(
                    "Conflict",
                    CHECKS_RATING,
                    cells=[first, cell],
                    region=unit_name(unit),
                    explanation=f"{cell_name(first)} and {cell_name(cell)} both hold {digit}, "
                    f"but {unit_name(unit)} can hold each digit only once.",
                )
            seen[digit] = cell
    return None


def _wrong_digit(values: list[int], solution: str | None, grid: str) -> Step | None:
    if solution is not None:
        wrong = [c for c in range(81) if values[c] and values[c] != int(solution[c])][:1]
    elif kernel.count_solutions(grid, 1) == 0:
        wrong = _suspects(grid, values)
    else:
        return None
    if not wrong:
        return None
    if len(wrong) == 1:
        cell = wrong[0]
        explanation = (
            f"The {values[cell]} in {cell_name(cell)} is wrong: the puzzle cannot be finished "
            "with it there. Everything deduced from it needs another look."
        )
    else:
        explanation = (
            f"One of the digits in {cells_text(wrong)} is wrong: the grid cannot be finished "
            "with all of them, but it can without any one of them."
        )
    return Step(
        "Mistake",
        CHECKS_RATING,
        cells=wrong,
        region=cells_text(wrong),
        explanation=explanation,
    )


def _suspects(grid: str, values: list[int]) -> list[int]:
    """Without the puzzle: the digits whose removal alone lets the grid be finished."""
    return [
        cell
        for cell in range(81)
        if values[cell] and kernel.count_solutions(grid[:cell] + "0" + grid[cell + 1 :], 1)
    ]


def _candidates(grid: str, notes: Sequence[Iterable[int]] | None) -> list[int]:
    cands = candidates_of(grid)
    if notes is None:
        return cands
    if len(notes) != 81:
        raise InvalidPuzzle(f"candidates need one entry per cell, 81, not {len(notes)}")
    for cell, digits in enumerate(notes):
        mask = 0
        for d in digits:
            if not isinstance(d, int) or not 1 <= d <= 9:
                raise InvalidPuzzle(
                    f"the candidates of {cell_name(cell)} hold {d!r}, not a digit 1-9"
                )
            mask |= BIT[d]
        if mask:
            cands[cell] &= mask
    return cands


def _missing_note(values: list[int], cands: list[int], solution: str | None) -> Step | None:
    if solution is None:
        return None
    for cell in range(81):
        if not values[cell] and not cands[cell] & BIT[int(solution[cell])]:
            return Step(
                "Missing Candidate",
                CHECKS_RATING,
                cells=[cell],
                region=cell_name(cell),
                explanation=f"The notes in {cell_name(cell)} leave out the digit that belongs "
                "there: one of the candidates removed from it was needed.",
            )
    return None


def next_step(
    grid: str, candidates: Sequence[Iterable[int]] | None = None, *, puzzle: str | None = None
) -> Step | None:
    """The hint for a player's position: a mistake if there is one, else the easiest step.

    grid is the board as the player has it (givens and their digits); candidates, when
    given, are the player's notes, one list of digits per cell (empty for no notes);
    puzzle, when given, is the original puzzle and names a wrong digit exactly. Without it
    a grid that cannot be finished gets the digits any one of which could be the mistake.
    Returns None when the grid is complete and correct.
    """
    grid = _position(grid)
    values = [int(ch) for ch in grid]
    step = _conflict(values)
    if step:
        return step
    solution = kernel.solve(parse(puzzle)) if puzzle is not None else None
    if solution is None and kernel.count_solutions(grid, 2) == 1:
        solution = kernel.solve(grid)
    step = _wrong_digit(values, solution, grid)
    if step:
        return step
    cands = _candidates(grid, candidates)
    step = _missing_note(values, cands, solution)
    if step:
        return step
    board = Board(values, cands)
    if board.solved:
        return None
    return find_step(board)
