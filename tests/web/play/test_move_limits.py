"""Moves have a cap and a pace: a game's move log holds at most MOVE_LOG_CAP moves, and a
game takes moves in a burst then at a steady rate, on every path that stores them (single
moves, batches of changes). Replays come in pages, and a finished game's is worked out once."""

from __future__ import annotations

import datetime
import json
import re

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from puzzles.models import Game, Move
from puzzles.play import changes, pace

from ..helpers import post, start

pytestmark = pytest.mark.django_db


def blank_of(game: Game) -> int:
    return game.puzzle.givens.index("0")


def toggle(client, game: Game, version: int):
    body = {"cell": blank_of(game), "digit": 1, "mode": "note", "version": version}
    return post(client, game, "moves", body)


def toggles(client, game: Game, n: int, version: int = 0) -> int:
    """n note toggles in a row, each accepted; the version after them."""
    for _ in range(n):
        response = toggle(client, game, version)
        assert response.status_code == 200
        version = response.json()["version"]
    return version


def batch(client, game: Game, n: int, first: int = 0, base: int = 0):
    changes = [
        {
            "id": f"c{first + i}",
            "kind": "move",
            "cell": blank_of(game),
            "digit": 1,
            "mode": "note",
            "base": base,
        }
        for i in range(n)
    ]
    return post(client, game, "changes", {"device": "device-one", "changes": changes})


# The cap -----------------------------------------------------------------------------------


def test_a_move_past_the_cap_of_the_move_log_is_refused_and_changes_nothing(
    client, stocked, monkeypatch
):
    monkeypatch.setattr(changes, "MOVE_LOG_CAP", 12)
    game = start(client)
    version = toggles(client, game, 12)
    refused = toggle(client, game, version)
    assert refused.status_code == 409
    assert "12 moves" in refused.json()["error"]
    assert refused.json()["state"]["version"] == version
    assert Move.objects.filter(game=game).count() == 12
    # Undo still works, and a move then takes the place of the one taken back.
    version = post(client, game, "undo", {"version": version}).json()["version"]
    assert toggle(client, game, version).status_code == 200


def test_the_cap_is_the_same_for_a_batch_of_changes(client, stocked, monkeypatch):
    monkeypatch.setattr(changes, "MOVE_LOG_CAP", 12)
    game = start(client)
    response = batch(client, game, 15)
    assert response.status_code == 200
    body = response.json()
    assert len(body["applied"]) == 12 and len(body["refused"]) == 3
    assert "12 moves" in body["refused"][0]["reason"]
    assert Game.objects.get(pk=game.pk).moves_logged == 12


def test_the_cap_is_far_beyond_any_human_game():
    assert changes.MOVE_LOG_CAP >= 5000


# The pace ----------------------------------------------------------------------------------


def test_a_burst_of_moves_then_a_steady_rate(client, stocked):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game = start(client)
        version = toggles(client, game, pace.MOVE_BURST)
        refused = toggle(client, game, version)
        assert refused.status_code == 429
        assert int(refused["Retry-After"]) >= 1
        assert refused.json()["state"]["version"] == version
        clock.shift(datetime.timedelta(seconds=2))
        allowed = 0
        while toggle(client, game, version + allowed).status_code == 200:
            allowed += 1
        assert allowed == 2 * pace.MOVE_RATE


def test_a_batch_past_the_pace_is_refused_whole_and_stores_nothing(client, stocked):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game = start(client)
        first = batch(client, game, pace.MOVE_BURST - 5)
        assert first.status_code == 200 and not first.json()["refused"]
        logged = Game.objects.get(pk=game.pk).moves_logged
        second = batch(client, game, 10, first=1000, base=logged)
        assert second.status_code == 429 and int(second["Retry-After"]) >= 1
        assert Game.objects.get(pk=game.pk).moves_logged == logged
        clock.shift(datetime.timedelta(seconds=10))
        again = batch(client, game, 10, first=1000, base=logged)
        assert again.status_code == 200 and len(again.json()["applied"]) == 10


def test_a_fast_human_is_never_slowed_down(client, stocked):
    """A digit or a note every 0.2 s for a whole expert game: never refused."""
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game = start(client)
        version = 0
        for _ in range(300):
            response = toggle(client, game, version)
            assert response.status_code == 200
            version = response.json()["version"]
            clock.shift(datetime.timedelta(seconds=0.2))


# Replays -----------------------------------------------------------------------------------


def finished_with_moves(client, n: int) -> Game:
    game = start(client)
    toggles(client, game, n)
    post(client, game, "give-up")
    return game


def test_the_replay_comes_in_pages_that_add_up_to_the_whole(client, stocked):
    game = finished_with_moves(client, 25)
    whole = client.get(f"/api/games/{game.pk}/replay").json()
    assert len(whole["frames"]) == 26 and whole["total"] == 26
    pages, start_at = [], 0
    while start_at is not None:
        page = client.get(f"/api/games/{game.pk}/replay?start={start_at}&count=10").json()
        assert page["total"] == 26 and page["start"] == start_at
        pages += page["frames"]
        start_at = page["next"]
    assert pages == whole["frames"]
    for bad in ("start=-1", "count=0", "count=100000", "start=x", "count=1.5"):
        response = client.get(f"/api/games/{game.pk}/replay?{bad}")
        assert response.status_code == 400 and "error" in response.json()


def test_a_page_of_a_finished_games_replay_reads_only_the_moves_it_shows(client, stocked):
    game = finished_with_moves(client, 8)
    first = client.get(f"/api/games/{game.pk}/replay").json()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(f"/api/games/{game.pk}/replay?start=3&count=2").json()
    assert again["frames"] == first["frames"][3:5]
    # The boards to start from were worked out once; the page reads its own moves by number.
    [read] = [q["sql"] for q in queries if "puzzles_move" in q["sql"]]
    assert '"number" >' in read and '"number" <' in read
    assert json.dumps(again)  # plain JSON


# A paused game ----------------------------------------------------------------------------


def test_a_paused_games_state_hides_the_board_as_the_page_does(client, stocked):
    game = start(client)
    blank = blank_of(game)
    digit = int(game.puzzle.solution[blank])
    body = {"cell": blank, "digit": digit, "mode": "value", "version": 0}
    post(client, game, "moves", body)
    post(
        client,
        game,
        "moves",
        {
            "cell": blank + 1 if game.puzzle.givens[blank + 1] == "0" else blank,
            "digit": 0,
            "mode": "note",
            "version": 1,
        },
    )
    paused = post(client, game, "pause").json()
    assert paused["paused"] and paused["hidden"]
    for body in (paused, client.get(f"/api/games/{game.pk}").json()):
        assert body["values"] == game.puzzle.givens  # the givens only, as on a blank sheet
        assert body["notes"] == [[] for _ in range(81)] and body["conflicts"] == []
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'"values": "{game.puzzle.givens}"' in page
    drawn = re.findall(r'data-cell="(\d+)"[^>]*data-value="(\d)"', page)
    assert len(drawn) == 81
    assert "".join(v for _, v in sorted(drawn, key=lambda d: int(d[0]))) == game.puzzle.givens
    resumed = post(client, game, "resume").json()
    assert not resumed["paused"] and not resumed["hidden"]
    assert resumed["values"][blank] == str(digit)
