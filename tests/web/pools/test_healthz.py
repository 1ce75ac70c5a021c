"""/healthz (database, broker, fresh stock, workers) and /healthz/workers (for monitors)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import time_machine
from django.utils import timezone

from puzzles.pools.stock import fresh_counts
from sudokusite.processes import ROOT

from ..helpers import seen, stock

pytestmark = pytest.mark.django_db


@pytest.fixture
def frozen():
    """The clock stopped: a heartbeat written "181 s ago" is still 181 s old when read."""
    with time_machine.travel(timezone.now(), tick=False):
        yield


GONE = {
    "state": "gone",
    "alive": 0,
    "no_broker": 0,
    "gone": 0,
    "stopped": 0,
    "last_seen": None,
    "gone_names": [],
}


def test_healthz_reports_database_broker_pools_and_workers(client):
    stock("easy", 2)
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body | {"workers": None} == {
        "database": "ok",
        "broker": "ok",
        "pools": {"easy": 2, "medium": 0, "hard": 0, "expert": 0, "master": 0, "extreme": 0},
        "workers": None,
    }
    assert set(body["workers"]) == {"worker", "beat"}
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_healthz_says_broker_down_and_still_answers_200(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"] == "down"
    assert response.json()["database"] == "ok"


def test_healthz_refuses_anything_but_get(client):
    assert client.post("/healthz").status_code == 405
    assert client.post("/healthz/workers").status_code == 405


def test_fresh_counts_cover_every_difficulty():
    assert set(fresh_counts()) == {"easy", "medium", "hard", "expert", "master", "extreme"}


def test_with_no_worker_ever_seen_the_monitors_check_is_503_and_healthz_stays_200(client):
    site = client.get("/healthz")
    assert site.status_code == 200
    workers = site.json()["workers"]
    assert {kind: w | {"seconds_ago": None} for kind, w in workers.items()} == {
        "worker": GONE | {"seconds_ago": None},
        "beat": GONE | {"seconds_ago": None},
    }
    check = client.get("/healthz/workers")
    assert check.status_code == 503
    body = check.json()
    assert body["status"] == "down"
    assert body["problems"] == ["no worker has ever been seen", "no beat has ever been seen"]


def test_with_a_worker_and_beat_alive_both_checks_are_200_with_the_last_heartbeat(
    client, settings, frozen
):
    settings.WORKER_GONE_SECONDS = 180
    worker = seen("worker", "w1@host", 5)
    seen("beat", "beat@host", 12)
    check = client.get("/healthz/workers")
    assert check.status_code == 200
    body = check.json()
    assert body["status"] == "ok" and body["problems"] == []
    assert body["worker"]["state"] == "alive" and body["worker"]["alive"] == 1
    assert body["worker"]["last_seen"] == worker.seen_at.isoformat()
    assert body["worker"]["seconds_ago"] == 5
    assert body["beat"]["state"] == "alive"
    site = client.get("/healthz")
    assert site.status_code == 200
    assert site.json()["workers"]["worker"]["last_seen"] == worker.seen_at.isoformat()


def test_a_worker_not_seen_for_the_window_is_gone_and_named(client, settings, frozen):
    settings.WORKER_GONE_SECONDS = 180
    worker = seen("worker", "w1@host", 181)
    seen("beat", "beat@host", 3)
    check = client.get("/healthz/workers")
    assert check.status_code == 503
    (problem,) = check.json()["problems"]
    assert problem == (
        f"no worker alive: w1@host gone, last seen 181 s ago ({worker.seen_at.isoformat()}),"
        " no heartbeat for over 180 s"
    )
    site = client.get("/healthz")
    assert site.status_code == 200
    assert site.json()["workers"]["worker"] | {"seconds_ago": 0} == {
        "state": "gone",
        "alive": 0,
        "no_broker": 0,
        "gone": 1,
        "stopped": 0,
        "last_seen": worker.seen_at.isoformat(),
        "seconds_ago": 0,
        "gone_names": ["w1@host"],
    }
    assert site.json()["workers"]["beat"]["state"] == "alive"


def test_one_worker_alive_among_gone_and_stopped_ones_is_enough(client, settings):
    settings.WORKER_GONE_SECONDS = 180
    seen("worker", "old@host", 600)
    seen("worker", "retired@host", 30, stopped=True)
    seen("worker", "w2@host", 1)
    seen("beat", "beat@host", 1)
    check = client.get("/healthz/workers")
    assert check.status_code == 200
    assert check.json()["worker"] | {"seconds_ago": 0, "last_seen": None} == {
        "state": "alive",
        "alive": 1,
        "no_broker": 0,
        "gone": 1,
        "stopped": 1,
        "last_seen": None,
        "seconds_ago": 0,
        "gone_names": ["old@host"],
    }


def test_the_monitors_check_names_a_gone_worker_by_its_host_while_another_runs(client, settings):
    settings.WORKER_GONE_SECONDS = 180
    seen("worker", "worker1@wrk-a", 1)
    seen("worker", "worker1@wrk-b", 300)
    seen("beat", "beat@wrk-a", 1)
    check = client.get("/healthz/workers")
    assert check.status_code == 200
    assert check.json()["worker"]["gone_names"] == ["worker1@wrk-b"]
    assert check.json()["beat"]["gone_names"] == []
    site = client.get("/healthz")
    assert site.json()["workers"]["worker"]["gone_names"] == ["worker1@wrk-b"]
    assert "worker1@wrk-b" not in client.get("/healthz", REMOTE_ADDR="203.0.113.9").content.decode()


def test_a_beat_that_stopped_cleanly_is_missing_at_once_and_said_stopped(client, settings, frozen):
    settings.WORKER_GONE_SECONDS = 180
    seen("worker", "w1@host", 1)
    beat = seen("beat", "beat@host", 2, stopped=True)
    check = client.get("/healthz/workers")
    assert check.status_code == 503
    (problem,) = check.json()["problems"]
    assert problem == f"no beat alive: beat@host stopped at {beat.stopped_at.isoformat()}"
    assert check.json()["beat"]["state"] == "stopped"
    assert check.json()["beat"]["stopped"] == 1


def test_a_worker_that_cannot_reach_the_broker_is_not_alive_and_named(client, settings, frozen):
    settings.WORKER_GONE_SECONDS = 180
    lost = seen("worker", "w1@host", 2, broker_lost_seconds_ago=20)
    seen("beat", "beat@host", 2)
    check = client.get("/healthz/workers")
    assert check.status_code == 503
    (problem,) = check.json()["problems"]
    assert problem == (
        f"no worker alive: w1@host cannot reach the broker since {lost.broker_lost_at.isoformat()}"
    )
    assert check.json()["worker"] | {"seconds_ago": 0} == {
        "state": "no broker",
        "alive": 0,
        "no_broker": 1,
        "gone": 0,
        "stopped": 0,
        "last_seen": lost.seen_at.isoformat(),
        "seconds_ago": 0,
        "gone_names": [],
    }
    seen("worker", "w2@host", 1)  # another worker reaches it: the pools are kept
    assert client.get("/healthz/workers").status_code == 200


def test_the_health_checks_answer_plain_http_while_every_page_is_redirected(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/healthz/workers").status_code == 503
    for url in ("/", "/healthz/", "/healthzz", "/admin/", "/api/games/1", "/robots.txt"):
        response = client.get(url)
        assert response.status_code == 301, url
        assert response["Location"].startswith("https://"), url
    assert client.get("/healthz", secure=True).status_code == 200


@pytest.mark.parametrize(
    "env, outcome",
    [
        ({"HEARTBEAT_SECONDS": "60", "WORKER_GONE_SECONDS": "60"}, "must be longer than"),
        ({"REFILL_INTERVAL_SECONDS": "1"}, "1 3"),  # a heartbeat a second, gone after 3 s
        ({}, "15 45"),  # the defaults: three heartbeats missed, so a death pages within 2 min
    ],
)
def test_a_window_no_heartbeat_can_meet_is_refused_at_start(env, outcome):
    code = "from sudokusite import settings as s; print(s.HEARTBEAT_SECONDS, s.WORKER_GONE_SECONDS)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    if outcome.startswith("must"):
        assert result.returncode != 0 and outcome in result.stderr
    else:
        assert result.stdout.split() == outcome.split(), result.stderr
