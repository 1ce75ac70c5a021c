"""Corner and centre marks and colours (docs/api.md, "mark" changes): kept on the server
like notes, in the batched changes, merged between devices, undone and redone, on the
replay; never help, never digits."""

from __future__ import annotations

import pytest

from puzzles.models import ChangeReceipt, Game, Move

from ..helpers import LAPTOP, PHONE, empty_cells, post, start, state

pytestmark = pytest.mark.django_db


def given_cell(game: Game) -> int:
    return next(c for c, ch in enumerate(game.puzzle.givens) if ch != "0")


def mark(cid: str, cells: list[int], layer: str, base: int = 0, **fields: int) -> dict:
    return {"id": cid, "kind": "mark", "cells": cells, "layer": layer, "base": base, **fields}


def send(client, game: Game, device: str, *changes: dict):
    return post(client, game, "changes", {"device": device, "changes": list(changes)})


def test_corner_and_centre_marks_and_colours_are_stored_and_shown_in_the_state(player, stocked):
    game = start(player)
    a, b, c = empty_cells(game)[:3]
    given = given_cell(game)
    answer = send(
        player,
        game,
        PHONE,
        mark("c1", [a], "corner", digit=1),
        mark("c2", [a], "corner", digit=7),
        mark("c3", [b], "corner", digit=1),
        mark("e1", [c], "centre", digit=3),
        mark("k1", [given], "colour", colour=4),
        mark("k2", [a], "colour", colour=9),
        mark("d1", [c], "candidate", digit=3, colour=2),
    )
    assert answer.status_code == 200
    body = answer.json()
    assert body["refused"] == []
    marks = state(player, game)["marks"]
    assert marks == body["state"]["marks"]
    assert marks[str(a)] == {"corner": [1, 7], "colour": 9}
    assert marks[str(b)] == {"corner": [1]}
    assert marks[str(c)] == {"centre": [3], "candidates": [[3, 2]]}
    assert marks[str(given)] == {"colour": 4}
    assert len(marks) == 4
    game.refresh_from_db()
    assert Move.objects.filter(game=game, kind="mark").count() == 7
    # Marks are no digits and no help: the board, the fair-play counts stay as they were.
    assert game.values == game.puzzle.givens and game.helped_at is None
    assert game.digit_allowance is None and not game.hurried and game.hints == 0


def test_a_mark_toggles_and_digit_or_colour_zero_clears_the_layer(player, stocked):
    game = start(player)
    a = empty_cells(game)[0]
    send(player, game, PHONE, mark("1", [a], "centre", digit=2), mark("2", [a], "centre", digit=5))
    send(player, game, PHONE, mark("3", [a], "centre", 2, digit=2))
    assert state(player, game)["marks"][str(a)] == {"centre": [5]}
    send(player, game, PHONE, mark("4", [a], "centre", 3, digit=0))
    send(player, game, PHONE, mark("5", [a], "colour", 4, colour=3))
    send(player, game, PHONE, mark("6", [a], "colour", 5, colour=3))  # the same colour again
    assert state(player, game)["marks"] == {}


