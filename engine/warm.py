"""Warming the engine up. A new process loads the compiled kernels (from numba's cache on
disk, or compiles them) on its first solve, hint or dig: 0.2-0.8 s that the first player
of a new web process, or the first refill of a new worker, would wait for. A process that
calls warm_up() when it starts pays it before anyone asks."""

from __future__ import annotations

import time

import numpy as np

from . import kernel
from .board import Board
from .generator import dig
from .grid import candidates, conflicts
from .hints import next_step, tell
from .logic import grade
from .techniques import nested

# A 17-clue puzzle: its search goes deep enough to reach every branch of the kernels.
PUZZLE = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
# An easy one, graded in a few milliseconds.
EASY = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"


def warm_up() -> float:
    """Every compiled kernel called once, from each entry the site and the workers use (the
    solver, the hint's search and forcing chains, nested ones too, the digger, the grader),
    on small samples; the seconds it took."""
    began = time.perf_counter()
    solution = kernel.solve(PUZZLE)
    kernel.count_solutions(PUZZLE, 2)
    for level in (kernel.SINGLES, kernel.MEDIUM):
        kernel.solvable(kernel.to_digits(PUZZLE), level)
        cand = np.full(81, kernel.ALL, np.int32)
        kernel.propagate(cand, level)
        kernel.placed(cand)
    dig(solution, target_clues=30, seed=1)
    candidates(PUZZLE)
    conflicts(PUZZLE)
    nested.nested_forcing_chain(Board.from_puzzle(PUZZLE))  # the nested chains' kernels
    nested.warm()  # and the one their telling calls
    step = next_step(PUZZLE, [[] for _ in range(81)], puzzle=PUZZLE)
    for level in (1, 2, 3):
        tell(step, level)
    grade(EASY)
    return time.perf_counter() - began
