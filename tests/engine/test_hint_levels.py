"""What each level of a hint may show: level 1 the area or the technique only, never the
cell that will change; level 2 the cause, never a cell that will change. Walked over every
technique of the grader's table and every check of a player's board, places written both
ways."""

from __future__ import annotations

import re

import pytest

import engine
from engine.board import Board
from engine.grid import BOX_OF
from engine.techniques.forcing import trial_and_error
from engine.techniques.nested import nested_forcing_chain_2
from engine.techniques.table import CHECKS, TABLE

from .test_hint_words import HINTS as WORDED
from .test_hint_words import POSITIONS, PUZZLE
from .test_nested import EASTER_MONSTER


def impossible_note() -> engine.Step:
    """A lone note, a memo, that its row, column or box rules out."""
    cell = PUZZLE.index("0")
    notes: list[list[int]] = [[] for _ in range(81)]
    notes[cell] = [next(d for d in range(1, 10) if d not in engine.candidates(PUZZLE)[cell])]
    return engine.next_step(PUZZLE, notes, puzzle=PUZZLE, complete=[False] * 81)


def found_directly(finder) -> engine.Step:
    """A step of a technique no stored position's solve reaches (the grader takes a lower one
    first), found by its finder itself on Easter Monster's start (tests/engine/test_nested.py)."""
    step = finder(Board.from_puzzle(engine.parse(EASTER_MONSTER)))
    assert step is not None
    return step


HINTS = [
    *WORDED,
    ("Impossible Note", impossible_note()),
    ("Nested Forcing Chain (level 2), found directly", found_directly(nested_forcing_chain_2)),
    ("Trial and Error, found directly", found_directly(trial_and_error)),
]

# Places as the words write them: "row 2, column 5", "row 1, columns 2 and 5", "rows 1 and 4,
# column 5" (every cell of the rows and columns listed), and compact "r2c5".
NUMBERS = r"\d(?:(?:, | and | or )\d)*"
PLACES = re.compile(rf"\brows? ({NUMBERS}), columns? ({NUMBERS})", re.IGNORECASE)
COMPACT = re.compile(r"\br(\d)c(\d)\b")


def named_cells(text: str) -> set[int]:
    """Every cell the text names as a place (a list of rows and columns names each cell
    where they cross)."""
    cells = set()
    for rows, columns in PLACES.findall(text):
        for r in re.findall(r"\d", rows):
            for c in re.findall(r"\d", columns):
                cells.add((int(r) - 1) * 9 + int(c) - 1)
    for r, c in COMPACT.findall(text):
        cells.add((int(r) - 1) * 9 + int(c) - 1)
    return cells


def changed(step: engine.Step) -> set[int]:
    """The cells the step changes: digits placed or taken out, notes taken out or put back."""
    return set(step.targets) | set(step.clears) | {c for c, _ in step.restores}


def whole_units(cells: list[int]) -> bool:
    """Whether the cells are every cell of some rows, columns and boxes, and no others: a
    shaded unit points at no cell of its own."""
    shaded = set(cells)
    covered = set()
    for unit in engine.UNITS:
        if set(unit) <= shaded:
            covered |= set(unit)
    return covered == shaded


def test_the_places_named_are_read_as_the_words_write_them():
    assert named_cells("Look at row 2, column 5.") == {13}
    assert named_cells("in row 1, columns 2 and 5; row 3, column 4") == {1, 4, 21}
    assert named_cells("rows 1 and 4, column 5") == {4, 31}
    assert named_cells("Look at r9c9 and r1c1.") == {80, 0}
    assert named_cells("Look at box 7 and row 1.") == set()


def test_every_technique_and_check_is_walked():
    walked = {step.technique for _, step in HINTS}
    assert {entry.name for entry in TABLE + CHECKS} <= walked
    directly = {"Nested Forcing Chain (level 2)", "Trial and Error"}  # found_directly
    assert len(POSITIONS) >= len(TABLE) - len(directly)


@pytest.mark.parametrize("name, step", HINTS, ids=[name for name, _ in HINTS])
def test_level_one_never_names_or_marks_the_cell_that_will_change(name, step):
    one = engine.tell(step, 1)
    targets = changed(step)
    assert targets, "a hint changes something"
    assert not named_cells(one["text"]) & targets, one["text"]
    assert not named_cells(one["technique"]) & targets
    shaded = one["region"]
    assert whole_units(shaded) or not set(shaded) & targets, (one["text"], shaded)
    assert set(one) == {"level", "technique", "slug", "summary", "text", "region"}


@pytest.mark.parametrize("name, step", HINTS, ids=[name for name, _ in HINTS])
def test_level_two_marks_the_cause_and_no_cell_that_will_change(name, step):
    two = engine.tell(step, 2)
    assert not set(two["cause"]) & changed(step), two["cause"]
    assert "target" not in two


