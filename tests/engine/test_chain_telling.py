"""Chains told link by link: every link in words and in the notation HoDoKu and sudokuwiki
print, the contradiction a forcing chain ends in named, and the candidates and links a
hint draws.

The positions are met while solving line 7 of the top95 list (tests/data/top95.txt, from
Norvig's essay), 6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....,
and kept in technique_positions.json: its solve needs an alternating inference chain and a
forcing chain (Sudoku Explainer and HoDoKu find both there).
"""

from __future__ import annotations

import json
from pathlib import Path

import engine

from .helpers import load, wording_faults

POSITIONS = json.loads(Path(__file__).with_name("technique_positions.json").read_text())
TOP95_7 = load("top95")[6]


def hint_at(technique: str, *, compact: bool = False) -> engine.Step:
    (position,) = [p for p in POSITIONS if p["technique"] == technique]
    assert position["puzzle"] == TOP95_7
    notes = [[int(d) for d in c] for c in position["candidates"]]
    step = engine.next_step(position["grid"], notes, puzzle=TOP95_7, compact=compact)
    assert step is not None and step.technique == technique
    return step


def test_a_contradiction_forcing_chain_is_named_for_what_it_is():
    step = hint_at("Forcing Chain")
    assert step.kind == "contradiction"
    entry = engine.told_entry(step)
    assert entry.name == "Contradiction Forcing Chain"
    assert entry.label == "A guess that breaks the grid (contradiction forcing chain)"
    assert entry.slug == "forcing-chain"  # the technique's page stays the same
    assert "Every choice" not in entry.label
    assert engine.tell(step, 1)["technique"] == entry.label


def test_a_forcing_chain_is_told_link_by_link_to_its_contradiction():
    step = hint_at("Forcing Chain")
    assert step.eliminations == [(1, 7)]
    (line,) = step.notation
    links = line.split(" -> ")
    assert links[:4] == ["r1c2=7", "r2c1<>7", "r2c2<>7", "r2c3<>7"]
    assert "r2c4=7" in links and "r6c1=2" in links and "r2c5=6" in links
    assert links[-2:] == ["r3c5<>6", "no 6 in row 3"]
    # Every link in words, in the same order, ending in the contradiction.
    assert step.chain[0] == "Suppose row 1, column 2 is 7."
    assert step.chain[1] == "Row 2, column 1 is not 7: it sees row 1, column 2, which is 7."
    assert "Row 2, column 4 is 7: the last place for 7 in row 2." in step.chain
    assert "Row 5, column 3 is 6: the last place for 6 in box 4." in step.chain
    assert step.chain[-1] == "Row 3 is left with no place for 6."
    assert len(step.chain) == len(links)
    assert "Row 3 is left with no place for 6." in step.reason
    for sentence in step.chain:
        assert not wording_faults(sentence), sentence


def test_a_forcing_chain_keeps_only_the_links_the_contradiction_rests_on():
    step = hint_at("Forcing Chain")
    on, off = set(step.on), set(step.off)
    assert (1, 7) in on and (12, 7) in on  # r1c2=7, then r2c4=7
    assert (9, 7) in off and (24, 6) in off  # r2c1<>7 ... r3c7<>6
    # Each of the row's other places for 6 is taken out on the way (the contradiction).
    assert {(c, 6) for c in range(18, 27) if (c, 6) in off} == {(22, 6), (24, 6), (25, 6), (26, 6)}
    assert (1, 7, 9, 7, "weak") in step.links  # r1c2=7 -> r2c1<>7
    assert (9, 7, 12, 7, "strong") in step.links  # r2c1<>7 -> r2c4=7 (the row's last place)
    for a, da, b, db, kind in step.links:
        assert (a, da) in (on if kind == "weak" else off)
        assert (b, db) in (off if kind == "weak" else on)
    # Nothing the contradiction does not rest on: r1c2=7 takes 7 out of more cells of
    # column 2 than the chain needs.
    assert len(step.notation[0].split(" -> ")) - 1 == len(on) + len(off)


