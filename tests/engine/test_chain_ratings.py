"""Chains rated by their length, as Sudoku Explainer rates them, so scores spread."""

from __future__ import annotations

import engine
from engine.techniques.chains import length_increment
from engine.techniques.forcing import TOP_FORCING_RATING
from engine.techniques.table import TABLE

from .helpers import load

BASE = {e.name: e.rating for e in TABLE}


def test_the_length_increment_follows_sudoku_explainers_steps():
    # Nothing up to 4 nodes, then 0.1 more past each of 4, 6, 8, 12, 16, 24, 32, 48.
    expected = {2: 0, 4: 0, 5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 12: 3, 13: 4, 16: 4, 17: 5, 24: 5}
    expected |= {25: 6, 32: 6, 33: 7, 48: 7, 49: 8}
    assert {n: round(length_increment(n) * 10) for n in expected} == expected


def test_chain_steps_are_rated_from_their_technique_up_and_scores_spread():
    ratings = set()
    scores = set()
    for puzzle in load("top95")[:25]:
        g = engine.grade(puzzle)
        scores.add(g.score)
        for s in g.steps:
            if s.technique.endswith("Chain"):
                base = BASE[s.technique]
                assert base <= s.rating <= max(base + 0.9, TOP_FORCING_RATING)
                if s.technique == "Forcing Chain":
                    assert s.rating <= TOP_FORCING_RATING
                ratings.add(s.rating)
    assert len(ratings) >= 6
    assert len({s for s in scores if s >= 6.5}) >= 5
