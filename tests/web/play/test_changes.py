"""The batch of queued changes a page sends (POST /api/games/<id>/changes): stored once,
merged cell by cell across devices, refused whole when anything in it is bad."""

from __future__ import annotations

import json
import random

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from puzzles.accounts.players import Player
from puzzles.models import IDLE_SECONDS, ChangeReceipt, Game, Move
from puzzles.play import changes, starting

from ..helpers import LAPTOP, PHONE, empty_cells, post, start, state

pytestmark = pytest.mark.django_db


def right(game: Game, cell: int) -> int:
    return int(game.puzzle.solution[cell])


def move(cid: str, cell: int, digit: int, base: int, mode: str = "value") -> dict:
    return {"id": cid, "kind": "move", "cell": cell, "digit": digit, "mode": mode, "base": base}


def send(client, game: Game, device: str, *changes: dict):
    return post(client, game, "changes", {"device": device, "changes": list(changes)})


def stored(game: Game) -> tuple[int, int, str]:
    game.refresh_from_db()
    return game.version, Move.objects.filter(game=game).count(), game.values


def without_clock(answer: dict) -> dict:
    """A state less the clock's figures, which move on between two requests."""
    return {k: v for k, v in answer.items() if k not in ("elapsed", "runs_for")}


def test_a_batch_stores_its_moves_in_order_and_answers_the_state(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    response = send(player, game, PHONE, move("m1", a, right(game, a), 0), move("m2", b, 5, 0))
    assert response.status_code == 200
    body = response.json()
    assert body["applied"] == ["m1", "m2"] and body["refused"] == []
    assert without_clock(body["state"]) == without_clock(state(player, game))
    assert body["state"]["values"][a] == game.puzzle.solution[a]
    assert body["state"]["values"][b] == "5"
    assert body["state"]["version"] == 2


def test_a_batch_sent_twice_is_stored_once(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    batch = [move("m1", a, 3, 0), move("m2", b, 4, 0), move("m3", a, 0, 0)]
    first = send(player, game, PHONE, *batch)
    assert first.status_code == 200
    after_first = stored(game)
    again = send(player, game, PHONE, *batch)
    assert again.status_code == 200
    assert again.json()["applied"] == ["m1", "m2", "m3"]
    assert stored(game) == after_first
    assert again.json()["state"]["version"] == first.json()["state"]["version"]
    # A later batch carrying the old ids beside a new one stores only the new one.
    c = empty_cells(game)[2]
    third = send(player, game, PHONE, *batch, move("m4", c, 6, after_first[0]))
    assert third.json()["applied"] == ["m1", "m2", "m3", "m4"]
    assert stored(game)[:2] == (after_first[0] + 1, after_first[1] + 1)


def test_two_devices_on_different_cells_are_both_kept(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    assert send(player, game, PHONE, move("p1", a, right(game, a), 0)).json()["refused"] == []
    answer = send(player, game, LAPTOP, move("l1", b, right(game, b), 0)).json()
    assert answer["refused"] == [] and answer["applied"] == ["l1"]
    values = answer["state"]["values"]
    assert values[a] == game.puzzle.solution[a] and values[b] == game.puzzle.solution[b]


def test_two_devices_on_the_same_cell_keep_the_first_and_refuse_the_other_in_words(player, stocked):
    game = start(player)
    a = empty_cells(game)[0]
    send(player, game, PHONE, move("p1", a, 7, 0))
    answer = send(player, game, LAPTOP, move("l1", a, 8, 0), move("l2", a, 0, 0, "note")).json()
    assert answer["applied"] == []
    assert [r["id"] for r in answer["refused"]] == ["l1", "l2"]
    refusal = answer["refused"][0]
    assert refusal["cell"] == a
    assert f"row {a // 9 + 1}, column {a % 9 + 1}" in refusal["reason"].lower()
    assert "another device" in refusal["reason"]
    assert answer["state"]["values"][a] == "7"
    # Sent again, the refusal says the same, and still nothing is stored.
    again = send(player, game, LAPTOP, move("l1", a, 8, 0)).json()
    assert again["refused"] == [answer["refused"][0]]
    assert stored(game)[1] == 1


def test_a_device_may_change_its_own_cells_again_on_an_old_base(player, stocked):
    game = start(player)
    a = empty_cells(game)[0]
    send(player, game, PHONE, move("p1", a, 7, 0))
    answer = send(player, game, PHONE, move("p2", a, 8, 0)).json()
    assert answer["applied"] == ["p2"] and answer["state"]["values"][a] == "8"


def test_a_device_that_saw_the_other_change_may_change_the_cell(player, stocked):
    game = start(player)
    a = empty_cells(game)[0]
    version = send(player, game, PHONE, move("p1", a, 7, 0)).json()["state"]["version"]
    answer = send(player, game, LAPTOP, move("l1", a, 8, version)).json()
    assert answer["applied"] == ["l1"] and answer["state"]["values"][a] == "8"


def test_a_move_made_through_the_single_move_call_counts_as_another_device(player, stocked):
    game = start(player)
    a = empty_cells(game)[0]
    assert post(player, game, "moves", {"cell": a, "digit": 4, "version": 0}).status_code == 200
    answer = send(player, game, PHONE, move("p1", a, 5, 0)).json()
    assert [r["id"] for r in answer["refused"]] == ["p1"]


def test_undo_and_redo_in_a_batch_walk_the_log(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    changes = [
        move("m1", a, 3, 0),
        move("m2", b, 4, 0),
        {"id": "u1", "kind": "undo", "base": 0},
        {"id": "u2", "kind": "undo", "base": 0},
        {"id": "r1", "kind": "redo", "base": 0},
    ]
    answer = send(player, game, PHONE, *changes).json()
    assert answer["refused"] == []
    assert answer["state"]["values"][a] == "3" and answer["state"]["values"][b] == "0"
    assert answer["state"]["can_redo"] and answer["state"]["can_undo"]


def test_undo_of_a_move_another_device_made_meanwhile_is_refused(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    send(player, game, PHONE, move("p1", a, 3, 0))
    send(player, game, LAPTOP, move("l1", b, 4, 1))
    # The phone, still on version 1, undoes what it thinks is its last move.
    answer = send(player, game, PHONE, {"id": "p2", "kind": "undo", "base": 1}).json()
    assert [r["id"] for r in answer["refused"]] == ["p2"]
    assert "another device" in answer["refused"][0]["reason"]
    assert answer["state"]["values"][b] == "4"


def test_nothing_to_undo_is_refused_in_words_not_an_error(player, stocked):
    game = start(player)
    answer = send(player, game, PHONE, {"id": "u1", "kind": "undo", "base": 0})
    assert answer.status_code == 200
    assert answer.json()["refused"] == [{"id": "u1", "cell": None, "reason": "Nothing to undo."}]


def test_fill_notes_in_a_batch_is_one_move(player, stocked):
    game = start(player)
    answer = send(player, game, PHONE, {"id": "f1", "kind": "fill-notes", "base": 0}).json()
    assert answer["applied"] == ["f1"]
    assert answer["state"]["complete"].count("1") == len(empty_cells(game))
    assert stored(game)[1] == 1


def test_changes_after_the_batch_solved_the_game_are_refused(player, stocked):
    game = start(player)
    cells = empty_cells(game)
    changes = [move(f"m{c}", c, right(game, c), 0) for c in cells]
    changes.append(move("late", cells[0], 0, 0))
    answer = send(player, game, PHONE, *changes).json()
    assert answer["state"]["status"] == "solved"
    assert answer["applied"] == [c["id"] for c in changes[:-1]]
    assert [r["id"] for r in answer["refused"]] == ["late"]


def test_a_batch_on_a_game_over_is_409_with_the_state(player, stocked):
    game = start(player)
    assert post(player, game, "give-up").status_code == 200
    a = empty_cells(game)[0]
    response = send(player, game, PHONE, move("m1", a, 3, 0))
    assert response.status_code == 409
    assert response.json()["state"]["status"] == "gave_up"
    assert not ChangeReceipt.objects.exists()


def test_a_batch_on_another_players_game_is_404(client, alice, bob, stocked):
    client.force_login(alice)
    game = start(client)
    client.force_login(bob)
    assert send(client, game, PHONE, move("m1", empty_cells(game)[0], 3, 0)).status_code == 404


NAN, INF = float("nan"), float("inf")
BAD = [
    ("not json", "JSON"),
    ("[1]", "JSON object"),
    ({"changes": [{"id": "a", "kind": "undo", "base": 0}]}, "device"),
    ({"device": "short", "changes": [{"id": "a", "kind": "undo", "base": 0}]}, "device"),
    ({"device": "bad device!", "changes": [{"id": "a", "kind": "undo", "base": 0}]}, "device"),
    ({"device": PHONE}, "changes"),
    ({"device": PHONE, "changes": []}, "changes"),
    ({"device": PHONE, "changes": {"id": "a"}}, "changes"),
    ({"device": PHONE, "changes": [{"id": "a", "kind": "undo", "base": 0}] * 201}, "changes"),
    ({"device": PHONE, "changes": ["move"]}, "object"),
    ({"device": PHONE, "changes": [{"kind": "undo", "base": 0}]}, "id"),
    ({"device": PHONE, "changes": [{"id": "x" * 65, "kind": "undo", "base": 0}]}, "id"),
    ({"device": PHONE, "changes": [{"id": "a b", "kind": "undo", "base": 0}]}, "id"),
    ({"device": PHONE, "changes": [{"id": "a", "kind": "hint", "base": 0}]}, "kind"),
    ({"device": PHONE, "changes": [{"id": "a", "kind": "undo"}]}, "base"),
    ({"device": PHONE, "changes": [{"id": "a", "kind": "undo", "base": -1}]}, "base"),
    ({"device": PHONE, "changes": [{"id": "a", "kind": "undo", "base": "1"}]}, "base"),
    ({"device": PHONE, "changes": [{"id": "a", "kind": "undo", "base": 0, "at": "now"}]}, "at"),
    # NaN and Infinity are not JSON, though Python's reader takes them.
    ({"device": PHONE, "changes": [{"id": "a", "kind": "undo", "base": 0, "at": NAN}]}, "JSON"),
    ({"device": PHONE, "changes": [{"id": "a", "kind": "undo", "base": 0, "at": INF}]}, "JSON"),
    ({"device": PHONE, "changes": [{"id": "a", "kind": "move", "digit": 1, "base": 0}]}, "cell"),
]


@pytest.mark.parametrize(("body", "message"), BAD)
def test_a_bad_batch_is_400_in_words_and_stores_nothing(player, stocked, body, message):
    game = start(player)
    a = empty_cells(game)[0]
    # A good change ahead of the bad one is not stored either.
    if isinstance(body, dict) and isinstance(body.get("changes"), list) and body["changes"]:
        body = body | {"changes": [move("good", a, 3, 0), *body["changes"]]}
    response = post(player, game, "changes", body)
    assert response.status_code == 400
    assert message in response.json()["error"]
    assert stored(game) == (0, 0, game.puzzle.givens)
    assert not ChangeReceipt.objects.exists()


def test_a_batch_with_a_move_on_a_given_or_an_id_twice_is_400(player, stocked):
    game = start(player)
    a = empty_cells(game)[0]
    given = game.puzzle.givens.index(next(ch for ch in game.puzzle.givens if ch != "0"))
    for bad in (
        [move("m1", a, 3, 0), move("m2", given, 3, 0)],
        [move("m1", a, 3, 0), move("m1", a, 4, 0)],
    ):
        response = post(player, game, "changes", {"device": PHONE, "changes": bad})
        assert response.status_code == 400
        assert stored(game) == (0, 0, game.puzzle.givens)


def _mangle(rng: random.Random, value: object) -> object:
    return rng.choice(
        [None, -1, 81, 10, 2**40, 1.5, True, "", "x" * 70, [], {}, "value", "note", value]
    )


def test_fuzzed_batches_answer_200_or_400_and_a_400_stores_nothing(player, stocked):
    game = start(player)
    rng = random.Random(21)
    cells = empty_cells(game)
    for round_ in range(120):
        changes = [
            move(f"r{round_}c{i}", rng.choice(cells), rng.randint(0, 9), 0) for i in range(3)
        ]
        victim = rng.choice(changes)
        field = rng.choice(["id", "kind", "cell", "digit", "mode", "base", "at"])
        victim[field] = _mangle(rng, victim.get(field))
        before = stored(game)
        receipts = ChangeReceipt.objects.count()
        response = post(player, game, "changes", {"device": PHONE, "changes": changes})
        assert response.status_code in (200, 400), response.content
        if response.status_code == 400:
            assert "error" in response.json()
            assert stored(game) == before and ChangeReceipt.objects.count() == receipts
    assert json.loads(json.dumps(state(player, game)))["status"] in ("playing", "solved")


def test_a_batch_writes_the_game_once_and_its_moves_in_one_statement(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[0], empty_cells(game)[25]
    changes = [move(f"m{n}", c, n % 9 + 1, 0) for n, c in enumerate(empty_cells(game)[:20])]
    changes += [
        {"id": "u1", "kind": "undo", "base": 0},
        {"id": "u2", "kind": "undo", "base": 0},
        {"id": "r1", "kind": "redo", "base": 0},
        move("after-undo", a, 9, 0),  # drops the move still undone
        {"id": "f1", "kind": "fill-notes", "base": 0},
        move("note", b, 0, 0, "note"),
    ]
    with CaptureQueriesContext(connection) as queries:
        answer = send(player, game, PHONE, *changes)
    assert answer.status_code == 200 and answer.json()["refused"] == []
    writes = [q["sql"].split()[0] for q in queries.captured_queries]
    assert writes.count("UPDATE") == 1 and writes.count("INSERT") == 2  # moves, receipts
    # The log is what single calls would have left: 19 moves kept, the one undone
    # replaced, a fill and a note.
    game.refresh_from_db()
    log = list(game.moves.order_by("number"))
    assert [m.number for m in log] == list(range(1, 23))
    assert (log[19].cell, log[19].digit, log[20].kind, log[21].kind) == (a, 9, "fill", "note")
    assert game.moves_applied == game.moves_logged == 22
    assert answer.json()["state"]["version"] == game.version == 26
    assert without_clock(answer.json()["state"]) == without_clock(state(player, game))


def test_a_change_refused_part_way_counts_nothing(player, stocked, monkeypatch):
    """A move past the log's cap is refused before its mistake is counted: the batch's
    write leaves that count out."""
    monkeypatch.setattr(changes, "MOVE_LOG_CAP", 3)
    game = start(player)
    cells = empty_cells(game)[:4]
    wrong = [next(d for d in range(1, 10) if str(d) != game.puzzle.solution[c]) for c in cells]
    answer = send(
        player, game, PHONE, *(move(f"m{n}", c, wrong[n], 0) for n, c in enumerate(cells))
    )
    assert [r["id"] for r in answer.json()["refused"]] == ["m3"]
    game.refresh_from_db()
    assert (game.mistakes, game.moves_logged, game.version) == (3, 3, 3)


def test_an_offline_stretch_counts_as_the_server_saw_it_and_device_times_are_not_believed(
    player, stocked
):
    """Offline for half an hour: the clock ran on to the idle limit past the last request
    it saw, stopped, and starts again when the batch arrives; the moves' own times, however
    early or late, change nothing."""
    now = timezone.now()
    with time_machine.travel(now, tick=False) as clock:
        game = start(player)
        a, b = empty_cells(game)[:2]
        clock.shift(60)
        send(player, game, PHONE, move("m1", a, 3, 0))
        clock.shift(1800)  # offline: the page queues its changes
        early = {"at": 0} | move("m2", b, 4, 1)
        late = {"at": 10**15} | move("m3", a, 5, 1)
        answer = send(player, game, PHONE, early, late).json()
        assert answer["refused"] == []
        assert answer["state"]["elapsed"] == 60 + IDLE_SECONDS
        clock.shift(30)
        assert state(player, game)["elapsed"] == 60 + IDLE_SECONDS + 30


def test_a_solve_finished_by_a_batch_is_timed_and_judged_as_online(player, stocked):
    """Solved offline in one sitting just after the start: the time is what the server
    counted, so a solve faster than a person could is kept off the rankings as online."""
    now = timezone.now()
    with time_machine.travel(now, tick=False) as clock:
        game = start(player)
        clock.shift(5)
        cells = empty_cells(game)
        answer = send(player, game, PHONE, *(move(f"m{c}", c, right(game, c), 0) for c in cells))
        body = answer.json()["state"]
        assert body["status"] == "solved" and body["elapsed"] == 5
        game.refresh_from_db()
        assert game.too_fast and not game.ranked


def _random_changes(rng: random.Random, game: Game, count: int) -> list[dict]:
    cells = empty_cells(game)
    changes = []
    for n in range(count):
        roll = rng.random()
        if roll < 0.1:
            changes.append({"id": f"c{n}", "kind": rng.choice(["undo", "redo"]), "base": 0})
        elif roll < 0.13:
            changes.append({"id": f"c{n}", "kind": "fill-notes", "base": 0})
        else:
            mode = rng.choice(["value", "value", "note"])
            changes.append(move(f"c{n}", rng.choice(cells[:12]), rng.randint(0, 9), 0, mode))
    return changes


def _single_call(client, game: Game, change: dict, version: int):
    if change["kind"] == "move":
        body = {k: change[k] for k in ("cell", "digit", "mode")} | {"version": version}
        return post(client, game, "moves", body)
    return post(client, game, change["kind"], {"version": version})


@pytest.mark.parametrize("seed", range(4))
def test_a_batch_leaves_the_game_as_the_same_changes_sent_one_by_one(
    client, alice, bob, stocked, seed
):
    """One storing path: a batch's board, notes, notes taken, counters and move log are
    those the single calls leave, on another player's game on the same puzzle."""
    client.force_login(alice)
    batched = start(client)
    one_by_one = starting.game_on(Player(user=bob), batched.puzzle)
    changes = _random_changes(random.Random(seed), batched, 60)
    answer = send(client, batched, PHONE, *changes).json()
    client.force_login(bob)
    version, refused = 0, []
    for change in changes:
        response = _single_call(client, one_by_one, change, version)
        if response.status_code != 200:
            refused.append(change["id"])
            assert response.status_code in (400, 409), response.content
        version = response.json().get("version", response.json().get("state", {}).get("version"))
    assert [r["id"] for r in answer["refused"]] == refused
    batched.refresh_from_db()
    one_by_one.refresh_from_db()
    fields = ("values", "notes", "complete", "taken", "version", "mistakes", "status")
    fields += ("moves_applied", "moves_logged")
    assert [getattr(batched, f) for f in fields] == [getattr(one_by_one, f) for f in fields]
    log = [(m.number, m.kind, m.cell, m.digit, m.changes) for m in batched.moves.all()]
    assert log == [(m.number, m.kind, m.cell, m.digit, m.changes) for m in one_by_one.moves.all()]


def test_a_game_over_keeps_no_receipts_and_a_batch_sent_again_gets_its_state(player, stocked):
    game = start(player)
    cells = empty_cells(game)
    send(player, game, PHONE, move("early", cells[0], right(game, cells[0]), 0))
    assert ChangeReceipt.objects.filter(game=game).count() == 1
    solving = [move(f"m{c}", c, right(game, c), 1) for c in cells[1:]]
    assert send(player, game, PHONE, *solving).json()["state"]["status"] == "solved"
    assert not ChangeReceipt.objects.filter(game=game).exists()
    again = send(player, game, PHONE, *solving)  # its answer was lost on the way
    assert again.status_code == 409 and again.json()["state"]["status"] == "solved"
    assert stored(game)[1] == len(cells)


def test_giving_up_forgets_the_receipts(player, stocked):
    game = start(player)
    a = empty_cells(game)[0]
    send(player, game, PHONE, move("m1", a, 3, 0))
    assert post(player, game, "give-up").status_code == 200
    assert not ChangeReceipt.objects.filter(game=game).exists()


def test_a_guest_sends_batches_too_and_a_batch_needs_the_csrf_token(client, stocked):
    browser = Client(enforce_csrf_checks=True)
    token = browser.get("/").cookies["csrftoken"].value
    response = browser.post("/play/easy/", HTTP_X_CSRFTOKEN=token)
    game = Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    body = {"device": PHONE, "changes": [move("m1", empty_cells(game)[0], 3, 0)]}
    assert post(browser, game, "changes", body).status_code == 403
    assert stored(game)[1] == 0
    answer = post(browser, game, "changes", body, HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 200 and answer.json()["applied"] == ["m1"]
    # Another guest cannot send changes to that game.
    assert post(client, game, "changes", body | {"device": LAPTOP}).status_code == 404
