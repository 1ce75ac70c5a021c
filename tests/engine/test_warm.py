"""Warming up: once a new process has called warm_up(), the solves, hints, grades and digs
of a day's play load nothing more; without it, the first of them would."""

from __future__ import annotations

import json
import subprocess
import sys

from sudokusite.processes import ROOT

# A day's work in a new process: the compiled specialisations loaded before and after it.
WORK = """
import json, random, sys
import engine
from engine import kernel
from numba.core.registry import CPUDispatcher

def loaded():
    return sum(len(f.signatures) for f in vars(kernel).values() if isinstance(f, CPUDispatcher))

if sys.argv[1] == "warm":
    engine.warm_up()
before = loaded()
rng = random.Random(7)
for difficulty in ("easy", "medium", "hard", "expert"):
    puzzle = engine.make_puzzle(difficulty, seed=rng).puzzle
    solution = engine.solve(puzzle)
    engine.grade(puzzle)
    engine.solution_path(puzzle)
    empty = [c for c, ch in enumerate(puzzle) if ch == "0"]
    wrong = puzzle[: empty[0]] + str(int(solution[empty[0]]) % 9 + 1) + puzzle[empty[0] + 1 :]
    for board, notes in ((wrong, [[] for _ in range(81)]), (puzzle, engine.candidates(puzzle))):
        step = engine.next_step(board, notes, puzzle=puzzle, complete=[bool(n) for n in notes])
        engine.tell(step, 1)
print(json.dumps([before, loaded()]))
"""


def kernels_loaded(mode: str) -> tuple[int, int]:
    """Compiled kernels loaded in a new process before and after a day's work."""
    out = subprocess.run(
        [sys.executable, "-c", WORK, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    before, after = json.loads(out.strip().splitlines()[-1])
    return before, after


def test_after_warm_up_a_days_play_loads_no_more_compiled_code():
    before, after = kernels_loaded("warm")
    assert before > 0
    assert after == before


def test_without_warm_up_the_first_solve_and_hint_load_the_kernels_themselves():
    before, after = kernels_loaded("cold")
    assert (before, after > before) == (0, True)
