"""Seeking a puzzle whose logical solve needs a given technique, for the guide's examples.

The technique's start (starts.py), shuffled and relabelled, is the answer when its
canonical key is not among those known. Otherwise the search walks from it one given at a
time, as climb.py does, keeping only puzzles of one solution whose solve still takes the
technique's step, until it stands a few moves away with a key not known. For a technique
with no start, new puzzles of its tier are made until one's solve needs it. None is
sought for the techniques no puzzle made here is known to need (UNSOUGHT).
"""

from __future__ import annotations

import random
from collections.abc import Container

from . import kernel
from .board import Board
from .canonical import canonical
from .climb import GUESS, MOVES, TRIES, neighbour
from .generator import Generated, make_puzzle
from .logic import Grade, grade_of, solve_logically
from .starts import TECHNIQUE_STARTS
from .techniques import DIFFICULTIES, TIER_OF
from .techniques.table import entry_of
from .transforms import random_transform


def _grade(puzzle: str) -> Grade | None:
    """The grade of a puzzle of one solution; None if it has none or several."""
    if kernel.count_solutions(puzzle, 2) != 1:
        return None
    steps, solved = solve_logically(Board.from_puzzle(puzzle))
    return grade_of(steps) if solved else None


# Techniques no puzzle made here is known to need, so none is sought: trial and error (search,
# not logic: no tier takes a puzzle that needs it, climb.py), and the nested forcing chains
# of level 2 (level 1 cracks every puzzle of the public hardest lists). Making puzzles until
# one needs them would hold a worker for minutes and find none.
UNSOUGHT = frozenset({GUESS, entry_of("nested_forcing_chain_2").name})

# Puzzles made at most for a technique with no start: an extreme one takes seconds.
MAKES = 60


def _made_until(
    technique: str, rng: random.Random, known: Container[str], tries: int
) -> Generated | None:
    """A technique with no start: new puzzles of its tier until one's solve needs it."""
    for _ in range(min(tries, MAKES)):
        made = make_puzzle(TIER_OF[technique], seed=rng)
        if technique in made.grade.techniques and canonical(made.puzzle) not in known:
            return made
    return None


def seek(
    technique: str,
    rng: random.Random,
    *,
    known: Container[str] = frozenset(),
    tries: int = TRIES,
) -> Generated | None:
    """A puzzle whose graded solve takes the technique's step (a name of the table), its
    canonical key not in `known`; None if the walk found none within `tries` moves."""
    if technique not in TIER_OF:
        raise ValueError(f"no technique named {technique!r}")
    if technique in UNSOUGHT:
        return None
    start = TECHNIQUE_STARTS.get(technique)
    if start is None:
        return _made_until(technique, rng, known, tries)
    # Shuffled and relabelled, a puzzle's solve may meet another step first: the start as
    # it is then.
    puzzle = random_transform(rng).apply(start)
    grade = _grade(puzzle)
    if grade is None or technique not in grade.techniques:
        puzzle, grade = start, _grade(start)
    if grade is None:
        return None
    if technique in grade.techniques and canonical(puzzle) not in known:
        return Generated(puzzle, kernel.solve(puzzle), grade)
    start_key, ceiling = canonical(puzzle), DIFFICULTIES.index(TIER_OF[technique])
    grid, kept = kernel.solve(puzzle), 0
    for _ in range(tries):
        candidate = neighbour(puzzle, grid, rng)
        there = _grade(candidate) if candidate != puzzle else None
        if there is None:
            continue
        had, has = technique in grade.techniques, technique in there.techniques
        if (had and not has) or (not had and DIFFICULTIES.index(there.difficulty) > ceiling):
            continue
        puzzle, grade, kept = candidate, there, kept + 1
        grid = kernel.solve(puzzle)
        if has and kept >= MOVES:
            key = canonical(puzzle)
            if key != start_key and key not in known:
                return Generated(puzzle, grid, grade)
    return None
