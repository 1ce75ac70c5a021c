"""The Sudoku engine: parse, solve, count, generate, dig, grade, hint and canonicalise.

Puzzles and grids are 81-character strings, row by row, '0' for a blank.
"""

from __future__ import annotations

from .board import Step
from .canonical import canonical
from .generator import Generated, dig, make_puzzle, random_grid
from .grid import InvalidPuzzle, is_solution, parse
from .hints import next_step
from .kernel import count_solutions, solve
from .logic import Grade, grade
from .techniques import DIFFICULTIES

__all__ = [
    "DIFFICULTIES",
    "Generated",
    "Grade",
    "InvalidPuzzle",
    "Step",
    "canonical",
    "count_solutions",
    "dig",
    "grade",
    "is_solution",
    "make_puzzle",
    "next_step",
    "parse",
    "random_grid",
    "solve",
]
