"""Engine speed: counting against the Norvig yardstick, cold start, generation, grading."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import engine

from . import norvig
from .common import line, load, rate, rate_on

FILES = ["easy_kaggle_1000", "17clue_500", "top95", "hardest_200", "multi_solution_200"]
ROOT = Path(__file__).resolve().parent.parent


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
        )


def cold_start() -> None:
    """A fresh process, kernel cache on disk: import and answer the first count."""
    code = (
        "import time; t = time.perf_counter(); import engine; "
        f"engine.count_solutions({load('top95')[0]!r}); print(time.perf_counter() - t)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True, text=True
        )
        times.append((float(out.stdout), time.perf_counter() - start))
    inside, whole = min(times)
    line("cold first count", f"{inside:.2f} s", f"whole process {whole:.2f} s", "goal < 1 s")


def generation() -> None:
    """make_puzzle per tier, one core."""
    goals = {"easy": 100, "medium": 50, "hard": 2, "expert": 0.5}
    rng = random.Random(2026)
    for difficulty, goal in goals.items():
        start = time.perf_counter()
        made = 0
        while time.perf_counter() - start < 4.0 or made < 3:
            engine.make_puzzle(difficulty, seed=rng)
            made += 1
        per_second = made / (time.perf_counter() - start)
        line(
            f"make_puzzle {difficulty}",
            f"{per_second:,.1f}/s",
            f"goal {goal}/s",
            f"x{per_second / goal:,.1f}",
            f"n={made}",
        )


def grading() -> None:
    """grade on sample puzzles of every kind."""
    for name in ["easy_kaggle_1000", "top95", "hardest_200"]:
        per_second, n = rate(engine.grade, load(name), budget=3.0)
        line(f"grade {name}", f"{per_second:,.1f}/s", f"n={n}")


def main() -> None:
    """Every engine figure, in one process."""
    print("== engine")
    counting()
    cold_start()
    generation()
    grading()
