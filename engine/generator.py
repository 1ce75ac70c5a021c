"""Making puzzles: random full grids, a digger that keeps the solution unique, and a maker
that digs and grades until a puzzle of the tier asked for comes out (the extreme tier:
climbs to it, see climb.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from . import kernel
from .board import Board
from .climb import EXTREME_STARTS, climb
from .grid import InvalidPuzzle, is_solution, parse
from .logic import Grade, grade_of, solve_logically
from .techniques import DIFFICULTIES
from .transforms import random_transform

SYMMETRIES = ("none", "rotational", "diagonal", "mirror")

_MIRROR_OF = {
    "none": lambda r, c: (r, c),
    "rotational": lambda r, c: (8 - r, 8 - c),
    "diagonal": lambda r, c: (c, r),
    "mirror": lambda r, c: (r, 8 - c),
}

UNIQUE = -1  # the digger's level for "keep the solution unique, whatever it takes to solve"

# Givens an easy puzzle keeps: players expect more of them than logic strictly needs.
EASY_CLUES = (34, 38)


def _orbits(symmetry: str) -> list[tuple[int, ...]]:
    """Groups of cells that the symmetry keeps together (given or blank as one)."""
    orbits, seen = [], set()
    for cell in range(81):
        if cell in seen:
            continue
        r, c = _MIRROR_OF[symmetry](cell // 9, cell % 9)
        orbit = tuple(sorted({cell, r * 9 + c}))
        seen.update(orbit)
        orbits.append(orbit)
    return orbits


ORBITS = {name: _orbits(name) for name in SYMMETRIES}


@dataclass
class Generated:
    """A new puzzle, its solution and its grade."""

    puzzle: str
    solution: str
    grade: Grade


def _rng(seed: int | random.Random | None) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def random_grid(seed: int | random.Random | None = None) -> str:
    """A random complete valid grid."""
    rng = _rng(seed)
    digits = np.zeros(81, np.int32)
    for box in (0, 4, 8):  # the diagonal boxes never constrain each other
        r0, c0 = box // 3 * 3, box % 3 * 3
        for i, d in enumerate(rng.sample(range(1, 10), 9)):
            digits[(r0 + i // 3) * 9 + c0 + i % 3] = d
    _, solution = kernel.count_digits(digits, 1)
    return random_transform(rng).apply(kernel.to_text(solution))


def _check_symmetry(symmetry: str) -> None:
    if symmetry not in SYMMETRIES:
        raise ValueError(f"symmetry must be one of {', '.join(SYMMETRIES)}, not {symmetry!r}")


def _dig(grid: str, target: int, symmetry: str, rng: random.Random, level: int) -> str:
    orbits = ORBITS[symmetry][:]
    rng.shuffle(orbits)
    table = np.full((len(orbits), 2), -1, np.int32)
    for i, orbit in enumerate(orbits):
        table[i, : len(orbit)] = orbit
    return kernel.to_text(kernel.dig_digits(kernel.to_digits(grid), table, target, level))


def dig(
    grid: str,
    *,
    target_clues: int | None = None,
    symmetry: str = "rotational",
    seed: int | random.Random | None = None,
) -> str:
    """A puzzle whose only solution is grid, with as few givens as target and symmetry allow."""
    grid = parse(grid)
    if not is_solution(grid):
        raise InvalidPuzzle("dig needs a complete, valid grid")
    _check_symmetry(symmetry)
    target = 17 if target_clues is None else target_clues
    if not 17 <= target <= 81:
        raise ValueError("target_clues must be between 17 and 81")
    return _dig(grid, target, symmetry, _rng(seed), UNIQUE)


def _candidate(difficulty: str, rng: random.Random, symmetry: str) -> tuple[str | None, str]:
    """A dug puzzle that may be of the tier (cheap compiled checks only), with its grid."""
    grid = random_grid(rng)
    if difficulty == "easy":
        return _dig(grid, rng.randint(*EASY_CLUES), symmetry, rng, kernel.SINGLES), grid
    if difficulty == "medium":
        puzzle = _dig(grid, 17, symmetry, rng, kernel.MEDIUM)
        easy = kernel.solvable(kernel.to_digits(puzzle), kernel.SINGLES)
        return (None if easy else puzzle), grid
    puzzle = _dig(grid, 17, symmetry, rng, UNIQUE)
    medium = kernel.solvable(kernel.to_digits(puzzle), kernel.MEDIUM)
    return (None if medium else puzzle), grid


def _graded(puzzle: str, difficulty: str) -> Grade | None:
    """The puzzle's grade if it is of the tier, stopping early once it cannot be: the tiers
    up to the one below are tried first, and a puzzle they finish is too easy."""
    board = Board.from_puzzle(puzzle)
    rank = DIFFICULTIES.index(difficulty)
    steps: list = []
    if rank >= DIFFICULTIES.index("expert"):
        steps, solved = solve_logically(board, DIFFICULTIES[rank - 1])
        if solved:
            return None
    more, solved = solve_logically(board, difficulty)
    if not solved:
        return None
    grade = grade_of(steps + more)
    return grade if grade.difficulty == difficulty else None


def make_puzzle(
    difficulty: str,
    *,
    seed: int | random.Random | None = None,
    symmetry: str = "rotational",
    starts: tuple[str, ...] = (),
) -> Generated:
    """A new puzzle of the difficulty asked for, with exactly one solution.

    Extreme puzzles are climbed to (climb.py) from one of `starts`, or of EXTREME_STARTS
    when none is given, shuffled and relabelled, and keep no symmetry.
    """
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    _check_symmetry(symmetry)
    rng = _rng(seed)
    if difficulty == "extreme":
        return _climbed(difficulty, rng, starts or EXTREME_STARTS)
    while True:
        puzzle, grid = _candidate(difficulty, rng, symmetry)
        if puzzle is None:
            continue
        grade = _graded(puzzle, difficulty)
        if grade is not None:
            return Generated(puzzle, grid, grade)


def _climbed(difficulty: str, rng: random.Random, starts: tuple[str, ...]) -> Generated:
    """A puzzle climbed to from one of the starts, shuffled and relabelled first, drawn
    anew each time a climb stalls."""
    while True:
        start = random_transform(rng).apply(parse(rng.choice(starts)))
        found = climb(start, difficulty, rng)
        if found is not None:
            return Generated(*found)