# Where the why is the pattern's own cells, one of which changes: a hidden subset's cells,
# the rectangle of a unique rectangle, the chain whose end cell loses another digit.
NAMED_IN_ITS_PATTERN = {
    "Hidden Pair",
    "Hidden Triple",
    "Hidden Quad",
    "Unique Rectangle Type 1",
    "Unique Rectangle Type 4",
    "Alternating Inference Chain",
    "Conflict",
}


@pytest.mark.parametrize("name, step", HINTS, ids=[name for name, _ in HINTS])
def test_level_two_names_no_cell_that_will_change_but_its_patterns_own(name, step):
    said = named_cells(engine.tell(step, 2)["text"]) & changed(step)
    if step.technique in NAMED_IN_ITS_PATTERN:
        assert said <= set(step.cells) | set(step.cause), said
    else:
        assert not said, engine.tell(step, 2)["text"]
    assert named_cells(engine.tell(step, 3)["text"]) & changed(step) or "grid" in step.region


FORCING = [(n, s) for n, s in HINTS if s.technique in ("Forcing Chain", "Dynamic Forcing Chain")]


@pytest.mark.parametrize("name, step", FORCING, ids=[name for name, _ in FORCING])
def test_a_forcing_chain_names_its_target_at_level_three_only(name, step):
    targets = changed(step)
    assert not named_cells(engine.tell(step, 2)["text"]) & targets
    assert named_cells(engine.tell(step, 3)["text"]) & targets


def test_trial_and_error_and_mistakes_say_the_area_without_the_cell():
    trial = next(s for _, s in HINTS if s.technique == "Trial and Error")
    one, two = engine.tell(trial, 1), engine.tell(trial, 2)
    (cell,) = changed(trial)
    assert one["text"] == f"Look at box {BOX_OF[cell] + 1}."
    assert engine.place(cell) not in two["text"] and "box" in two["text"]
    assert engine.place(cell) in engine.tell(trial, 3)["text"]
    for name, step in HINTS:
        if step.technique == "Mistake" and "False" in name:
            one = engine.tell(step, 1)
            assert one["technique"].lower().startswith("a digit that does not belong")
            assert not named_cells(one["text"]) & set(step.clears)
            two, three = engine.tell(step, 2), engine.tell(step, 3)
            assert not named_cells(two["text"]) & set(step.clears), two["text"]
            assert "box" in two["text"] or "grid" in two["text"]
            assert named_cells(three["text"]) & set(step.clears) or "grid" in three["text"]


def test_a_chain_at_level_one_names_neither_end():
    for name, step in HINTS:
        if step.technique in ("X-Chain", "XY-Chain", "Alternating Inference Chain"):
            one = engine.tell(step, 1)
            assert not named_cells(one["text"]), (name, one["text"])
            assert not one["region"] or whole_units(one["region"]), name


def position_step(technique: str, compact: bool = False) -> engine.Step:
    """The step of a technique's stored position."""
    case = next(c for c in POSITIONS if c["technique"] == technique)
    notes = [[int(d) for d in digits] for digits in case["candidates"]]
    return engine.next_step(case["grid"], notes, puzzle=case["puzzle"], compact=compact)


def test_a_finned_fish_names_only_the_lines_that_meet_the_fins_box():
    swordfish = position_step("Finned Swordfish")  # covers rows 3, 5 and 8; the fin in box 8
    assert "rows 3, 5 and 8 inside box 8" not in swordfish.reason
    assert (
        "Where row 8 crosses box 8, the cells outside columns 3, 4 and 8 see the fin: "
        "either way they cannot hold 2." in swordfish.reason
    ), swordfish.reason
    x_wing = position_step("Finned X-Wing")  # covers columns 3 and 4; the fins in box 1
    assert (
        "Where column 3 crosses box 1, the cells outside rows 2 and 4 see the fins: "
        "either way they cannot hold 7." in x_wing.reason
    ), x_wing.reason


def test_the_empty_rectangle_says_its_box_plainly_and_keeps_its_target_for_level_three():
    rectangle = position_step("Empty Rectangle")
    assert rectangle.reason.startswith(
        "In box 7, every cell that can still hold 4 lies on column 3 or on row 9 "
        "(row 7, column 3; and row 9, columns 1 and 3). In row 1, 4 can go only in columns 3 "
        "and 8. If row 1, column 8 is not 4, row 1, column 3 is: it rules 4 out of column 3 "
        "in box 7, so the box's 4 is on row 9. Either way, a cell that sees both row 1, "
        "column 8 and the places of 4 on row 9 in box 7 cannot be 4."
    ), rectangle.reason
    assert not named_cells(rectangle.reason) & changed(rectangle)
    assert "row 9, column 8" in engine.tell(rectangle, 3)["text"]
