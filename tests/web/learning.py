"""Stored puzzles whose solves between them need every technique of the grader's table,
for the technique guide's tests (web, tasks and browser)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import engine
from puzzles.models import Puzzle
from puzzles.pools import stock

POSITIONS = Path(__file__).resolve().parents[1] / "engine" / "technique_positions.json"


@functools.cache
def _made() -> tuple[engine.Generated, ...]:
    """The puzzles the engine's technique fixtures were found in, graded once a session."""
    puzzles = sorted({entry["puzzle"] for entry in json.loads(POSITIONS.read_text())})
    return tuple(engine.Generated(p, engine.solve(p), engine.grade(p)) for p in puzzles)


def covered_slugs() -> set[str]:
    """The guide's pages whose technique these puzzles' solves meet: all but the rare ones
    tested on public example positions instead (tests/engine/public_examples.py)."""
    from engine.techniques.table import TABLE

    met = {entry["technique"] for entry in json.loads(POSITIONS.read_text())}
    return {e.slug for e in TABLE if e.name in met}


def store_technique_puzzles(*tiers: str) -> list[Puzzle]:
    """Store them (those of the tiers given, or all) as pool puzzles, fresh."""
    made = [m for m in _made() if not tiers or m.grade.difficulty in tiers]
    stock.insert_new([stock.puzzle_row(m) for m in made])
    return list(Puzzle.objects.filter(givens__in=[m.puzzle for m in made]))
