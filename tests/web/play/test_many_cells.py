"""A digit, a note or an erase on several selected cells at once (docs/api.md, a move's
`cells`): one change, stored as one Move with a record per cell, undone and redone whole,
merged between devices cell by cell, drawing on the pace of digits once per digit placed."""

from __future__ import annotations

import pytest

from puzzles.models import Game, Move
from puzzles.play.board import digits_put

from ..helpers import LAPTOP, PHONE, empty_cells, post, start, state

pytestmark = pytest.mark.django_db


def many(cid: str, cells: list[int], digit: int, mode: str = "value", base: int = 0) -> dict:
    return {"id": cid, "kind": "move", "cells": cells, "digit": digit, "mode": mode, "base": base}


def send(client, game: Game, device: str, *changes: dict):
    return post(client, game, "changes", {"device": device, "changes": list(changes)})


def apart(game: Game, count: int) -> list[int]:
    """Empty cells that see none of each other, so that a digit fits in all of them."""
    chosen: list[int] = []
    for cell in empty_cells(game):
        sees = [c for c in chosen if cell // 9 == c // 9 or cell % 9 == c % 9]
        sees += [c for c in chosen if (cell // 27, cell % 9 // 3) == (c // 27, c % 9 // 3)]
        if not sees:
            chosen.append(cell)
        if len(chosen) == count:
            return chosen
    raise AssertionError("no such cells")


def test_a_digit_on_several_cells_is_one_move_that_one_undo_takes_back(player, stocked):
    game = start(player)
    a, b, c = apart(game, 3)
    answer = send(player, game, PHONE, many("m1", [a, b, c], 5))
    assert answer.status_code == 200 and answer.json()["refused"] == []
    values = state(player, game)["values"]
    assert values[a] == values[b] == values[c] == "5"
    assert Move.objects.filter(game=game).count() == 1
    logged = Move.objects.get(game=game)
    assert {a, b, c} <= {record["cell"] for record in logged.changes}
    send(player, game, PHONE, {"id": "u1", "kind": "undo", "base": 1})
    assert state(player, game)["values"] == game.puzzle.givens
    send(player, game, PHONE, {"id": "r1", "kind": "redo", "base": 2})
    values = state(player, game)["values"]
    assert values[a] == values[b] == values[c] == "5"


def test_a_digit_skips_the_cells_that_hold_one_and_counts_each_digit_placed(player, stocked):
    game = start(player)
    a, b, c = apart(game, 3)
    send(player, game, PHONE, many("m1", [a], 4))
    send(player, game, PHONE, many("m2", [a, b, c], 5, base=1))
    values = state(player, game)["values"]
    assert (values[a], values[b], values[c]) == ("4", "5", "5")
    # The pace of digits counts the two digits the second move placed, not three.
    logged = Move.objects.get(game=game, number=2)
    assert digits_put(logged.changes, "after") == 2
    assert Move.objects.filter(game=game).count() == 2


def test_notes_go_in_every_empty_cell_and_come_off_all_when_all_have_them(player, stocked):
    game = start(player)
    a, b, c = empty_cells(game)[:3]
    send(player, game, PHONE, many("n1", [a], 3, "note"))
    send(player, game, PHONE, many("n2", [a, b, c], 3, "note", base=1))
    notes = state(player, game)["notes"]
    assert notes[a] == notes[b] == notes[c] == [3]
    send(player, game, PHONE, many("n3", [a, b, c], 3, "note", base=2))
    notes = state(player, game)["notes"]
    assert notes[a] == notes[b] == notes[c] == []
    assert Move.objects.filter(game=game, kind="note").count() == 3


def test_erase_clears_every_cell_named(player, stocked):
    game = start(player)
    a, b, c = apart(game, 3)
    send(player, game, PHONE, many("m1", [a, b], 7), many("n1", [c], 2, "note", base=1))
    send(player, game, PHONE, many("e1", [a, b, c], 0, base=2))
    body = state(player, game)
    assert body["values"] == game.puzzle.givens and body["notes"][c] == []
    assert Move.objects.filter(game=game).count() == 3


def test_a_change_on_several_cells_is_refused_when_another_device_changed_one(player, stocked):
    game = start(player)
    a, b = apart(game, 2)
    send(player, game, LAPTOP, many("l1", [b], 9))
    answer = send(player, game, PHONE, many("p1", [a, b], 3, base=0)).json()
    assert [r["id"] for r in answer["refused"]] == ["p1"]
    assert answer["state"]["values"][a] == "0"
    # The same device's own change is no conflict.
    answer = send(player, game, LAPTOP, many("l2", [a, b], 0, base=0)).json()
    assert answer["refused"] == []


@pytest.mark.parametrize(
    "cells,words",
    [
        ([], "cells must be a list"),
        ([1, 1], "twice"),
        ([81], "cells must be a list"),
        ("4", "cells must be a list"),
    ],
)
def test_bad_cells_answer_400_and_store_nothing(player, stocked, cells, words):
    game = start(player)
    answer = send(player, game, PHONE, many("b1", cells, 1))
    assert answer.status_code == 400 and words in answer.json()["error"]
    assert Move.objects.filter(game=game).count() == 0


def test_a_given_among_the_cells_answers_400(player, stocked):
    game = start(player)
    given = next(c for c, ch in enumerate(game.puzzle.givens) if ch != "0")
    answer = send(player, game, PHONE, many("g1", [empty_cells(game)[0], given], 1))
    assert answer.status_code == 400 and "given" in answer.json()["error"]
