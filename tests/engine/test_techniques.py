"""Every technique on a position where it is the easiest step, with the expected result;
and on whole solves, every step sound and the score rising with the tier."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import cell_name
from engine.techniques import LADDER, TIER_RANK

from .helpers import load
from .public_examples import EXAMPLES
from .test_nested import TESTED_HERE

POSITIONS = json.loads(Path(__file__).with_name("technique_positions.json").read_text())


def _notes(case: dict) -> list[list[int]]:
    return [[int(d) for d in digits] for digits in case["candidates"]]


def test_the_positions_cover_every_technique_of_the_ladder():
    # The techniques past the basic ones are tested on public examples instead (and here
    # too, when the samples' solves meet them); those no sample needs, in test_nested.py.
    covered = {c["technique"] for c in POSITIONS} | {e.technique for e in EXAMPLES}
    assert covered | TESTED_HERE == {t.name for t in LADDER}


@pytest.mark.parametrize("case", POSITIONS, ids=lambda c: f"{c['technique']} {c['rating']}")
def test_technique_is_the_easiest_step_with_the_expected_result(case):
    step = engine.next_step(case["grid"], _notes(case), puzzle=case["puzzle"])
    assert (step.technique, step.rating) == (case["technique"], case["rating"])
    assert sorted(map(list, step.eliminations)) == sorted(case["eliminations"])
    assert sorted(map(list, step.placements)) == sorted(case["placements"])


@pytest.mark.parametrize("case", POSITIONS, ids=lambda c: f"{c['technique']} {c['rating']}")
def test_step_is_sound_and_explained_with_the_cells_it_changes(case):
    solution = engine.solve(case["puzzle"])
    step = engine.next_step(case["grid"], _notes(case), puzzle=case["puzzle"], compact=True)
    for cell, digit in step.placements:
        assert solution[cell] == str(digit)
    for cell, digit in step.eliminations:
        assert solution[cell] != str(digit)
    for cell, _ in [*step.placements, *step.eliminations]:
        assert cell_name(cell) in step.explanation
    assert step.region and step.cells


def _is_sound(puzzle: str) -> None:
    solution = engine.solve(puzzle)
    g = engine.grade(puzzle)
    for step in g.steps:
        assert all(solution[c] == str(d) for c, d in step.placements), step.explanation
        assert all(solution[c] != str(d) for c, d in step.eliminations), step.explanation
    assert max(s.rating for s in g.steps) == g.score


@pytest.mark.parametrize("name", ["top95", "hardest_200"])
def test_every_step_on_the_hard_samples_is_sound(name):
    for puzzle in load(name)[:60]:
        _is_sound(puzzle)


@given(st.sampled_from(["hard", "expert"]), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_every_step_on_generated_puzzles_is_sound(difficulty, seed):
    _is_sound(engine.make_puzzle(difficulty, seed=seed).puzzle)


def test_ratings_rise_with_the_tiers_so_a_harder_technique_never_scores_less():
    order = sorted(LADDER, key=lambda t: (TIER_RANK[t.tier], t.rating))
    assert list(order) == list(LADDER)
    ratings = [t.rating for t in order]
    assert ratings == sorted(ratings)


def test_master_and_extreme_sit_where_sudoku_explainer_rates_forcing():
    # Master: forcing chains and nets, about 7.5-8.9 in Sudoku Explainer; extreme: dynamic
    # or nested forcing, 9.0 and above.
    for technique in LADDER:
        if technique.tier == "master":
            assert 7.5 <= technique.rating < 9.0, technique.name
        if technique.tier == "extreme":
            assert technique.rating >= 9.0, technique.name
        if TIER_RANK[technique.tier] < TIER_RANK["master"]:
            assert technique.rating < 9.0, technique.name
    assert {t.tier for t in LADDER} == set(engine.DIFFICULTIES)


def test_scores_of_graded_samples_never_fall_as_the_tier_rises():
    graded = [engine.grade(p) for p in load("top95")[:40] + load("17clue_500")[:40]]
    graded += [engine.make_puzzle(d, seed=1).grade for d in engine.DIFFICULTIES]
    for a in graded:
        for b in graded:
            if TIER_RANK[a.difficulty] > TIER_RANK[b.difficulty]:
                assert a.score >= b.score


def test_grade_reports_the_techniques_it_used():
    g = engine.grade(load("top95")[0])
    assert sum(g.techniques.values()) == len(g.steps)
    assert g.score == max(s.rating for s in g.steps)
    assert all(s.explanation for s in g.steps)
