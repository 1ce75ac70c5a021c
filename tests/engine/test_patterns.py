"""Subsets and fish checked against a finder written here from their definitions, sharing
no code with the engine's techniques (only the board's units and the solve path's
candidates come from the engine): the engine must remove exactly what the pattern it names
implies, no less (a missed elimination fails) and no more."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine

from .helpers import load

UNITS = engine.UNITS  # rows 0-8, columns 9-17, boxes 18-26

SIZES = {"Pair": 2, "Triple": 3, "Quad": 4, "X-Wing": 2, "Swordfish": 3, "Jellyfish": 4}
SUBSETS = {f"{kind} {size}" for kind in ("Naked", "Hidden") for size in ("Pair", "Triple", "Quad")}
FISH = {"X-Wing", "Swordfish", "Jellyfish"}

Candidates = list[set[int]]
Removals = set[tuple[int, int]]


# The independent finder ---------------------------------------------------------------


def naked_removals(cands: Candidates, cells: list[int]) -> Removals | None:
    """n cells of a unit holding n digits between them take those digits from every unit
    they share; None when the cells are no naked subset."""
    digits = set().union(*(cands[c] for c in cells))
    shared = [u for u in UNITS if set(cells) <= set(u)]
    if len(digits) != len(cells) or not shared or any(len(cands[c]) < 2 for c in cells):
        return None
    return {(c, d) for u in shared for c in u if c not in cells for d in cands[c] & digits}


def hidden_removals(cands: Candidates, cells: list[int]) -> Removals | None:
    """n digits whose places in a unit all lie in the n cells leave those cells no other
    digit; the union over every unit where that holds, None when there is none."""
    removals: Removals = set()
    found = False
    for unit in (u for u in UNITS if set(cells) <= set(u)):
        confined = {
            d
            for d in range(1, 10)
            if (places := {c for c in unit if d in cands[c]}) and places <= set(cells)
        }
        if len(confined) == len(cells):
            found = True
            removals |= {(c, d) for c in cells for d in cands[c] - confined}
    return removals if found else None


def row_of(cell: int) -> int:
    return cell // 9


def col_of(cell: int) -> int:
    return cell % 9


def fish_removals(cands: Candidates, cells: list[int], digit: int) -> Removals | None:
    """n base lines whose places for the digit lie in n cover lines take it from the rest of
    the covers; tried with rows as bases and with columns, None when neither holds."""
    removals: Removals = set()
    found = False
    for base_of, cover_of in ((row_of, col_of), (col_of, row_of)):
        bases = {base_of(c) for c in cells}
        covers = {cover_of(c) for c in cells}
        if len(bases) != len(covers):
            continue
        confined = all(
            cover_of(c) in covers for c in range(81) if base_of(c) in bases and digit in cands[c]
        )
        if confined:
            found = True
            removals |= {
                (c, digit)
                for c in range(81)
                if cover_of(c) in covers and base_of(c) not in bases and digit in cands[c]
            }
    return removals if found else None


def implied(technique: str, cands: Candidates, step: engine.Step) -> Removals | None:
    """What the pattern the step names, on the step's cells, removes by the definitions."""
    if technique.startswith("Naked"):
        return naked_removals(cands, step.cells)
    if technique.startswith("Hidden"):
        return hidden_removals(cands, step.cells)
    (digit,) = {d for _, d in step.eliminations}
    return fish_removals(cands, step.cells, digit)


def size_of(technique: str) -> int:
    return SIZES[technique.split()[-1]]