def test_an_alternating_inference_chain_is_told_in_eureka_notation_link_by_link():
    step = hint_at("Alternating Inference Chain")
    assert step.eliminations == [(29, 5)]
    assert step.notation == ["(5)r2c3 = (5)r2c2 - (7)r2c2 = (7)r2c4 - (7)r4c4 = (7)r4c3"]
    assert step.chain == [
        "Suppose 5 in row 2, column 3 is false.",
        "If 5 in row 2, column 3 is false, 5 in row 2, column 2 is true: these are the only two "
        "places for 5 in row 2.",
        "If 5 in row 2, column 2 is true, 7 in row 2, column 2 is false: a cell holds one digit.",
        "If 7 in row 2, column 2 is false, 7 in row 2, column 4 is true: these are the only two "
        "places for 7 in row 2.",
        "If 7 in row 2, column 4 is true, 7 in row 4, column 4 is false: both are in column 4.",
        "If 7 in row 4, column 4 is false, 7 in row 4, column 3 is true: these are the only two "
        "places for 7 in row 4.",
        "So 5 in row 2, column 3 or 7 in row 4, column 3 is true.",
    ]
    assert step.links == [
        (11, 5, 10, 5, "strong"),
        (10, 5, 10, 7, "weak"),
        (10, 7, 12, 7, "strong"),
        (12, 7, 30, 7, "weak"),
        (30, 7, 29, 7, "strong"),
    ]
    assert step.on == [(10, 5), (12, 7), (29, 7)]
    assert step.off == [(10, 7), (11, 5), (30, 7)]
    # The notation is the standard one whether places are written for people or not.
    assert hint_at("Alternating Inference Chain", compact=True).notation == step.notation


def test_a_hint_draws_the_chain_at_levels_two_and_three_and_tells_it_at_three():
    for technique in ("Forcing Chain", "Alternating Inference Chain"):
        step = hint_at(technique)
        first = engine.tell(step, 1)
        assert not {"on", "off", "links", "chain", "notation"} & set(first)
        for level in (2, 3):
            told = engine.tell(step, level)
            assert told["on"] and told["off"] and len(told["links"]) >= 2
            assert told["links"][0]["kind"] in ("strong", "weak")
            assert ":" in told["links"][0]["from"] and ":" in told["links"][0]["to"]
        second, third = engine.tell(step, 2), engine.tell(step, 3)
        assert "chain" not in second and "notation" not in second
        assert third["chain"] == step.chain and third["notation"] == step.notation


def test_the_walkthrough_carries_each_chain():
    path = engine.solution_path(TOP95_7)
    told = [s.as_dict() for s in path if s.step.technique == "Forcing Chain"]
    assert told and told[0]["kind"] == "contradiction"
    assert told[0]["notation"][0].startswith("r1c2=7 -> r2c1<>7")
    assert told[0]["links"] and told[0]["on"] and told[0]["off"]


def test_simple_colouring_is_drawn_in_its_two_colours():
    # Line 40 of the top95 list: its solve's step 29 colours the places of 6 (a trap).
    path = engine.solution_path(load("top95")[39])
    (step,) = [s.step for s in path[28:29]]
    assert step.technique == "Simple Colouring" and step.eliminations == [(55, 6)]
    coloured = set(step.cells)
    assert {c for c, _ in step.on} | {c for c, _ in step.off} == coloured
    assert not {c for c, _ in step.on} & {c for c, _ in step.off}
    assert {d for _, d in step.on + step.off} == {6}
    # Each strong link joins two cells of different colours.
    assert len(step.links) >= len(coloured) - 1
    on = {c for c, _ in step.on}
    for a, da, b, db, kind in step.links:
        assert kind == "strong" and da == db == 6
        assert (a in on) != (b in on)
    told = engine.tell(step, 2)
    assert told["on"] and told["off"] and len(told["links"]) >= 2
    assert "on" not in engine.tell(step, 1)


def test_als_steps_name_their_sets_and_x_and_z_apart():
    # HoDoKu's regression library, lines 1406 and 1432 (tests/engine/public_examples.py).
    from .public_examples import EXAMPLES

    for technique, line in (("ALS-XZ", "1406"), ("ALS-XY-Wing", "1432")):
        (example,) = [e for e in EXAMPLES if e.technique == technique and line in e.source]
        puzzle, grid, notes = example.position()
        step = engine.next_step(grid, notes, puzzle=puzzle)
        assert step.technique == technique
        assert "et A, " in step.reason and ", and set B, " in step.reason
        assert "X is " in step.reason or "by X, " in step.reason
        assert "Z is " in step.reason
        (line_told,) = step.notation
        assert line_told.startswith("A=r") and ", B=r" in line_told and ", X=" in line_told
        assert ", Z=" in line_told and " => " in line_told
        assert "<>" in line_told.split(" => ")[1]
        assert engine.tell(step, 3)["notation"] == step.notation