def test_several_cells_take_a_mark_together_as_one_move(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    send(player, game, PHONE, mark("1", [a], "corner", digit=4))
    # Not every cell has it: all get it; then all have it: all lose it.
    send(player, game, PHONE, mark("2", [a, b], "corner", 1, digit=4))
    marks = state(player, game)["marks"]
    assert marks[str(a)] == marks[str(b)] == {"corner": [4]}
    send(player, game, PHONE, mark("3", [b, a], "corner", 2, digit=4))
    assert state(player, game)["marks"] == {}
    assert Move.objects.filter(game=game).count() == 3


def test_undo_and_redo_take_marks_back_and_put_them_again(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    send(
        player,
        game,
        PHONE,
        {"id": "v1", "kind": "move", "cell": b, "digit": 5, "mode": "value", "base": 0},
        mark("m1", [a], "corner", digit=6),
        mark("m2", [a], "colour", colour=2),
    )
    answer = send(player, game, PHONE, {"id": "u1", "kind": "undo", "base": 3}).json()
    assert answer["state"]["marks"] == {str(a): {"corner": [6]}}
    answer = send(player, game, PHONE, {"id": "u2", "kind": "undo", "base": 4}).json()
    assert answer["state"]["marks"] == {} and answer["state"]["values"][b] == "5"
    answer = send(player, game, PHONE, {"id": "r1", "kind": "redo", "base": 5}).json()
    assert answer["state"]["marks"] == {str(a): {"corner": [6]}}
    # A digit undone leaves the marks alone.
    answer = send(player, game, PHONE, mark("m3", [a], "centre", 6, digit=1)).json()
    answer = send(player, game, PHONE, {"id": "u3", "kind": "undo", "base": 7}).json()
    answer = send(player, game, PHONE, {"id": "u4", "kind": "undo", "base": 8}).json()
    answer = send(player, game, PHONE, {"id": "u5", "kind": "undo", "base": 9}).json()
    assert answer["state"]["values"][b] == "0"
    assert answer["state"]["marks"] == {}


def test_a_mark_on_a_cell_another_device_changed_meanwhile_is_refused_like_a_note(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    send(player, game, PHONE, mark("p1", [a], "colour", colour=1))
    answer = send(player, game, LAPTOP, mark("l1", [a], "colour", 0, colour=5)).json()
    assert [r["id"] for r in answer["refused"]] == ["l1"]
    assert answer["refused"][0]["cell"] == a
    assert "another device" in answer["refused"][0]["reason"]
    # Another cell merges in.
    answer = send(player, game, LAPTOP, mark("l2", [b], "corner", 0, digit=9)).json()
    assert answer["refused"] == []
    assert answer["state"]["marks"] == {str(a): {"colour": 1}, str(b): {"corner": [9]}}


def test_corner_and_centre_marks_go_in_empty_cells_only(player, stocked):
    game = start(player)
    a = empty_cells(game)[0]
    send(player, game, PHONE, {"id": "v", "kind": "move", "cell": a, "digit": 5, "base": 0})
    answer = send(player, game, PHONE, mark("c", [a], "corner", 1, digit=2)).json()
    assert [r["id"] for r in answer["refused"]] == ["c"]
    assert "holds a digit" in answer["refused"][0]["reason"]
    # A colour goes on any cell.
    answer = send(player, game, PHONE, mark("k", [a], "colour", 1, colour=2)).json()
    assert answer["refused"] == []


BAD_MARKS = [
    ({"layer": "corner", "digit": 1}, "cells"),
    ({"cells": [], "layer": "corner", "digit": 1}, "cells"),
    ({"cells": 3, "layer": "corner", "digit": 1}, "cells"),
    ({"cells": [81], "layer": "corner", "digit": 1}, "cells"),
    ({"cells": ["3"], "layer": "corner", "digit": 1}, "cells"),
    ({"cells": [True], "layer": "corner", "digit": 1}, "cells"),
    ({"cells": "CELL_TWICE", "layer": "corner", "digit": 1}, "twice"),
    ({"cells": "FIRST", "layer": "pen", "digit": 1}, "layer"),
    ({"cells": "FIRST", "digit": 1}, "layer"),
    ({"cells": "FIRST", "layer": "corner"}, "digit"),
    ({"cells": "FIRST", "layer": "corner", "digit": 10}, "digit"),
    ({"cells": "FIRST", "layer": "centre", "digit": -1}, "digit"),
    ({"cells": "FIRST", "layer": "colour"}, "colour"),
    ({"cells": "FIRST", "layer": "colour", "colour": 10}, "colour"),
    ({"cells": "FIRST", "layer": "colour", "colour": 1.5}, "colour"),
    ({"cells": "FIRST", "layer": "candidate", "colour": 1}, "digit"),
    ({"cells": "FIRST", "layer": "candidate", "digit": 0, "colour": 1}, "digit"),
    ({"cells": "FIRST", "layer": "candidate", "digit": 3}, "colour"),
    ({"cells": "GIVEN", "layer": "corner", "digit": 1}, "given"),
    ({"cells": "GIVEN", "layer": "candidate", "digit": 1, "colour": 1}, "given"),
]


@pytest.mark.parametrize(("fields", "message"), BAD_MARKS)
def test_a_bad_mark_is_400_in_words_and_stores_nothing(player, stocked, fields, message):
    game = start(player)
    a = empty_cells(game)[0]
    given = given_cell(game)
    cells = {"FIRST": [a], "CELL_TWICE": [a, a], "GIVEN": [given]}
    if isinstance(fields.get("cells"), str):
        fields = fields | {"cells": cells[fields["cells"]]}
    bad = {"id": "bad", "kind": "mark", "base": 0, **fields}
    response = send(player, game, PHONE, mark("good", [a], "colour", colour=1), bad)
    assert response.status_code == 400
    assert message in response.json()["error"]
    game.refresh_from_db()
    assert game.marks == {} and game.version == 0
    assert not Move.objects.exists() and not ChangeReceipt.objects.exists()


def test_the_replay_shows_the_marks_of_each_frame(player, stocked):
    game = start(player)
    a = empty_cells(game)[0]
    send(player, game, PHONE, mark("1", [a], "corner", digit=3), mark("2", [a], "colour", colour=7))
    assert post(player, game, "give-up").status_code == 200
    frames = player.get(f"/api/games/{game.pk}/replay").json()["frames"]
    assert [f["marks"] for f in frames] == [
        {},
        {str(a): {"corner": [3]}},
        {str(a): {"corner": [3], "colour": 7}},
    ]
    assert [f["kind"] for f in frames] == [None, "mark", "mark"]


def test_a_paused_game_shows_no_marks(player, stocked):
    game = start(player)
    a = empty_cells(game)[0]
    send(player, game, PHONE, mark("1", [a], "corner", digit=3))
    assert post(player, game, "pause").status_code == 200
    assert state(player, game)["marks"] == {}
