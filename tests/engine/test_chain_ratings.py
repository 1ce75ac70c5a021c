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


# Generated extreme puzzles whose hardest step is a dynamic forcing chain (made by
# engine.make_puzzle("extreme", seed=2..15)): each of those chains was rated 9.0.
DYNAMIC = (
    "040000708002800104000000020070100040000090007280400010020600473600005000000003600",
    "002600400600009020050000060000070300003250040100000802006800004500007080010090000",
    "006890005000400010000001200000008400500200080009060003007000030900070000650000007",
    "025070000700004000003000070000600001000001800300040050000800029200009600500420030",
    "040300900700002001000000027010038004000019800008400000500060000106003050030900100",
    "000000002090007600003056080004003200050602040080040003000001000100900007008030020",
    "003620900910003000000090030047060008006002090000800400001006020000070005500000700",
    "800060900030001080006900000000500402010003070500020000100004008308100040040000700",
)


def test_dynamic_forcing_chains_are_rated_by_their_length_so_extreme_scores_spread():
    """Sudoku Explainer rates a dynamic forcing chain (singles, locked candidates and pairs
    followed) from 9.0 up by its length, the conclusions its ends rest on, as it rates the
    other chains: the extreme tier's scores spread rather than all read 9.0."""
    scores = []
    for puzzle in DYNAMIC:
        g = engine.grade(puzzle)
        dynamic = [s for s in g.steps if s.technique == "Dynamic Forcing Chain"]
        assert dynamic, puzzle
        for s in dynamic:
            assert 9.0 <= s.rating <= 9.0 + 1.2, (puzzle, s.rating)
        assert g.difficulty == "extreme" and g.score >= 9.0
        scores.append(g.score)
    assert len(set(scores)) >= 3, scores
    assert max(scores) > 9.0, scores
