"""Engine speed: counting against the Norvig yardstick, cold start, generation, grading."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import engine
from engine import kernel
from engine.techniques import nested

from . import norvig
from .common import line, load, rate, rate_on

FILES = ["easy_kaggle_1000", "17clue_500", "top95", "hardest_200", "multi_solution_200"]
ROOT = Path(__file__).resolve().parent.parent
COUNT_GOAL = 50  # times the yardstick, on every file
COLD_GOAL = 1.0  # seconds from spawning a process to its first count answered
# puzzles/s; master at least one a second and extreme one a minute (issue 24)
MAKE_GOALS = {"easy": 100, "medium": 50, "hard": 2, "expert": 0.5, "master": 1.0, "extreme": 1 / 60}
MAKE_BUDGETS = {"extreme": 60.0}  # CPU seconds of making timed; 4 s for the others
# A hint on the hardest known puzzle's start (Easter Monster) within a second.
HINT_PUZZLE = "100000002090400050006000700050903000000070000000850040700000600030009080002000001"
HINT_WARM = "000000039000001005003050800008090006070002000100400000009080050020000600400700000"
HINT_GOAL = 1.0


def verdict(met: bool) -> str:
    """How a goal line ends."""
    return "met" if met else "MISSED"


def counting() -> None:
    """count_solutions against Norvig's solver on the same puzzles, per sample file."""
    engine.count_solutions(load("top95")[0])  # compile or load the kernel first
    for name in FILES:
        puzzles = load(name)
        yard, n = rate(lambda p: norvig.count_solutions(p, 2), puzzles, budget=4.0)
        ours = rate_on(lambda p: engine.count_solutions(p, 2), puzzles[:n] * max(1, 2000 // n))
        line(
            f"count {name}",
            f"{ours:,.0f}/s",
            f"norvig {yard:,.1f}/s",
            f"x{ours / yard:,.0f}",
            f"n={n}",
            f"goal >= {COUNT_GOAL}x: {verdict(ours / yard >= COUNT_GOAL)}",
        )


def locked_candidates() -> None:
    """The search propagating singles only, and singles plus locked candidates (the kernel's
    choice), at every node, on the same puzzles."""
    for name in FILES:
        digits = [kernel.to_digits(p) for p in load(name)]
        digits *= max(1, 1000 // len(digits))
        singles, locked = (
            rate_on(lambda d, level=level: kernel.count_digits(d, 2, level), digits)
            for level in (kernel.SINGLES, kernel.LOCKED)
        )
        line(
            f"search {name}",
            f"singles {singles:,.0f}/s",
            f"+locked {locked:,.0f}/s",
            f"x{locked / singles:,.2f}",
        )


def _first_answer(code: str) -> tuple[float, float]:
    """Seconds a fresh process takes to print its answer: timed inside it from its first
    line, and from outside from the spawn (interpreter start included, its exit not)."""
    start = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True
    ) as child:
        inside = float(child.stdout.readline())
        answered = time.perf_counter() - start
    if child.returncode:
        raise RuntimeError(f"the cold-start process failed ({child.returncode})")
    return inside, answered


def cold_start() -> None:
    """A fresh process, kernel cache on disk: import and answer the first count."""
    code = (
        "import time; t = time.perf_counter(); import engine; "
        f"engine.count_solutions({load('top95')[0]!r}); "
        "print(time.perf_counter() - t, flush=True)"
    )
    _first_answer(code)  # fills the kernel's cache on disk if it is not there yet
    inside, answered = min(_first_answer(code) for _ in range(3))
    line(
        "cold first count",
        f"{inside:.2f} s in process",
        f"{answered:.2f} s from spawn",
        f"goal < {COLD_GOAL:g} s: {verdict(answered < COLD_GOAL)}",
    )


def generation(tiers: Sequence[str] = ()) -> None:
    """make_puzzle per tier (or of the tiers named) on one core: the rate per second of the
    process's CPU time (what one core makes, however busy the machine), per minute for the
    slowest, and the rate on the wall clock beside it."""
    rng = random.Random(2026)
    for difficulty, goal in MAKE_GOALS.items():
        if tiers and difficulty not in tiers:
            continue
        budget = MAKE_BUDGETS.get(difficulty, 4.0)
        start, cpu = time.perf_counter(), time.process_time()
        made = 0
        while time.process_time() - cpu < budget or made < 3:
            engine.make_puzzle(difficulty, seed=rng)
            made += 1
        per_second = made / (time.process_time() - cpu)
        wall = made / (time.perf_counter() - start)
        unit, scale = ("min", 60) if goal < 0.1 else ("s", 1)
        line(
            f"make_puzzle {difficulty}",
            f"{per_second * scale:,.1f}/{unit} per core",
            f"wall {wall * scale:,.1f}/{unit}",
            f"x{per_second / goal:,.1f} the goal",
            f"n={made}",
            f"goal >= {goal * scale:g}/{unit}: {verdict(per_second >= goal)}",
        )


def hint() -> None:
    """A hint on the hardest known start (Easter Monster's, a nested forcing chain), found
    and told link by link (its level 3), each time worked out afresh (no position kept from
    the time before): the slowest of five."""
    engine.next_step(HINT_WARM)  # compile or load the kernels first
    times = []
    for _ in range(5):
        nested.forget()
        start = time.perf_counter()
        step = engine.next_step(HINT_PUZZLE)
        engine.tell(step, 3)
        times.append(time.perf_counter() - start)
    worst = max(times)
    line(
        "hint easter_monster",
        f"{worst * 1000:,.0f} ms worst",
        f"{step.technique}",
        "n=5",
        f"goal < {HINT_GOAL:g} s: {verdict(worst < HINT_GOAL)}",
    )


def grading() -> None:
    """grade on sample puzzles of every kind."""
    for name in ["easy_kaggle_1000", "top95", "hardest_200"]:
        per_second, n = rate(engine.grade, load(name), budget=3.0)
        line(f"grade {name}", f"{per_second:,.1f}/s", f"n={n}")


PARTS = {
    "counting": counting,
    "search": locked_candidates,
    "cold": cold_start,
    "generation": generation,
    "hint": hint,
    "grading": grading,
}


def main(options: Sequence[str] = ()) -> None:
    """Every engine figure, in one process; or only the parts named (counting, search, cold,
    generation, hint, grading), and of the generation only the tiers named: python -m bench
    engine master extreme hint."""
    unknown = [o for o in options if o not in PARTS and o not in MAKE_GOALS]
    if unknown:
        sys.exit(f"unknown option {unknown[0]!r}; choose from {', '.join([*PARTS, *MAKE_GOALS])}")
    tiers = [o for o in options if o in MAKE_GOALS]
    parts = [o for o in options if o in PARTS] or ([] if tiers else list(PARTS))
    print("== engine")
    for name, part in PARTS.items():
        if name == "generation" and tiers:
            generation(tiers)
        elif name in parts:
            part()