def test_a_unit_forcing_chain_is_told_branch_by_branch():
    # Line 7 of top95 again, at its second forcing chain: there, besides the contradiction
    # the solver takes, 7 in column 2 has three places (r2c2, r3c2, r8c2), and the singles
    # from each lead to the same placements.
    from engine.board import Board
    from engine.grid import BIT
    from engine.techniques import forcing

    path = engine.solution_path(TOP95_7)
    position = path[18]
    assert position.step.technique == "Forcing Chain"
    board = Board.from_notes(position.values, position.candidates)
    chosen = [(10, 7), (19, 7), (64, 7)]
    assert [(c, d) for c, d in chosen if board.cands[c] & BIT[d]] == chosen
    placed = [(6, 3), (8, 9)]
    told = forcing._branches_told(
        board, chosen, placed, {"reason": "", "result": ""}, forcing._follower(False)
    )
    lines = told["notation"]
    assert [line.split(" -> ")[0] for line in lines] == ["r2c2=7", "r3c2=7", "r8c2=7"]
    ends = {line.split(" -> ")[-1] for line in lines}
    assert len(ends) == 1 and ends.pop() in ("r1c7=3", "r1c9=9")  # every branch, one end
    heads = [s for s in told["chain"] if s.endswith(":")]
    assert heads == [
        "If row 2, column 2 is 7:",
        "If row 3, column 2 is 7:",
        "If row 8, column 2 is 7:",
    ]
    assert "every choice leads there" in told["result"]
    assert told["links"] and told["on"] and told["off"]
    assert not set(told["on"]) & set(told["off"])


def test_a_dynamic_forcing_chain_is_told_link_by_link_locked_candidates_and_pairs_too():
    """The dynamic chains of generated extreme puzzles (tests/engine/test_chain_ratings.py):
    each told link by link, in words and in the notation, the links that come from locked
    candidates and pairs said as such, and drawn as the singles' chains are."""
    from .test_chain_ratings import DYNAMIC

    patterns = 0
    told = 0
    for puzzle in DYNAMIC[:4]:
        for step in engine.grade(puzzle).steps:
            if step.technique != "Dynamic Forcing Chain":
                continue
            told += 1
            assert step.chain and step.notation, (puzzle, step.explanation)
            if step.kind == "contradiction":
                (line,) = step.notation
                assert len(line.split(" -> ")) == len(step.chain)
                assert "left with no" in step.chain[-1] or "would be both" in step.chain[-1]
            patterns += sum(
                any(w in s for w in ("is left only in", "hold only", "a hidden pair"))
                for s in step.chain
            )
            for sentence in step.chain:
                assert not wording_faults(sentence), sentence
            on, off = set(step.on), set(step.off)
            for a, da, b, db, kind in step.links:
                assert (a, da) in (on if kind == "weak" else off)
                assert (b, db) in (off if kind == "weak" else on)
    assert told >= 4
    assert patterns >= 1  # a dynamic chain needs one at least, or the singles' would do


def test_a_forcing_chains_first_level_is_told_without_working_out_its_links(monkeypatch):
    """A level 1 hint reads the technique and where to look: a forcing chain's links, traced
    in Python, are worked out only from level 2 (for a nested chain on Golden Nugget's start
    they cost about 0.1 s)."""
    from engine.techniques import forcing

    from .test_nested import GOLDEN_NUGGET

    steps = [hint_at("Forcing Chain"), engine.next_step(engine.parse(GOLDEN_NUGGET))]

    def traced(*args, **kwargs):
        raise AssertionError("the chain was traced for a level 1 hint")

    with monkeypatch.context() as patched:
        patched.setattr(forcing._Trace, "__init__", traced)
        first = [engine.tell(step, 1) for step in steps]
    for step, told in zip(steps, first, strict=True):
        assert engine.tell(step, 3)["chain"]
        assert engine.tell(step, 1) == told  # the same words once the links are known
