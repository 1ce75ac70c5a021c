"""Full grids, the digger and the puzzle maker: unique solutions and the tier asked for."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.climb import EXTREME_STARTS, climb

from .helpers import valid_solution

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
MIRRORS = {
    "rotational": lambda r, c: (8 - r, 8 - c),
    "diagonal": lambda r, c: (c, r),
    "mirror": lambda r, c: (r, 8 - c),
}


@given(SEEDS)
@settings(max_examples=50, deadline=None)
def test_random_grids_are_valid_and_the_seed_repeats_them(seed):
    grid = engine.random_grid(seed)
    assert valid_solution(grid, "0" * 81)
    assert engine.random_grid(seed) == grid


def test_random_grids_differ_without_a_seed():
    assert len({engine.random_grid() for _ in range(20)}) == 20


@given(SEEDS, st.sampled_from(["none", "rotational", "diagonal", "mirror"]))
@settings(max_examples=40, deadline=None)
def test_dig_keeps_one_solution_and_the_symmetry(seed, symmetry):
    grid = engine.random_grid(seed)
    puzzle = engine.dig(grid, symmetry=symmetry, seed=seed)
    assert engine.count_solutions(puzzle) == 1
    assert engine.solve(puzzle) == grid
    if symmetry in MIRRORS:
        for cell in range(81):
            r, c = MIRRORS[symmetry](cell // 9, cell % 9)
            assert (puzzle[cell] == "0") == (puzzle[r * 9 + c] == "0")


@given(SEEDS, st.integers(min_value=17, max_value=60))
@settings(max_examples=30, deadline=None)
def test_dig_stops_at_the_target_number_of_givens(seed, target):
    grid = engine.random_grid(seed)
    puzzle = engine.dig(grid, target_clues=target, symmetry="none", seed=seed)
    givens = 81 - puzzle.count("0")
    assert engine.count_solutions(puzzle) == 1
    assert givens >= target
    if target >= 40:  # far from minimal, the digger always gets all the way down
        assert givens == target


def test_dig_with_no_target_leaves_a_minimal_puzzle():
    puzzle = engine.dig(engine.random_grid(7), symmetry="none", seed=7)
    for cell, ch in enumerate(puzzle):
        if ch != "0":
            fewer = puzzle[:cell] + "0" + puzzle[cell + 1 :]
            assert engine.count_solutions(fewer) == 2


def test_dig_refuses_what_is_not_a_full_grid():
    with pytest.raises(engine.InvalidPuzzle, match="complete"):
        engine.dig("0" * 81)
    with pytest.raises(ValueError, match="symmetry"):
        engine.dig(engine.random_grid(1), symmetry="spiral")
    with pytest.raises(ValueError, match="target_clues"):
        engine.dig(engine.random_grid(1), target_clues=5)


# Extreme puzzles take the generator seconds: a few seeds of their own below.
@pytest.mark.parametrize("difficulty", engine.DIFFICULTIES[:-1])
@given(seed=SEEDS)
@settings(max_examples=15, deadline=None)
def test_make_puzzle_gives_one_solution_and_the_tier_asked_for(difficulty, seed):
    _is_made_as_asked(engine.make_puzzle(difficulty, seed=seed), difficulty)


@pytest.mark.parametrize("seed", [1, 2])
def test_extreme_puzzles_are_climbed_to_and_new(seed):
    made = engine.make_puzzle("extreme", seed=seed)
    _is_made_as_asked(made, "extreme")
    assert made.grade.score >= 9.0
    starts = {engine.canonical(p) for p in EXTREME_STARTS}
    assert engine.canonical(made.puzzle) not in starts


def test_a_climb_reaches_the_tier_aimed_at_with_a_new_puzzle():
    rng = random.Random(3)
    start = engine.make_puzzle("expert", seed=rng).puzzle
    found = climb(start, "master", rng, tries=2000)
    assert found is not None
    puzzle, grid, grade = found
    assert engine.count_solutions(puzzle) == 1 and engine.solve(puzzle) == grid
    assert grade.difficulty == "master" == engine.grade(puzzle).difficulty
    assert engine.canonical(puzzle) != engine.canonical(start)
    assert climb(start, "master", random.Random(3), known={engine.canonical(puzzle)}) != found


def _is_made_as_asked(made: engine.Generated, difficulty: str) -> None:
    assert engine.count_solutions(made.puzzle) == 1
    assert valid_solution(made.solution, made.puzzle)
    assert made.grade.difficulty == difficulty
    again = engine.grade(made.puzzle)
    assert (again.difficulty, again.score, again.techniques) == (
        made.grade.difficulty,
        made.grade.score,
        made.grade.techniques,
    )


def test_make_puzzle_is_repeatable_with_a_seed_and_honours_symmetry():
    a = engine.make_puzzle("hard", seed=11, symmetry="mirror")
    assert engine.make_puzzle("hard", seed=11, symmetry="mirror").puzzle == a.puzzle
    for cell in range(81):
        r, c = cell // 9, cell % 9
        assert (a.puzzle[cell] == "0") == (a.puzzle[r * 9 + 8 - c] == "0")


def test_easy_puzzles_leave_players_a_friendly_number_of_givens():
    for seed in range(20):
        givens = 81 - engine.make_puzzle("easy", seed=seed).puzzle.count("0")
        assert 32 <= givens <= 40


def test_make_puzzle_refuses_unknown_tiers():
    with pytest.raises(ValueError, match="difficulty"):
        engine.make_puzzle("impossible")
