"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def load(name: str) -> list[str]:
    """The puzzles of a sample file, '.' turned into '0'."""
    return [line.replace(".", "0") for line in (DATA / f"{name}.txt").read_text().split()]


def rate(
    work: Callable[[str], object], items: Sequence[str], budget: float = 3.0
) -> tuple[float, int]:
    """Items per second over the first items that fit in the time budget, and how many."""
    start = time.perf_counter()
    done = 0
    for item in items:
        work(item)
        done += 1
        if time.perf_counter() - start > budget:
            break
    return done / (time.perf_counter() - start), done


def rate_on(work: Callable[[str], object], items: Sequence[str]) -> float:
    """Items per second over exactly these items."""
    start = time.perf_counter()
    for item in items:
        work(item)
    return len(items) / (time.perf_counter() - start)


def line(*fields: object) -> None:
    """One result line, fields padded into columns."""
    print("  ".join(f"{f:<26}" if i == 0 else f"{f:<18}" for i, f in enumerate(fields)), flush=True)
