"""Climbing to the hardest tiers: a puzzle changed one given at a time.

Random digging rarely gives a puzzle that needs forcing chains, and almost never one that
needs dynamic or nested forcing. A puzzle whose solve needs trial and error (search) is of
no tier: a climb never keeps it. The climb starts from a hard puzzle; each move removes a
given, adds one from the solution grid, moves one to another cell, or now and then changes
a given's digit (the grid changes with it, so climbs drift away from their start's grid). A
move is kept when the puzzle still has one solution and its grade does not fall (the tier,
then the score), and never above the tier aimed at; at the top tier, once there, a move
that stays in it is kept whatever its score, so the puzzles made spread over the tier's
ratings instead of gathering at its top. Once the puzzle is of that tier and has moved far enough
from its start, and its canonical key is not among those known, it is the result.
"""

from __future__ import annotations

import random
from collections.abc import Container
from dataclasses import dataclass

from . import kernel
from .board import Board
from .canonical import canonical
from .grid import PEERS
from .logic import Grade, grade_of, solve_logically
from .techniques import DIFFICULTIES
from .techniques.table import entry_of

# Moves a climb keeps before it may stop: the result differs from its start in a handful
# of givens at least.
MOVES = 5
# Moves a climb tries before it gives up on its start.
TRIES = 400
FEWEST_GIVENS = 17

# The last resort of the solve, which no stored puzzle may need.
GUESS = entry_of("trial_and_error").name

# Starting points that are extreme already (nested forcing chains needed): from the Enjoy
# Sudoku forum's list of the hardest puzzles (Sudoku Explainer 11 and above), as in
# tests/data/hardest_200.txt. A climb from one of them walks among extreme puzzles.
EXTREME_STARTS = (
    "980700600750040000003008070500007030009400000000020100300000001090005080005200006",
    "980700600500080070007004000300006002008500090000040000010020300005400080000000001",
    "980700600760050000004006097800005079000320000000000100400000000090004068000500004",
    "000000001000001023003020400001050004060007500800900000002030040090008000600700000",
    "980700000760000800005000000400060030008900400000024001007600500000030040000001002",
    "980700600750060000006009000500400030020000094007090500100300000005070800000001002",
    "980700600700060080006000005800004003040300000009070800200001000090200010008090500",
    "120050009450000100009000000000600030005020400800007000004010200000003060070800000",
)


@dataclass(frozen=True)
class Standing:
    """How far up a puzzle stands: its tier's rank and score, with its grade, or only
    "beyond" (rank past the ceiling, grade None) when the tiers tried cannot solve it, or
    only by trial and error."""

    rank: int
    score: float
    grade: Grade | None


def standing(puzzle: str, difficulty: str) -> Standing:
    """Where a puzzle of one solution stands against the tier aimed at. For the top tier,
    a puzzle the tier below cannot finish is of it; its full grade is worked out then."""
    top = DIFFICULTIES.index(difficulty) == len(DIFFICULTIES) - 1
    ceiling = DIFFICULTIES[-2] if top else difficulty
    board = Board.from_puzzle(puzzle)
    steps, solved = solve_logically(board, ceiling)
    if not solved:
        if not top:
            return Standing(DIFFICULTIES.index(ceiling) + 1, 0.0, None)
        more, solved = solve_logically(board, difficulty)
        steps += more
    grade = grade_of(steps)
    if GUESS in grade.techniques:
        # Search, not logic: no tier stores a puzzle whose solve needs it.
        return Standing(len(DIFFICULTIES), 0.0, None)
    return Standing(DIFFICULTIES.index(grade.difficulty), grade.score, grade)


def neighbour(puzzle: str, grid: str, rng: random.Random) -> str:
    """The puzzle with one given removed, one added from the grid, one moved, or one's
    digit changed to another its peers allow."""
    givens = [c for c in range(81) if puzzle[c] != "0"]
    blanks = [c for c in range(81) if puzzle[c] == "0"]
    cells = list(puzzle)
    kind = rng.random()
    if kind < 0.1:
        cell = rng.choice(givens)
        taken = {puzzle[p] for p in PEERS[cell]} | {puzzle[cell]}
        allowed = [d for d in "123456789" if d not in taken]
        if allowed:
            cells[cell] = rng.choice(allowed)
    elif kind < 0.35 and len(givens) > FEWEST_GIVENS:
        cells[rng.choice(givens)] = "0"
    elif kind < 0.55 and blanks:
        cell = rng.choice(blanks)
        cells[cell] = grid[cell]
    elif blanks:
        cells[rng.choice(givens)] = "0"
        cell = rng.choice(blanks)
        cells[cell] = grid[cell]
    return "".join(cells)


def climb(
    start: str,
    difficulty: str,
    rng: random.Random,
    *,
    known: Container[str] = frozenset(),
    moves: int = MOVES,
    tries: int = TRIES,
) -> tuple[str, str, Grade] | None:
    """A puzzle of the tier reached from start (which has one solution), with its solution
    and grade; None if the climb stalls within `tries` moves. Its canonical key is neither
    the start's nor in `known`."""
    grid = kernel.solve(start)
    if grid is None:
        return None
    aim = DIFFICULTIES.index(difficulty)
    top = aim == len(DIFFICULTIES) - 1
    puzzle, here, kept = start, standing(start, difficulty), 0
    if here.rank > aim:
        return None
    start_key = canonical(start)
    for _ in range(tries):
        candidate = neighbour(puzzle, grid, rng)
        if candidate == puzzle or kernel.count_solutions(candidate, 2) != 1:
            continue
        there = standing(candidate, difficulty)
        wander = top and there.rank == here.rank == aim  # any score, within the top tier
        if there.rank > aim or ((there.rank, there.score) < (here.rank, here.score) and not wander):
            continue
        puzzle, here, kept = candidate, there, kept + 1
        grid = kernel.solve(puzzle)
        if here.rank == aim and kept >= moves:
            key = canonical(puzzle)
            if key != start_key and key not in known:
                return puzzle, grid, here.grade
    return None
