"""The techniques past the basic ones, each on public example positions where it is the
easiest step: the step the source gives, right against the solution, and told in three
levels with the cause marked apart from the cells that change."""

from __future__ import annotations

import pytest

import engine
from engine import cell_name

from .public_examples import EXAMPLES

IDS = [f"{e.technique} ({e.source})" for e in EXAMPLES]


def _step(example, compact=False):
    puzzle, grid, notes = example.position()
    return engine.next_step(grid, notes, puzzle=puzzle, compact=compact)


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_the_technique_is_the_easiest_step_and_finds_what_the_source_finds(example):
    step = _step(example)
    assert step.technique == example.technique
    if example.technique == "BUG+1":
        # The source takes the other candidates out of the cell; placing the one left is
        # the same step.
        _, _, notes = example.position()
        ((cell, digit),) = step.placements
        assert sorted((cell, d) for d in notes[cell] if d != digit) == example.eliminations()
    else:
        assert sorted(step.eliminations) == example.eliminations()
        assert sorted(step.placements) == example.placements()


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_the_step_is_right_against_the_solution(example):
    puzzle, grid, notes = example.position()
    solution = engine.solve(puzzle)
    assert solution is not None and engine.count_solutions(puzzle) == 1
    # The position itself is right: every placed digit and the answer of every cell kept.
    for cell in range(81):
        if grid[cell] != "0":
            assert grid[cell] == solution[cell]
        else:
            assert int(solution[cell]) in notes[cell]
    step = _step(example)
    assert step.eliminations or step.placements
    for cell, digit in step.eliminations:
        assert solution[cell] != str(digit)
    for cell, digit in step.placements:
        assert solution[cell] == str(digit)


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_the_step_is_told_in_three_levels_with_the_cause_apart_from_the_target(example):
    step = _step(example, compact=True)
    one, two, three = (engine.tell(step, level) for level in (1, 2, 3))
    assert one["technique"] and one["region"] and one["text"].startswith("Look at")
    assert two["cause"] and "target" not in two  # why, not yet what changes
    assert not set(two["cause"]) & set(three["target"])
    assert two["text"] == step.reason and step.result not in two["text"]
    for cell, _ in [*step.placements, *step.eliminations]:
        assert cell_name(cell) in three["text"]
    for text in (step.reason, step.result):
        assert " a 8" not in text and " a 8," not in text
        assert "  " not in text


def test_every_technique_past_the_basic_ones_has_a_public_example():
    from engine.techniques.table import TABLE

    since = [
        e.name
        for e in TABLE
        if e.finder.startswith(
            ("unique_rectangle", "bug_", "finned_", "sashimi_", "empty_", "als_", "sue_")
        )
    ]
    assert set(since) <= {e.technique for e in EXAMPLES}


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
@pytest.mark.parametrize("compact", [False, True])
def test_the_words_read_well_at_every_level(example, compact):
    from .helpers import wording_faults

    step = _step(example, compact=compact)
    for level in (1, 2, 3):
        told = engine.tell(step, level)
        for text in (told["text"], told["technique"], told["summary"]):
            assert not wording_faults(text), (level, text, wording_faults(text))
