"""The public sample files: solved, counted and graded as the public scales say."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.techniques import LADDER

from .helpers import load, valid_solution

UNIQUE = ["easy_kaggle_1000", "17clue_500", "top95", "hardest_200"]


@pytest.mark.parametrize("name", UNIQUE)
def test_every_sample_solves_to_a_valid_grid_with_one_solution(name):
    for puzzle in load(name):
        solution = engine.solve(puzzle)
        assert valid_solution(solution, puzzle), puzzle
        assert engine.count_solutions(puzzle) == 1, puzzle


def test_kaggle_solutions_match_the_published_ones():
    published = load("easy_kaggle_1000_solutions")
    assert [engine.solve(p) for p in load("easy_kaggle_1000")] == published


def test_multi_solution_samples_count_two_and_stop_at_the_limit():
    for puzzle in load("multi_solution_200"):
        assert engine.count_solutions(puzzle) == 2, puzzle
        assert engine.count_solutions(puzzle, limit=1) == 1
        assert engine.count_solutions(puzzle, limit=5) >= 2
        assert valid_solution(engine.solve(puzzle), puzzle)


def test_a_puzzle_with_clashing_givens_or_a_dead_end_has_no_solution():
    assert engine.count_solutions("11" + "0" * 79) == 0
    assert engine.solve("11" + "0" * 79) is None
    # Row 1 needs a 9 but column 9 already has one: no solution though no givens clash.
    dead_end = "12345678" + "0" * 9 + "0" * 8 + "9" + "0" * 55
    assert engine.count_solutions(dead_end) == 0


def test_the_empty_grid_has_many_solutions():
    assert engine.count_solutions("0" * 81, limit=50) == 50


@pytest.mark.slow
def test_every_kaggle_puzzle_grades_easy():
    for puzzle in load("easy_kaggle_1000"):
        assert engine.grade(puzzle).difficulty == "easy", puzzle


@pytest.mark.slow
def test_every_hardest_puzzle_grades_extreme():
    for puzzle in load("hardest_200"):
        g = engine.grade(puzzle)
        assert g.difficulty == "extreme", puzzle
        assert g.score >= 9.0


# Lines of hardest_200 (counted from 0) whose grade needs more than every chain: picked by
# grading the file, where each puzzle needs trial and error one to four times.
BEYOND_CHAINS = [26, 36, 53, 97, 192]
TOP_CHAIN_RATING = max(t.rating for t in LADDER if t.name.endswith("Chain"))


@pytest.mark.parametrize("index", BEYOND_CHAINS)
def test_a_puzzle_even_chains_cannot_crack_is_extreme_and_scored_above_every_chain(index):
    puzzle = load("hardest_200")[index]
    g = engine.grade(puzzle)
    assert g.difficulty == "extreme"
    assert g.score > TOP_CHAIN_RATING
    grid = list(puzzle)
    for step in g.steps:
        for cell, digit in step.placements:
            assert grid[cell] == "0"
            grid[cell] = str(digit)
    assert "".join(grid) == engine.solve(puzzle)


@given(st.integers(0, 2**32 - 1), st.integers(17, 30))
@settings(max_examples=25, deadline=None)
def test_any_puzzle_with_one_solution_grades_to_the_end(seed, target):
    puzzle = engine.dig(engine.random_grid(seed), target_clues=target, symmetry="none", seed=seed)
    g = engine.grade(puzzle)
    assert g.difficulty in engine.DIFFICULTIES
    placed = {cell: digit for step in g.steps for cell, digit in step.placements}
    solution = engine.solve(puzzle)
    assert placed == {c: int(solution[c]) for c in range(81) if puzzle[c] == "0"}


def test_is_solution_is_false_for_a_puzzle_of_the_wrong_length():
    puzzle, solution = load("easy_kaggle_1000")[0], load("easy_kaggle_1000_solutions")[0]
    assert engine.is_solution(solution, puzzle)
    assert not engine.is_solution(solution, puzzle[:80])
    assert not engine.is_solution(solution, puzzle + "0")
    assert not engine.is_solution(solution[:80], puzzle)
