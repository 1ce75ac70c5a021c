"""Hints on a player's position: mistakes before anything else, then the easiest step."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import engine
from engine import cell_name

from .helpers import load

PUZZLE = load("top95")[0]
SOLUTION = engine.solve(PUZZLE)


def played(puzzle: str, solution: str, cells: int) -> str:
    """The puzzle with the first `cells` blanks filled in correctly."""
    grid = list(puzzle)
    blanks = [c for c, ch in enumerate(puzzle) if ch == "0"][:cells]
    for c in blanks:
        grid[c] = solution[c]
    return "".join(grid)


def with_digit(grid: str, cell: int, digit: str) -> str:
    return grid[:cell] + digit + grid[cell + 1 :]


def wrong_digit_for(grid: str, cell: int) -> str | None:
    """A digit that breaks no rule where it stands but is not the solution's."""
    peers = {grid[p] for p in engine.PEERS[cell]}
    return next((d for d in "123456789" if d != SOLUTION[cell] and d not in peers), None)


def test_a_solved_grid_needs_no_hint():
    assert engine.next_step(SOLUTION) is None
    assert engine.next_step(SOLUTION, puzzle=PUZZLE) is None


def test_the_first_hint_on_a_fresh_puzzle_is_its_easiest_step():
    step = engine.next_step(PUZZLE)
    assert step.technique in {"Full House", "Hidden Single", "Naked Single"}
    (cell, digit), *_ = step.placements
    assert SOLUTION[cell] == str(digit)
    assert step.cells and step.region


@given(st.integers(0, 50), st.data())
@settings(max_examples=40, deadline=None)
def test_a_wrong_digit_is_pointed_out_before_anything_else(progress, data):
    grid = played(PUZZLE, SOLUTION, progress)
    blanks = [c for c, ch in enumerate(grid) if ch == "0"]
    cell = data.draw(st.sampled_from(blanks))
    digit = wrong_digit_for(grid, cell)
    assume(digit is not None)
    wrong = with_digit(grid, cell, digit)
    step = engine.next_step(wrong, puzzle=PUZZLE)
    assert step.technique == "Mistake"
    assert step.cells == [cell]
    assert engine.place(cell) in step.explanation


def test_without_the_puzzle_a_wrong_digit_that_kills_the_grid_is_still_found():
    grid = played(PUZZLE, SOLUTION, 40)
    for cell in [c for c, ch in enumerate(grid) if ch == "0"][:10]:
        digit = wrong_digit_for(grid, cell)
        wrong = with_digit(grid, cell, digit) if digit else grid
        if engine.count_solutions(wrong, 1) == 0:
            step = engine.next_step(wrong)
            assert step.technique == "Mistake"
            assert cell in step.cells
            assert len(step.cells) < 10


def with_wrong_digits(grid: str, count: int, skip: int = 0) -> tuple[str, list[int]]:
    """grid with up to `count` blanks (after the first `skip`) filled with digits that break
    no rule where they stand but are not the solution's, and those cells."""
    wrong: list[int] = []
    for cell in [c for c, ch in enumerate(grid) if ch == "0"][skip:]:
        digit = wrong_digit_for(grid, cell) if len(wrong) < count else None
        if digit:
            grid = with_digit(grid, cell, digit)
            wrong.append(cell)
    return grid, wrong


def without(grid: str, cells: list[int]) -> str:
    return "".join("0" if c in cells else ch for c, ch in enumerate(grid))


def test_without_the_puzzle_two_wrong_digits_are_named_together():
    grid, wrong = with_wrong_digits(played(PUZZLE, SOLUTION, 40), 2)
    assert len(wrong) == 2
    assert engine.count_solutions(grid, 1) == 0
    # Each one alone still leaves the other, so no single digit is to blame.
    assert all(engine.count_solutions(without(grid, [c]), 1) == 0 for c in wrong)
    step = engine.next_step(grid, compact=True)
    assert step.technique == "Mistake"
    assert set(wrong) <= set(step.cells)
    assert all(cell_name(c) in step.explanation for c in wrong)


