"""Seeking puzzles whose solve needs a technique, for the guide's examples."""

from __future__ import annotations

import random
import sys
import time

import pytest

import engine
from engine.starts import TECHNIQUE_STARTS


@pytest.mark.parametrize("technique", sorted(TECHNIQUE_STARTS))
def test_each_start_needs_its_technique(technique):
    assert technique in engine.grade(TECHNIQUE_STARTS[technique]).techniques


@pytest.mark.parametrize("technique", ["Jellyfish", "Forcing Chain", "Nested Forcing Chain"])
def test_seek_gives_a_new_puzzle_whose_solve_needs_the_technique(technique):
    rng = random.Random(4)
    first = engine.seek(technique, rng)
    again = engine.seek(technique, rng, known={engine.canonical(first.puzzle)})
    for made in (first, again):
        assert engine.count_solutions(made.puzzle) == 1
        assert engine.solve(made.puzzle) == made.solution
        assert technique in engine.grade(made.puzzle).techniques
    assert engine.canonical(again.puzzle) != engine.canonical(first.puzzle)


@pytest.mark.parametrize("technique", ["Trial and Error", "Nested Forcing Chain (level 2)"])
def test_no_puzzle_is_sought_for_what_no_puzzle_made_is_known_to_need(technique):
    # No stored puzzle may need trial and error, and none is known to need the level 2
    # nested chains: seek answers at once instead of making puzzles for minutes.
    start = time.perf_counter()
    assert engine.seek(technique, random.Random(1)) is None
    assert time.perf_counter() - start < 1.0


def test_seek_refuses_a_technique_it_does_not_know():
    with pytest.raises(ValueError, match="no technique"):
        engine.seek("Guessing Wildly", random.Random(1))


def test_a_technique_with_no_start_is_sought_in_new_puzzles_of_its_tier(monkeypatch):
    seeking = sys.modules["engine.seek"]
    monkeypatch.setattr(seeking, "TECHNIQUE_STARTS", {})
    made = engine.seek("Swordfish", random.Random(2))
    assert made is not None
    assert "Swordfish" in engine.grade(made.puzzle).techniques
