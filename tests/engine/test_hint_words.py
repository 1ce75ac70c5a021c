"""The words of every hint, read as a player reads them: each technique's hint at each
level, with places written both ways, and the checks of a player's board (conflicts,
wrong digits, notes that lost their answer, notes that cannot be right)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine.techniques.table import CHECKS, FORMS, TABLE, entry_of

from .helpers import load, wording_faults

POSITIONS = json.loads(Path(__file__).with_name("technique_positions.json").read_text())
PUZZLE = load("top95")[0]
SOLUTION = engine.solve(PUZZLE)


def with_digit(grid: str, cell: int, digit: str) -> str:
    return grid[:cell] + digit + grid[cell + 1 :]


def check_cases() -> list[tuple[str, list, dict]]:
    """Boards whose first hint is a check, not a technique: (grid, notes, keywords)."""
    none: list[list[int]] = [[] for _ in range(81)]
    given = next(c for c in range(81) if PUZZLE[c] != "0")
    row = given // 9
    blank = next(c for c in range(row * 9, row * 9 + 9) if PUZZLE[c] == "0")
    twice_row = next(r for r in range(9) if PUZZLE[r * 9 : r * 9 + 9].count("0") >= 2)
    a, b = [c for c in range(twice_row * 9, twice_row * 9 + 9) if PUZZLE[c] == "0"][:2]
    free = next(d for d in "123456789" if d not in PUZZLE[twice_row * 9 : twice_row * 9 + 9])
    cell = PUZZLE.index("0")
    wrong = next(
        d
        for d in "123456789"
        if d != SOLUTION[cell] and d not in {PUZZLE[p] for p in engine.PEERS[cell]}
    )
    lost_one, lost_many = list(none), list(none)
    cands = engine.candidates(PUZZLE)[cell]
    lost_one[cell] = [d for d in cands if str(d) != SOLUTION[cell]]
    lost_many[cell] = [next(d for d in cands if str(d) != SOLUTION[cell])]
    impossible = list(none)
    impossible[cell] = [next(d for d in range(1, 10) if d not in cands)]
    return [
        (with_digit(PUZZLE, blank, PUZZLE[given]), none, {"puzzle": PUZZLE}),
        (with_digit(with_digit(PUZZLE, a, free), b, free), none, {"puzzle": PUZZLE}),
        (with_digit(with_digit(PUZZLE, a, free), b, free), none, {}),
        (with_digit(PUZZLE, cell, wrong), none, {"puzzle": PUZZLE}),
        (PUZZLE, lost_one, {"puzzle": PUZZLE, "complete": [c == cell for c in range(81)]}),
        (PUZZLE, lost_many, {"puzzle": PUZZLE, "complete": [c == cell for c in range(81)]}),
        (PUZZLE, impossible, {"puzzle": PUZZLE}),
    ]


def every_hint() -> list[tuple[str, engine.Step]]:
    """Each technique's step on its position, and each check, with places both ways."""
    steps = []
    for compact in (False, True):
        for case in POSITIONS:
            notes = [[int(d) for d in digits] for digits in case["candidates"]]
            step = engine.next_step(case["grid"], notes, puzzle=case["puzzle"], compact=compact)
            steps.append((f"{case['technique']} compact={compact}", step))
        for grid, notes, keywords in check_cases():
            step = engine.next_step(grid, notes, compact=compact, **keywords)
            steps.append((f"{step.technique} compact={compact}", step))
    return steps


HINTS = every_hint()


@pytest.mark.parametrize("name, step", HINTS, ids=[name for name, _ in HINTS])
def test_every_hint_reads_well_at_every_level(name, step):
    for level in (1, 2, 3):
        told = engine.tell(step, level)
        for text in (told["text"], told["technique"], told["summary"]):
            assert not wording_faults(text), (level, text, wording_faults(text))


def test_the_wording_rules_catch_what_players_saw():
    assert wording_faults("In row 8, in row 8, columns 3 and 6, 4 can go.")
    assert wording_faults("Every other empty cell sees a 8.")
    assert wording_faults("Put back 9, the digits that fit there.")
    assert wording_faults("The cells row 7, columns 2 and 8, in row 7, hold 3 and 4.")
    assert wording_faults("Take out 5 from row 3 and 5.")
    assert wording_faults("In column 4, 4 goes in rows 6 and 8, column 4.")
    assert not wording_faults("The chain runs from row 2, column 3 to row 4, column 3.")
    assert not wording_faults("Row 8, column 9 sees row 8, column 3 and row 9, column 7.")
    assert wording_faults("Row 1 has one empty cell left, row 1, column 2, and one missing.")
    assert wording_faults("Row 1, column 2 and row 1, column 3 hold 1, but row 1 cannot.")
    assert not wording_faults("Put back 3 and 9, the digits that fit there.")
    assert not wording_faults("Every other empty cell sees an 8: take out 8 from rows 2 and 7.")


@pytest.mark.parametrize("name, step", HINTS, ids=[name for name, _ in HINTS])
def test_a_level_two_hint_marks_the_cause_and_no_target(name, step):
    two = engine.tell(step, 2)
    assert "target" not in two
    placed = {cell for cell, _ in step.placements}
    assert not placed & set(two["cause"]), "the cell to fill is given away"
    changed = {cell for cell, _ in step.eliminations} - set(step.cells)
    assert not changed & set(two["cause"]), "a cell outside the pattern is marked"
    three = engine.tell(step, 3)
    assert three["target"] == sorted(
        set(step.targets) | set(step.clears) | {c for c, _ in step.restores}
    )


def test_every_step_has_one_name_the_plain_one_with_the_standard_one_beside_it():
    for entry in TABLE + CHECKS:
        assert entry.label.startswith(entry.plain)
    names = {e.finder: e.label for e in TABLE}
    assert names["hidden_single_box"] == "Only place in a box (hidden single)"
    assert names["xy_wing"] == "A pivot and two pincers (XY-wing)"
    assert names["pointing"] == "A box points along a line (pointing)"
    # A form of a technique (a contradiction forcing chain) is named as the form.
    forms = {f"{plain} ({name[0].lower()}{name[1:].lower()})" for name, plain, _ in FORMS.values()}
    assert {entry_of(f).label for f, _ in FORMS} <= {e.label for e in TABLE}
    for name, step in HINTS:
        if "compact=False" in name:
            assert engine.tell(step, 1)["technique"] in {e.label for e in TABLE + CHECKS} | forms


def test_a_note_that_cannot_be_right_is_pointed_out_before_any_technique():
    cell = PUZZLE.index("0")
    digit = next(d for d in range(1, 10) if d not in engine.candidates(PUZZLE)[cell])
    notes = [[] for _ in range(81)]
    notes[cell] = [digit]  # a lone note, a memo: still it cannot be right
    step = engine.next_step(PUZZLE, notes, puzzle=PUZZLE, complete=[False] * 81)
    assert step.technique == "Impossible Note"
    assert step.eliminations == [(cell, digit)]
    told = engine.tell(step, 3)
    assert str(digit) in told["text"] and engine.place(cell) in told["text"]
    assert told["technique"].startswith("A note that cannot be right")
    # the cause is the placed digit it clashes with
    (blocker,) = engine.tell(step, 2)["cause"]
    assert PUZZLE[blocker] == str(digit) and blocker in engine.PEERS[cell]
