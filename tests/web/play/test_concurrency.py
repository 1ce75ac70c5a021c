"""Two tabs of one game sending moves at once: nothing accepted is lost, and the board is
exactly what replaying the move log gives."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connections
from django.test import Client

from ...harness import run_together
from ..helpers import post, replay, start, state

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_tabs_moving_at_once_lose_nothing_and_the_board_replays_the_log(alice, stocked):
    first, second = Client(), Client()
    first.force_login(alice)
    second.force_login(alice)
    game = start(first)
    blanks = [c for c, ch in enumerate(game.puzzle.givens) if ch == "0"]
    accepted: list[tuple[int, int, str, int, int]] = []  # cell, digit, mode, sent, got
    conflicts = []
    barrier = threading.Barrier(2, timeout=30)  # a tab that dies early breaks it, not hangs

    opened = {id(c): state(c, game)["version"] for c in (first, second)}  # both tabs open

    def tab(client: Client, seed: int) -> None:
        rng = random.Random(seed)
        version = opened[id(client)]
        try:
            barrier.wait()
            for _ in range(25):
                cell, digit = rng.choice(blanks), rng.randint(0, 9)
                mode = rng.choice(["value", "value", "note"])
                body = {"cell": cell, "digit": digit, "mode": mode, "version": version}
                response = post(client, game, "moves", body)
                if response.status_code == 200:
                    accepted.append((cell, digit, mode, version, response.json()["version"]))
                    version = response.json()["version"]
                elif response.status_code == 409:
                    conflicts.append(response.json()["error"])
                    version = response.json()["state"]["version"]
                else:
                    assert response.status_code == 400, response.content  # a note on a digit
        except BaseException:
            barrier.abort()  # the other tab stops waiting for this one
            raise
        finally:
            connections.close_all()

    # A failed assertion in a tab, or an error page the client raises, fails the test.
    run_together(lambda: tab(first, 0), lambda: tab(second, 1))

    game.refresh_from_db()
    # A move that changes the board bumps the version by one; one that changes nothing
    # (a digit already there) is accepted and leaves it.
    changing = [a for a in accepted if a[4] == a[3] + 1]
    assert all(a[4] in (a[3], a[3] + 1) for a in accepted)
    assert sorted(a[4] for a in changing) == list(range(1, len(changing) + 1))
    log = list(game.moves.order_by("number"))
    assert len(log) == game.moves_applied == game.version == len(changing)
    for cell, digit, mode, _, got in changing:  # each accepted move is in the log, in its place
        move = log[got - 1]
        assert (move.number, move.cell, move.digit, move.kind) == (got, cell, digit, mode)
    values, notes = replay(game.puzzle.givens, [move.changes for move in log])
    assert values == game.values
    assert notes == [sorted(n) for n in game.notes]
    assert conflicts, "the two tabs never collided; the test proved nothing"


def test_one_batch_sent_twice_at_once_is_stored_once(alice, stocked):
    """A page that resends its queue while the first send is still under way (a timeout on
    a slow network): both answers say the changes are stored, and they are stored once."""
    first, second = Client(), Client()
    first.force_login(alice)
    second.force_login(alice)
    game = start(first)
    blanks = [c for c, ch in enumerate(game.puzzle.givens) if ch == "0"][:30]
    changes = [
        {"id": f"c{n}", "kind": "move", "cell": c, "digit": n % 9 + 1, "base": 0}
        for n, c in enumerate(blanks)
    ]
    body = {"device": "phone-0001", "changes": changes}
    answers = []
    barrier = threading.Barrier(2, timeout=30)

    def send(client: Client) -> None:
        try:
            barrier.wait()
            answers.append(post(client, game, "changes", body))
        except BaseException:
            barrier.abort()
            raise
        finally:
            connections.close_all()

    run_together(lambda: send(first), lambda: send(second))
    assert [a.status_code for a in answers] == [200, 200], [a.content for a in answers]
    for answer in answers:
        assert answer.json()["applied"] == [c["id"] for c in changes]
    game.refresh_from_db()
    assert game.version == game.moves_applied == game.moves.count() == len(blanks)
    assert game.receipts.count() == len(blanks)
