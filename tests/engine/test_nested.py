"""Nested forcing chains: the hardest known puzzles graded by logic, on Sudoku Explainer's
scale, and no stored tier taking a puzzle that needs trial and error."""

from __future__ import annotations

import random
import sys
import time

import pytest

import engine
from engine.board import Board
from engine.climb import EXTREME_STARTS, climb, standing
from engine.techniques.table import TABLE

from .helpers import valid_solution

# The famous hardest puzzles, with the rating Sudoku Explainer 1.2.1 publishes for them.
EASTER_MONSTER = (
    # Easter Monster (JPF, 2007), Sudopedia's and the Enjoy Sudoku forum's hardest lists:
    # SE 11.9.
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
)
GOLDEN_NUGGET = (
    # Golden Nugget (tarek, 2007), the same lists: SE 11.9.
    ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7....."
)
AI_ESCARGOT = (
    # AI Escargot (Arto Inkala, 2006), the same lists: SE 10.5.
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
)
FAMOUS = {"Easter Monster": (EASTER_MONSTER, 11.9), "Golden Nugget": (GOLDEN_NUGGET, 11.9)}

NESTED = {e.name for e in TABLE if e.finder.startswith("nested_forcing_chain")}


@pytest.mark.parametrize("name", sorted(FAMOUS))
def test_the_hardest_known_puzzles_are_graded_by_logic_near_their_published_rating(name):
    puzzle, published = FAMOUS[name]
    assert engine.count_solutions(puzzle) == 1
    grade = engine.grade(puzzle)
    assert grade.difficulty == "extreme"
    assert "Trial and Error" not in grade.techniques
    assert NESTED & set(grade.techniques)
    assert abs(grade.score - published) <= 0.5
    board = Board.from_puzzle(engine.parse(puzzle))
    for step in grade.steps:
        board.apply(step)
    assert valid_solution(board.grid(), engine.parse(puzzle))


def test_ai_escargot_is_graded_by_logic_above_its_published_rating():
    # SE rates it 10.5; the length counted here is every consequence of the assumption, not
    # only those the contradiction rests on, so its nested chain rates higher (see
    # docs/engine.md).
    assert engine.count_solutions(AI_ESCARGOT) == 1
    grade = engine.grade(AI_ESCARGOT)
    assert "Trial and Error" not in grade.techniques
    assert NESTED & set(grade.techniques)
    assert 10.5 <= grade.score <= 11.5


def test_easter_monsters_first_hint_is_a_nested_chain_and_quick():
    puzzle = engine.parse(EASTER_MONSTER)
    engine.next_step(engine.parse(GOLDEN_NUGGET))  # the kernels compiled or loaded first
    start = time.perf_counter()
    step = engine.next_step(puzzle)
    assert time.perf_counter() - start < 1.0
    assert step.technique in NESTED
    solution = engine.solve(puzzle)
    for cell, digit in step.eliminations:
        assert solution[cell] != str(digit)
    for cell, digit in step.placements:
        assert solution[cell] == str(digit)


def test_nested_chains_rate_from_9_5_and_the_dynamic_chains_from_9_0_by_length():
    steps = engine.grade(EASTER_MONSTER).steps + engine.grade(AI_ESCARGOT).steps
    nested = [s.rating for s in steps if s.technique in NESTED]
    dynamic = [s.rating for s in steps if s.technique == "Dynamic Forcing Chain"]
    assert nested and dynamic
    assert min(nested) >= 9.5 and max(nested) < 12.0
    assert min(dynamic) >= 9.0 and max(dynamic) <= 10.2  # 9.0 and the length's increment


@pytest.mark.parametrize("start", EXTREME_STARTS)
def test_the_climbs_starts_need_no_trial_and_error(start):
    assert "Trial and Error" not in engine.grade(start).techniques


def _without_nested_chains(monkeypatch) -> None:
    nested = sys.modules["engine.techniques.nested"]
    monkeypatch.setattr(nested, "LEVELS", ())


def test_a_puzzle_that_needs_trial_and_error_stands_past_the_extreme_tier(monkeypatch):
    _without_nested_chains(monkeypatch)
    start = EXTREME_STARTS[0]
    assert "Trial and Error" in engine.grade(start).techniques
    assert standing(start, "extreme").rank > engine.DIFFICULTIES.index("extreme")


def test_a_climb_never_gives_a_puzzle_that_needs_trial_and_error(monkeypatch):
    _without_nested_chains(monkeypatch)
    for start in EXTREME_STARTS[:2]:
        found = climb(start, "extreme", random.Random(5), tries=30)
        assert found is None or "Trial and Error" not in found[2].techniques


def test_trial_and_error_is_left_for_what_the_nested_chains_cannot_do(monkeypatch):
    puzzle = EXTREME_STARTS[0]
    assert engine.next_step(puzzle).technique in NESTED
    _without_nested_chains(monkeypatch)
    step = engine.next_step(puzzle)
    assert step.technique == "Trial and Error"
    ((cell, digit),) = step.placements
    assert engine.solve(puzzle)[cell] == str(digit)


def test_level_2_follows_its_inner_chains_further(monkeypatch):
    # No puzzle of the public hardest lists needs level 2 (level 1 cracks them all): it is
    # seen on Easter Monster's start with level 1 switched off.
    monkeypatch.setattr(sys.modules["engine.techniques.nested"], "LEVELS", (2,))
    puzzle = engine.parse(EASTER_MONSTER)
    step = engine.next_step(puzzle)
    assert step.technique == "Nested Forcing Chain (level 2)"
    assert step.rating >= 10.5
    solution = engine.solve(puzzle)
    assert step.eliminations or step.placements
    for cell, digit in step.eliminations:
        assert solution[cell] != str(digit)
    for cell, digit in step.placements:
        assert solution[cell] == str(digit)


# The techniques tested here rather than on the positions of technique_positions.json: no
# puzzle of the samples needs them.
TESTED_HERE = {"Nested Forcing Chain (level 2)", "Trial and Error"}


def test_made_extreme_puzzles_spread_over_the_tier():
    # A climb that only rises gathers its puzzles at the top of the scale (all 11.x from
    # the hardest starts), as search once gathered them at 10.0.
    rng = random.Random(7)
    scores = [engine.make_puzzle("extreme", seed=rng).grade.score for _ in range(6)]
    assert min(scores) < 10.0 <= max(scores)
