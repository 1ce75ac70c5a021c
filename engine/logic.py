"""The logical solver: apply the easiest available step until solved, and grade by the path."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from . import kernel
from .board import Board, Step
from .grid import BIT, InvalidPuzzle, mask_of, parse
from .i18n import _, ngettext
from .techniques import TIER_OF, TIER_RANK, find_step


@dataclass
class Grade:
    """How hard a puzzle is for a human, and the path that shows it."""

    difficulty: str
    score: float
    techniques: dict[str, int]
    steps: list[Step] = field(repr=False)


# Every step places a digit or removes a candidate, so no solve takes more steps than this;
# a step that changed nothing would otherwise be found again and again.
MAX_STEPS = 81 * 9


def solve_logically(
    board: Board, max_tier: str = "extreme", *, deadline: float | None = None
) -> tuple[list[Step], bool]:
    """Apply easiest steps (up to max_tier) in place; the path, and whether it got to the end.
    Past `deadline` (a time.monotonic() moment), raises TimeoutError between two steps."""
    steps: list[Step] = []
    while not board.solved and len(steps) < MAX_STEPS:
        if deadline is not None and time.monotonic() > deadline:
            raise TimeoutError(f"the logical solve stopped after {len(steps)} steps")
        step = find_step(board, max_tier)
        if step is None:
            break
        board.apply(step)
        steps.append(step)
    return steps, board.solved


def grade_of(steps: list[Step]) -> Grade:
    """The grade a solving path earns: its hardest step's rating and tier."""
    if not steps:
        return Grade("easy", 0.0, {}, [])
    tier = max((TIER_OF[s.technique] for s in steps), key=TIER_RANK.__getitem__)
    score = max(s.rating for s in steps)
    return Grade(tier, score, dict(Counter(s.technique for s in steps)), steps)


def grade(puzzle: str) -> Grade:
    """Rate a puzzle with exactly one solution by the techniques its logical solve needs."""
    puzzle = parse(puzzle)
    count = kernel.count_solutions(puzzle, 2)
    if count != 1:
        raise InvalidPuzzle(_no_one_solution(count))
    steps, solved = solve_logically(Board.from_puzzle(puzzle))
    if not solved:
        # Trial and error settles any position that still has a solution, so only a step
        # that broke the position can leave the solve unfinished: a fault, not a grade.
        raise RuntimeError(f"the logical solve of {puzzle} stopped before the end")
    return grade_of(steps)


def _no_one_solution(count: int) -> str:
    """Why a puzzle without exactly one solution is refused, for the player."""
    if count == 0:
        return _("the puzzle has no solution")
    return _("the puzzle has more than one solution")


@dataclass(frozen=True)
class PathStep:
    """A step of the logical solve, with the position it was found in."""

    values: str  # the grid before the step
    candidates: list[list[int]]  # every cell's candidates before the step, none in filled cells
    step: Step

    def as_dict(self) -> dict:
        """A JSON-ready form: the position's "values" and "candidates", then the step's fields."""
        return {"values": self.values, "candidates": self.candidates} | self.step.as_dict()


def solution_path(
    puzzle: str,
    candidates: Sequence[Iterable[int]] | None = None,
    *,
    seconds: float | None = None,
) -> list[PathStep]:
    """The logical solve of a puzzle with exactly one solution, the path grade() rates,
    each step with the position before it; raises InvalidPuzzle like grade().

    With `candidates` (digits per cell), the solve starts from that position: a player's
    pencil marks, the eliminations they made kept, narrowed to what the placed digits
    allow. Marks that took out a cell's solution digit raise InvalidPuzzle. With `seconds`,
    a solve that takes longer raises TimeoutError (checked between steps)."""
    puzzle = parse(puzzle)
    deadline = None if seconds is None else time.monotonic() + seconds
    if candidates is None and deadline is None:
        steps = grade(puzzle).steps
        board = Board.from_puzzle(puzzle)
    else:
        count = kernel.count_solutions(puzzle, 2)
        if count != 1:
            raise InvalidPuzzle(_no_one_solution(count))
        board = _position(puzzle, candidates)
        solution = kernel.solve(puzzle)
        lost = [
            c
            for c in range(81)
            if not board.values[c] and not board.cands[c] & BIT[int(solution[c])]
        ]
        if lost:
            raise InvalidPuzzle(
                ngettext(
                    # Translators: {count} is a number of cells (in English "cells" even for one).
                    "the notes leave out the solution's digit in {count} cells",
                    "the notes leave out the solution's digit in {count} cells",
                    len(lost),
                ).format(count=len(lost))
            )
        steps, solved = solve_logically(_position(puzzle, candidates), deadline=deadline)
        if not solved:
            raise RuntimeError(f"the logical solve of {puzzle} stopped before the end")
    path = []
    for step in steps:
        path.append(PathStep(board.grid(), board.notes(), step))
        board.apply(step)
    return path


def _position(puzzle: str, candidates: Sequence[Iterable[int]] | None) -> Board:
    """The puzzle's position, each empty cell's candidates those given that its peers
    allow (all that its peers allow without `candidates`)."""
    board = Board.from_puzzle(puzzle)
    if candidates is not None:
        for cell, digits in enumerate(candidates):
            if not board.values[cell]:
                board.cands[cell] &= mask_of(d for d in digits if 1 <= d <= 9)
    return board
