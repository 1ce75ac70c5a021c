"""The game clock, whose rule lives in the model: it runs while the game is resumed, stops
IDLE_SECONDS after the player's last request, and the state tells a page how long it may
count on its own."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.utils import timezone

from puzzles.models import IDLE_SECONDS

from ..helpers import post, start

pytestmark = pytest.mark.django_db


def state(client, game) -> dict:
    return client.get(f"/api/games/{game.pk}").json()


def test_the_state_says_how_long_the_clock_runs_on_and_the_clock_agrees(client):
    now = timezone.now()
    with time_machine.travel(now, tick=False) as clock:
        game = start(client)
        post(client, game, "resume")
        assert state(client, game)["runs_for"] == IDLE_SECONDS
        clock.shift(100)
        seen = state(client, game)  # a look at the state is not a request of the player's
        assert seen["elapsed"] == 100 and seen["runs_for"] == IDLE_SECONDS - 100
        clock.shift(IDLE_SECONDS)  # past the limit: stopped where the page stops counting
        seen = state(client, game)
        assert seen["elapsed"] == IDLE_SECONDS and seen["runs_for"] == 0
        post(client, game, "resume")  # the player is back: the limit counts from now
        clock.shift(datetime.timedelta(seconds=30))
        seen = state(client, game)
        assert seen["elapsed"] == IDLE_SECONDS + 30 and seen["runs_for"] == IDLE_SECONDS - 30


def test_a_paused_clock_runs_for_nothing(client):
    now = timezone.now()
    with time_machine.travel(now, tick=False) as clock:
        game = start(client)
        post(client, game, "resume")
        clock.shift(42)
        post(client, game, "pause")
        clock.shift(1000)
        seen = state(client, game)
        assert seen["paused"] and seen["elapsed"] == 42 and seen["runs_for"] == 0


def test_a_page_on_its_way_out_does_not_stop_the_clock_its_reload_started(client):
    """A reload: the old page's pause (sent as it leaves) may reach the server after the new
    page's resume. The pages name themselves (device and the moment each opened), so the
    pause of a page older than the one that last started the clock on the same device
    changes nothing; a newer page's pause, and another device's, still stop it."""
    game = start(client)
    post(client, game, "pause", {"page": "device-one:1000"})
    assert post(client, game, "resume", {"page": "device-one:2000"}).status_code == 200
    late = post(client, game, "pause", {"page": "device-one:1000"})  # the old page's, late
    assert late.status_code == 200 and not late.json()["paused"]
    assert not state(client, game)["paused"]
    assert post(client, game, "pause", {"page": "device-one:3000"}).json()["paused"]
    post(client, game, "resume", {"page": "device-one:3000"})
    assert post(client, game, "pause", {"page": "device-two:10"}).json()["paused"]  # elsewhere
    post(client, game, "resume", {"page": "device-one:3000"})
    assert post(client, game, "pause").json()["paused"]  # a page that names none, as before


@pytest.mark.parametrize(
    "page", [17, "", "device-one", "dev:12", "device-one:twelve", "device-one:1:2", "x" * 41 + ":1"]
)
def test_a_page_named_wrongly_is_refused_and_changes_nothing(client, page):
    game = start(client)
    post(client, game, "resume")
    answer = post(client, game, "pause", {"page": page})
    assert answer.status_code == 400 and "page" in answer.json()["error"]
    assert not state(client, game)["paused"]