def check(step: engine.Step, cands: Candidates) -> None:
    """The step's pattern exists as named, and its eliminations are exactly what it implies."""
    expected = implied(step.technique, cands, step)
    assert expected is not None, f"no {step.technique} on {step.cells}: {step.explanation}"
    if step.technique in SUBSETS:
        assert len(step.cells) == size_of(step.technique)
    else:
        assert len({c // 9 for c in step.cells}) == size_of(step.technique)
    assert not step.placements
    assert set(step.eliminations) == expected, step.explanation


# The finder itself, on positions worked out by hand -----------------------------------


def blank(digits: str = "123456789") -> Candidates:
    return [{int(d) for d in digits} for _ in range(81)]


def test_the_finder_takes_a_naked_pair_from_both_units_it_shares():
    cands = blank()
    cands[0], cands[1] = {1, 2}, {1, 2}  # r1c1 and r1c2: row 1 and box 1
    cands[80] = {1, 2}
    removals = naked_removals(cands, [0, 1])
    row = {(c, d) for c in range(2, 9) for d in (1, 2)}
    box = {(c, d) for c in (2, 9, 10, 11, 18, 19, 20) for d in (1, 2)}
    assert removals == row | box
    assert naked_removals(cands, [0, 9]) is None  # {1,2} and all nine digits: no pair
    assert naked_removals(cands, [0, 80]) is None  # no unit in common


def test_the_finder_sees_a_hidden_pair_only_where_its_digits_are_confined():
    cands = blank()
    for c in UNITS[0][2:]:
        cands[c] -= {4, 7}  # in row 1, 4 and 7 can go only in r1c1 and r1c2
    removals = hidden_removals(cands, [0, 1])
    assert removals == {(c, d) for c in (0, 1) for d in (1, 2, 3, 5, 6, 8, 9)}
    assert hidden_removals(cands, [0, 2]) is None


def test_the_finder_reads_an_x_wing_both_ways():
    cands = blank()
    for r in (1, 5):  # rows 2 and 6: 3 only in columns 3 and 8
        for c in range(9):
            if c not in (2, 7):
                cands[r * 9 + c].discard(3)
    corners = [11, 16, 47, 52]
    removals = fish_removals(cands, corners, 3)
    assert removals == {(r * 9 + c, 3) for r in range(9) if r not in (1, 5) for c in (2, 7)}
    assert fish_removals(cands, corners, 4) is None


# The engine against the finder --------------------------------------------------------

POSITIONS = [
    case
    for case in json.loads(Path(__file__).with_name("technique_positions.json").read_text())
    if case["technique"] in SUBSETS | FISH
]


def test_every_subset_and_fish_has_a_stored_position():
    assert {case["technique"] for case in POSITIONS} == SUBSETS | FISH


@pytest.mark.parametrize("case", POSITIONS, ids=lambda c: c["technique"])
def test_stored_position_removes_exactly_what_its_pattern_implies(case):
    notes = [[int(d) for d in digits] for digits in case["candidates"]]
    step = engine.next_step(case["grid"], notes, puzzle=case["puzzle"])
    assert step.technique == case["technique"]
    check(step, [set(n) for n in notes])


def solving_path(puzzle: str) -> list[tuple[engine.Step, Candidates]]:
    """The grade's steps, each with the candidates before it."""
    return [(e.step, [set(c) for c in e.candidates]) for e in engine.solution_path(puzzle)]


def _puzzles() -> list[str]:
    # top95 has every kind but quads and Jellyfish; lines 91 and 97 of hardest_200 need
    # naked quads (their solves by nested forcing chains, where search stood before).
    hardest = load("hardest_200")
    made = [engine.make_puzzle("hard", seed=seed).puzzle for seed in range(20)]
    # The puzzle whose solve gave the stored naked quad: uniqueness and finned fish take
    # the place of the quads in the others.
    quads = [case["puzzle"] for case in POSITIONS if case["technique"] == "Naked Quad"]
    return [*load("top95"), hardest[90], hardest[96], *quads, *made]


def test_on_whole_solves_every_subset_and_fish_removes_exactly_what_it_implies():
    seen = set()
    for puzzle in _puzzles():
        for step, cands in solving_path(puzzle):
            if step.technique in SUBSETS | FISH:
                check(step, cands)
                seen.add(step.technique)
    assert seen >= {"Naked Pair", "Hidden Pair", "Naked Triple", "Hidden Triple", "Naked Quad"}
    assert seen >= {"X-Wing", "Swordfish"}