@given(st.integers(0, 55), st.integers(1, 5), st.integers(0, 10))
@settings(max_examples=40, deadline=None)
def test_a_grid_that_cannot_be_finished_always_gets_a_mistake(progress, count, skip):
    grid, wrong = with_wrong_digits(played(PUZZLE, SOLUTION, progress), count, skip)
    assume(wrong)
    step = engine.next_step(grid)
    assert step is not None
    assert step.technique == "Mistake"
    assert step.cells
    assert all(grid[c] != "0" for c in step.cells)
    # The digits named hold the fault: without them the grid can be finished.
    assert engine.count_solutions(without(grid, step.cells), 1) == 1
    known = engine.next_step(grid, puzzle=PUZZLE)
    assert (known.technique, known.cells) == ("Mistake", [min(wrong)])


def test_with_the_puzzle_a_conflict_with_a_given_blames_the_placed_digit():
    given = next(c for c in range(81) if PUZZLE[c] != "0")
    cell = next(c for c in range(given // 9 * 9, given // 9 * 9 + 9) if PUZZLE[c] == "0")
    grid = with_digit(PUZZLE, cell, PUZZLE[given])
    step = engine.next_step(grid, puzzle=PUZZLE, compact=True)
    assert step.technique == "Conflict"
    assert step.cells == [cell]
    assert cell_name(cell) in step.explanation and cell_name(given) in step.explanation
    assert set(engine.next_step(grid).cells) == {given, cell}  # without the puzzle: either


def test_a_conflict_between_two_placed_digits_names_both_even_with_the_puzzle():
    row = next(r for r in range(9) if PUZZLE[r * 9 : r * 9 + 9].count("0") >= 2)
    a, b = [c for c in range(row * 9, row * 9 + 9) if PUZZLE[c] == "0"][:2]
    digit = next(d for d in "123456789" if d not in PUZZLE[row * 9 : row * 9 + 9])
    grid = with_digit(with_digit(PUZZLE, a, digit), b, digit)
    step = engine.next_step(grid, puzzle=PUZZLE)
    assert step.technique == "Conflict"
    assert step.cells == [a, b]


def test_two_equal_digits_in_a_unit_are_a_conflict_not_an_error():
    cell = PUZZLE.index("0")
    row_digit = next(PUZZLE[c] for c in range(cell // 9 * 9, cell // 9 * 9 + 9) if PUZZLE[c] != "0")
    step = engine.next_step(with_digit(PUZZLE, cell, row_digit))
    assert step.technique == "Conflict"
    assert cell in step.cells


def test_notes_are_used_and_a_note_that_drops_the_answer_is_pointed_out():
    cell = PUZZLE.index("0")
    notes = [[] for _ in range(81)]
    notes[cell] = [d for d in range(1, 10) if str(d) != SOLUTION[cell]]
    step = engine.next_step(PUZZLE, notes, puzzle=PUZZLE)
    assert step.technique == "Missing Candidate"
    assert step.cells == [cell]


@pytest.mark.parametrize(
    "notes, message",
    [([[]] * 80, "81"), ([[10]] + [[]] * 80, "not a digit"), ([["a"]] + [[]] * 80, "not a digit")],
)
def test_bad_notes_raise_invalid_puzzle(notes, message):
    with pytest.raises(engine.InvalidPuzzle, match=message):
        engine.next_step(PUZZLE, notes)


@pytest.mark.parametrize("grid, message", [("x" * 81, "character"), ("1" * 80, "81 cells")])
def test_a_grid_that_is_not_a_sudoku_raises_invalid_puzzle(grid, message):
    with pytest.raises(engine.InvalidPuzzle, match=message):
        engine.next_step(grid)


@pytest.mark.parametrize("puzzle", [PUZZLE, load("hardest_200")[0]])
def test_a_player_applying_every_hint_to_grid_and_notes_solves_the_puzzle(puzzle):
    grid = list(puzzle)
    notes = [[] for _ in range(81)]
    for _ in range(300):
        step = engine.next_step("".join(grid), notes, puzzle=puzzle)
        if step is None:
            break
        for cell, digit in step.placements:
            grid[cell] = str(digit)
            notes[cell] = []
        for cell, digit in step.eliminations:
            if not notes[cell]:
                notes[cell] = engine.candidates("".join(grid))[cell]
            notes[cell] = [d for d in notes[cell] if d != digit]
    assert "".join(grid) == engine.solve(puzzle)


# Notes as the player meant them, and hints told in three levels -------------------------

COMPACT_PLACE = re.compile(r"r\dc\d")
JARGON = ("Full House", "Missing Candidate", "Naked Single", "Hidden Single")
POSITIONS = json.loads(Path(__file__).with_name("technique_positions.json").read_text())


def test_a_partial_note_is_a_memo_and_the_hint_an_ordinary_step():
    cell = PUZZLE.index("0")
    notes = [[] for _ in range(81)]
    cands = engine.candidates(PUZZLE)[cell]
    notes[cell] = [next(d for d in cands if str(d) != SOLUTION[cell])]  # a reminder
    memo = engine.next_step(PUZZLE, notes, puzzle=PUZZLE, complete=[False] * 81)
    plain = engine.next_step(PUZZLE, puzzle=PUZZLE)
    assert memo.technique != "Missing Candidate"
    assert (memo.technique, memo.placements, memo.eliminations) == (
        plain.technique,
        plain.placements,
        plain.eliminations,
    )


def test_a_complete_list_the_player_took_the_answer_out_of_is_pointed_out():
    cell = PUZZLE.index("0")
    notes = [[] for _ in range(81)]
    notes[cell] = [d for d in engine.candidates(PUZZLE)[cell] if str(d) != SOLUTION[cell]]
    complete = [c == cell for c in range(81)]
    step = engine.next_step(PUZZLE, notes, puzzle=PUZZLE, complete=complete)
    assert step.technique == "Missing Candidate" and step.cells == [cell]
    assert (cell, int(SOLUTION[cell])) in step.restores
    told = engine.tell(step, 3)
    assert told["technique"] == "Notes that lost their answer (missing candidate)"
    assert str(SOLUTION[cell]) in told["text"]  # the digits put back are named


def test_places_are_written_for_people_and_compact_on_request():
    for entry in engine.solution_path(PUZZLE):
        assert not COMPACT_PLACE.search(entry.step.explanation), entry.step.explanation
    for case in POSITIONS:
        notes = [[int(d) for d in digits] for digits in case["candidates"]]
        step = engine.next_step(case["grid"], notes, puzzle=case["puzzle"])
        texts = [engine.tell(step, level)["text"] for level in (1, 2, 3)]
        texts.append(engine.tell(step, 1)["technique"])
        for text in texts:
            assert not COMPACT_PLACE.search(text), text
            assert not any(word in text for word in JARGON), text
        compact = engine.next_step(case["grid"], notes, puzzle=case["puzzle"], compact=True)
        assert compact.placements == step.placements
        assert compact.eliminations == step.eliminations
        assert COMPACT_PLACE.search(compact.explanation), compact.explanation
    assert engine.place(22) == "row 3, column 5"


def test_a_hint_is_told_in_three_levels_and_level_one_shades_the_unit_it_names():
    step = engine.next_step(PUZZLE, puzzle=PUZZLE)
    one, two, three = (engine.tell(step, level) for level in (1, 2, 3))
    assert set(one) == {"level", "technique", "slug", "summary", "text", "region"}
    (unit,) = step.units
    assert one["region"] == sorted(engine.UNITS[unit])
    assert one["text"] == f"Look at {step.region}."
    assert one["slug"] == step.technique.lower().replace(" ", "-")
    assert two["cause"] and "target" not in two  # why, without the answer
    assert three["target"] == [cell for cell, _ in step.placements]
    assert all(c not in three["target"] for c in two["cause"])
    assert three["placements"] == [list(p) for p in step.placements]
    assert three["text"] == step.explanation
    with pytest.raises(ValueError):
        engine.tell(step, 4)


def test_every_technique_has_a_plain_name_slug_and_summary():
    from engine.techniques.table import CHECKS, TABLE

    for entry in TABLE + CHECKS:
        assert entry.plain and entry.summary and entry.slug
        assert entry.plain != entry.name or entry.name in ("Pointing", "Claiming")


def test_conflicts_are_every_cell_whose_digit_repeats_in_a_unit():
    row = next(r for r in range(9) if PUZZLE[r * 9 : r * 9 + 9].count("0") >= 2)
    a, b = [c for c in range(row * 9, row * 9 + 9) if PUZZLE[c] == "0"][:2]
    digit = next(d for d in "123456789" if d not in PUZZLE[row * 9 : row * 9 + 9])
    assert engine.conflicts(PUZZLE) == []
    assert engine.conflicts(with_digit(with_digit(PUZZLE, a, digit), b, digit)) == [a, b]
