"""The Sudoku engine: parse, solve, count, generate, dig, grade, hint and canonicalise,
find the grids near a puzzle,
and the board's rules the site shares (units, peers, cell names, candidates).

Puzzles and grids are 81-character strings, row by row, '0' for a blank.
"""

from __future__ import annotations

from .board import Board, Step
from .canonical import canonical, grid_print
from .climb import EXTREME_STARTS
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
from .i18n import speaking, use_language_of
from .kernel import count_solutions, solve
from .logic import Grade, PathStep, grade, solution_path
from .nearby import NEAR_LIMIT, NEAR_MOST, near_grids, solutions
from .seek import UNSOUGHT, seek
from .techniques import DIFFICULTIES
from .techniques.table import TABLE as TECHNIQUES
from .techniques.table import Entry, entry_for, told_entry
from .warm import warm_up
from .wording import place

__all__ = [
    "DIFFICULTIES",
    "EXTREME_STARTS",
    "NEAR_LIMIT",
    "NEAR_MOST",
    "PEERS",
    "TECHNIQUES",
    "UNITS",
    "UNSOUGHT",
    "Board",
    "Entry",
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
    "entry_for",
    "grade",
    "grid_print",
    "is_solution",
    "make_puzzle",
    "near_grids",
    "next_step",
    "parse",
    "place",
    "random_grid",
    "seek",
    "solution_path",
    "solutions",
    "solve",
    "speaking",
    "tell",
    "told_entry",
    "use_language_of",
    "warm_up",
]
