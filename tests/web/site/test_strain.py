"""A strained web process asks the pages for patience: while its requests wait for a thread
(their X-Request-Start stamp) BUSY_WAIT_MS or more on average, a batch's answer carries
send_every, the longer cadence (BUSY_SEND_EVERY_MS) each page then sends on until an answer
says nothing of it; the page keeps every change meanwhile (static/js/game/sync.js)."""

from __future__ import annotations

import time

import pytest

from puzzles.site import shedding

from ..helpers import post, start, state

pytestmark = pytest.mark.django_db


def stamp(seconds_ago: float) -> dict:
    return {"X-Request-Start": f"t={time.time() - seconds_ago:.3f}"}


@pytest.fixture(autouse=True)
def strain(settings):
    settings.SHED_AFTER_MS = 1000
    settings.BUSY_WAIT_MS = 50
    settings.BUSY_SEND_EVERY_MS = 20000
    shedding.STRAIN.forget()
    yield shedding.STRAIN
    shedding.STRAIN.forget()


def batch(client, game, cell: int, n: int, headers: dict | None = None):
    change = {"id": f"c{n}", "kind": "move", "cell": cell, "digit": (n % 9) + 1, "base": 0}
    body = {"device": "phone-0001", "changes": [change]}
    response = post(client, game, "changes", body, headers=headers or {})
    assert response.status_code == 200, response.content
    return response.json()


def test_an_unstrained_site_asks_for_no_other_cadence(client, stocked):
    game = start(client)
    cell = state(client, game)["values"].index("0")
    for n in range(5):
        assert "send_every" not in batch(client, game, cell, n, stamp(0.005))
    assert "send_every" not in batch(client, game, cell, 9)  # no stamp: nothing known


def test_requests_that_waited_make_the_batch_answers_ask_for_the_longer_cadence(client, stocked):
    game = start(client)
    cell = state(client, game)["values"].index("0")
    for n in range(4):
        answer = batch(client, game, cell, n, stamp(0.2))  # waited 200 ms, not shed
    assert answer["send_every"] == 20000
    assert answer["applied"] == ["c3"]


def test_the_strain_passes_with_the_waits(strain):
    now = 1000.0
    for n in range(20):
        strain.note(200, now + n * 0.1)
    assert strain.strained(now + 2)
    for n in range(200):
        strain.note(2, now + 2 + n * 0.05)
    assert not strain.strained(now + 12.5)
    assert not strain.strained(now + 60)  # nothing heard of late: not strained


def test_the_longer_cadence_is_off_with_zero(client, stocked, settings):
    settings.BUSY_SEND_EVERY_MS = 0
    game = start(client)
    cell = state(client, game)["values"].index("0")
    for n in range(4):
        answer = batch(client, game, cell, n, stamp(0.2))
    assert "send_every" not in answer
