"""Hints on a player's own position: mistakes first, then the easiest logical step."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

import numpy as np

from . import kernel
from .board import Board, Step
from .grid import BIT, UNITS, InvalidPuzzle, candidates_of, cell_name, normalise, parse, unit_name
from .techniques import find_step
from .wording import cells_text

CHECKS_RATING = 0.0  # pointing out a mistake is not a solving technique


def _conflict(values: list[int], puzzle: str | None) -> Step | None:
    """Two equal digits in a unit; with the puzzle known, only the one that is not a given."""
    for unit in range(27):
        seen: dict[int, int] = {}
        for cell in UNITS[unit]:
            digit = values[cell]
            if not digit:
                continue
            if digit in seen:
                return _conflict_step(unit, digit, seen[digit], cell, puzzle)
            seen[digit] = cell
    return None


def _conflict_step(unit: int, digit: int, first: int, second: int, puzzle: str | None) -> Step:
    """The conflict told: a given is never the one at fault."""
    given = [c for c in (first, second) if puzzle is not None and puzzle[c] != "0"]
    where = unit_name(unit)
    if len(given) == 1:
        (placed,) = {first, second} - set(given)
        return Step(
            "Conflict",
            CHECKS_RATING,
            cells=[placed],
            region=where,
            explanation=f"The {digit} in {cell_name(placed)} cannot stay: {where} already has "
            f"the given {digit} in {cell_name(given[0])}, and it can hold each digit only once.",
        )
    return Step(
        "Conflict",
        CHECKS_RATING,
        cells=[first, second],
        region=where,
        explanation=f"{cell_name(first)} and {cell_name(second)} both hold {digit}, "
        f"but {where} can hold each digit only once.",
    )


def _mistake(cells: list[int], explanation: str, region: str = "") -> Step:
    """A step that names placed digits at fault; it changes nothing by itself."""
    return Step(
        "Mistake",
        CHECKS_RATING,
        cells=cells,
        region=region or cells_text(cells),
        explanation=explanation,
    )


def _wrong_digit(values: list[int], solution: str | None) -> Step | None:
    """With the solution known: the first placed digit that differs from it."""
    if solution is None:
        return None
    cell = next((c for c in range(81) if values[c] and values[c] != int(solution[c])), None)
    if cell is None:
        return None
    return _mistake(
        [cell],
        f"The {values[cell]} in {cell_name(cell)} is wrong: the puzzle cannot be finished "
        "with it there. Everything deduced from it needs another look.",
    )


def _finishable_without(digits: np.ndarray, cells: tuple[int, ...]) -> bool:
    """True when the grid can be finished once the digits in cells are taken out."""
    trial = digits.copy()
    trial[list(cells)] = 0
    return kernel.count_digits(trial, 1)[0] > 0


def _dead_end(values: list[int]) -> Step:
    """Without the puzzle, a grid that cannot be finished: the smallest removals that fix it.

    One digit whose removal lets the grid be finished, else two, else every placed digit
    is under suspicion: whatever happens, the player hears that something placed is wrong.
    """
    digits = np.array(values, np.int32)
    filled = [c for c in range(81) if values[c]]
    singles = [c for c in filled if _finishable_without(digits, (c,))]
    if len(singles) == 1:
        (cell,) = singles
        return _mistake(
            singles,
            f"The {values[cell]} in {cell_name(cell)} is wrong: the grid cannot be finished "
            "with it there, and it can without it.",
        )
    if singles:
        return _mistake(
            singles,
            f"One of the digits in {cells_text(singles)} is wrong: the grid cannot be finished "
            "with all of them, but it can without any one of them.",
        )
    pairs = _pairs_that_fix(digits, filled)
    if len(pairs) == 1:
        cells = list(pairs[0])
        return _mistake(
            cells,
            f"The digits in {cells_text(cells)} cannot both stay: the grid cannot be finished "
            "with them, nor with either one of them alone, but it can without both.",
        )
    if pairs:
        cells = sorted({c for pair in pairs for c in pair})
        a, b = pairs[0]
        return _mistake(
            cells,
            f"At least two of the digits in {cells_text(cells)} are wrong: the grid cannot be "
            "finished as it is, nor by taking out any one digit, but it can by taking out two "
            f"of these (for instance {cell_name(a)} and {cell_name(b)}).",
        )
    return _mistake(
        filled,
        "The grid cannot be finished: some of the placed digits are wrong, more than two of "
        "them. Take out the digits you are least sure of, or start again from the givens.",
        region="the whole grid",
    )


def _pairs_that_fix(digits: np.ndarray, filled: list[int]) -> list[tuple[int, int]]:
    """The pairs of placed digits whose removal lets the grid be finished.

    A grid without a repeated digit that cannot be finished has at most 80 placed digits,
    so at most 3,160 pairs, each counted on a grid with two holes more: under 10 ms in all.
    """
    return [pair for pair in combinations(filled, 2) if _finishable_without(digits, pair)]


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


def _solution_of(puzzle: str | None, grid: str) -> str | None:
    """The one solution of the puzzle, or failing that of the grid itself; None if not one."""
    for text in ([] if puzzle is None else [puzzle]) + [grid]:
        count, solution = kernel.count_digits(kernel.to_digits(text), 2)
        if count == 1:
            return kernel.to_text(solution)
    return None


def next_step(
    grid: str, candidates: Sequence[Iterable[int]] | None = None, *, puzzle: str | None = None
) -> Step | None:
    """The hint for a player's position: a mistake if there is one, else the easiest step.

    grid is the board as the player has it (givens and their digits); candidates, when
    given, are the player's notes, one list of digits per cell (empty for no notes);
    puzzle, when given, is the original puzzle: it names a wrong digit exactly, and a given
    is never blamed. Without it, a grid that cannot be finished gets the digits that could
    be at fault. Returns None only when the grid is complete and correct.
    """
    grid = normalise(grid)
    puzzle = None if puzzle is None else parse(puzzle)
    values = [int(ch) for ch in grid]
    step = _conflict(values, puzzle)
    if step:
        return step
    solution = _solution_of(puzzle, grid)
    step = _wrong_digit(values, solution)
    if step:
        return step
    if solution is None and kernel.count_solutions(grid, 1) == 0:
        return _dead_end(values)
    cands = _candidates(grid, candidates)
    step = _missing_note(values, cands, solution)
    if step:
        return step
    board = Board(values, cands)
    if board.solved:
        return None
    return find_step(board)
