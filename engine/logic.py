"""The logical solver: apply the easiest available step until solved, and grade by the path."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from . import kernel
from .board import Board, Step
from .grid import InvalidPuzzle, parse
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


def solve_logically(board: Board, max_tier: str = "extreme") -> tuple[list[Step], bool]:
    """Apply easiest steps (up to max_tier) in place; the path, and whether it got to the end."""
    steps: list[Step] = []
    while not board.solved and len(steps) < MAX_STEPS:
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
        raise InvalidPuzzle(
            "the puzzle has no solution" if count == 0 else "the puzzle has more than one solution"
        )
    steps, solved = solve_logically(Board.from_puzzle(puzzle))
    if not solved:
        # Trial and error settles any position that still has a solution, so only a step
        # that broke the position can leave the solve unfinished: a fault, not a grade.
        raise RuntimeError(f"the logical solve of {puzzle} stopped before the end")
    return grade_of(steps)


@dataclass(frozen=True)
class PathStep:
    """A step of the logical solve, with the position it was found in."""

    values: str  # the grid before the step
    candidates: list[list[int]]  # every cell's candidates before the step, none in filled cells
    step: Step

    def as_dict(self) -> dict:
        """A JSON-ready form: the position's "values" and "candidates", then the step's fields."""
        return {"values": self.values, "candidates": self.candidates} | self.step.as_dict()


def solution_path(puzzle: str) -> list[PathStep]:
    """The logical solve of a puzzle with exactly one solution, the path grade() rates,
    each step with the position before it; raises InvalidPuzzle like grade()."""
    puzzle = parse(puzzle)
    board = Board.from_puzzle(puzzle)
    path = []
    for step in grade(puzzle).steps:
        path.append(PathStep(board.grid(), board.notes(), step))
        board.apply(step)
    return path
