"""The Sudoku engine: parse, solve, count, generate, dig, grade, hint and canonicalise,
and the board's rules the site shares (units, peers, cell names, candidates).

Puzzles and grids are 81-character strings, row by row, '0' for a blank.
"""

from __future__ import annotations

from .board import Board, Step
from .canonical import canonical
from .generator import Generated, dig, make_puzzle, random_grid
from .grid import (
    PEERS,
    UNITS,
    InvalidPuzzle,
    candidates,
    cell_name,
    conflicts,
    is_solution,
    parse,
)
from .hints import next_step, tell
from .kernel import count_solutions, solve
from .logic import Grade, PathStep, grade, solution_path
from .techniques import DIFFICULTIES
from .wording import place

__all__ = [
    "DIFFICULTIES",
    "PEERS",
    "UNITS",
    "Board",
    "Generated",
    "Grade",
    "InvalidPuzzle",
    "PathStep",
    "Step",
    "candidates",
    "canonical",
    "cell_name",
    "conflicts",
    "count_solutions",
    "dig",
    "grade",
    "is_solution",
    "make_puzzle",
    "next_step",
    "parse",
    "place",
    "random_grid",
    "solution_path",
    "solve",
    "tell",
]
