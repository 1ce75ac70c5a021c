"""Workers and beat you can see, in production settings under gunicorn: the health checks
over plain HTTP while every page keeps its redirect to HTTPS, real workers and beat seen
alive, a worker killed seen gone within WORKER_GONE_SECONDS, a new one seen alive; and the
metrics of gunicorn's several processes added up in one scrape."""

from __future__ import annotations

import datetime
import json

import pytest
from django.utils import timezone

from ..harness import (
    Beat,
    Gunicorn,
    Player,
    PrivateRedis,
    WorkerProcess,
    metric_value,
    production_env,
    wait_until,
)
from .helpers import broker_url, database_url, set_targets

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

HEARTBEAT = 1  # seconds between heartbeats, in these tests
WINDOW = 10  # WORKER_GONE_SECONDS, in these tests: long enough for a loaded machine
TOKEN = "metrics-" + "t" * 40


@pytest.fixture
def site_env() -> dict[str, str]:
    """Production settings behind a TLS-terminating proxy, as docs/operations.md has them."""
    set_targets()  # no pool wants a refill: the workers stay idle
    return production_env(database_url(), broker_url()) | {
        "DJANGO_HTTPS": "1",
        "DJANGO_BEHIND_PROXY": "1",
        "HEARTBEAT_SECONDS": str(HEARTBEAT),
        "WORKER_GONE_SECONDS": str(WINDOW),
        "METRICS_TOKEN": TOKEN,
    }


def check(player: Player, path: str) -> tuple[int, dict]:
    status, _, body = player.send("GET", path)
    return status, json.loads(body)


def states(player: Player) -> set[str]:
    """The worker's and beat's states, as /healthz/workers tells a monitor."""
    body = check(player, "/healthz/workers")[1]
    return {body["worker"]["state"], body["beat"]["state"]}


def test_workers_are_seen_alive_gone_when_killed_and_alive_again_over_plain_http(site_env):
    started = [site := Gunicorn(site_env)]
    try:
        plain = Player(site.port)
        status, headers, _ = plain.send("GET", "/")
        assert status == 301 and headers["Location"].startswith("https://127.0.0.1")
        status, body = check(plain, "/healthz")
        assert status == 200 and body["database"] == "ok"
        assert body["workers"]["worker"]["state"] == "gone"
        assert body["workers"]["beat"]["state"] == "gone"
        status, body = check(plain, "/healthz/workers")
        assert status == 503
        assert body["problems"] == ["no worker has ever been seen", "no beat has ever been seen"]

        started.append(worker := WorkerProcess(site_env))
        started.append(Beat(site_env))
        wait_until(lambda: check(plain, "/healthz/workers")[0] == 200, 60, "worker and beat")
        status, body = check(plain, "/healthz/workers")
        assert body["worker"]["alive"] == 1 and body["beat"]["alive"] == 1
        assert body["worker"]["last_seen"] and body["worker"]["seconds_ago"] <= WINDOW
        assert check(plain, "/healthz")[1]["workers"]["worker"]["state"] == "alive"

        worker.kill()
        status, body = check(plain, "/healthz/workers")
        last_seen = body["worker"]["last_seen"]
        wait_until(lambda: check(plain, "/healthz/workers")[0] == 503, 60, "the worker gone")
        status, body = check(plain, "/healthz/workers")
        (problem,) = body["problems"]
        assert problem.startswith(f"no worker alive: {worker.hostname} gone, last seen")
        assert problem.endswith(f"no heartbeat for over {WINDOW} s")
        assert body["worker"]["state"] == "gone"
        assert body["beat"]["state"] == "alive"  # beat lives on
        status, site_body = check(plain, "/healthz")
        assert status == 200  # the site still serves: the proxy keeps it
        assert site_body["workers"]["worker"] | {"seconds_ago": 0} == {
            "state": "gone",
            "alive": 0,
            "no_broker": 0,
            "gone": 1,
            "stopped": 0,
            "last_seen": site_body["workers"]["worker"]["last_seen"],
            "seconds_ago": 0,
            "gone_names": [worker.hostname],  # named, with its machine's host name
        }
        assert site_body["workers"]["worker"]["last_seen"] >= last_seen  # no beat since

        started.append(WorkerProcess(site_env))
        wait_until(lambda: check(plain, "/healthz/workers")[0] == 200, 60, "the new worker")
        body = check(plain, "/healthz/workers")[1]
        assert (body["worker"]["alive"], body["worker"]["gone"]) == (1, 1)
    finally:
        for process in reversed(started):
            process.stop()


def test_a_worker_that_stops_cleanly_shows_as_stopped_at_once_and_when(site_env):
    started = [site := Gunicorn(site_env, workers=1)]
    try:
        plain = Player(site.port)
        started.append(worker := WorkerProcess(site_env))
        wait_until(lambda: check(plain, "/healthz")[1]["workers"]["worker"]["alive"], 60)
        before = timezone.now()
        worker.stop()  # SIGTERM: Celery's warm shutdown
        body = check(plain, "/healthz")[1]["workers"]["worker"]
        assert (body["state"], body["alive"], body["stopped"], body["gone"]) == (
            "stopped",
            0,
            1,
            0,
        )
        (problem,) = [p for p in check(plain, "/healthz/workers")[1]["problems"] if "worker" in p]
        stopped_at = problem.removeprefix(f"no worker alive: {worker.hostname} stopped at ")
        assert stopped_at != problem and datetime.datetime.fromisoformat(stopped_at) >= before
    finally:
        for process in reversed(started):
            process.stop()


def test_a_worker_that_loses_the_broker_is_not_alive_and_is_named_until_it_is_back(site_env):
    broker = PrivateRedis()
    env = site_env | {"REDIS_URL": broker.url, "CELERY_BROKER_URL": broker.url}
    started = [site := Gunicorn(env, workers=1)]
    try:
        plain = Player(site.port)
        started.append(worker := WorkerProcess(env))
        started.append(Beat(env))
        wait_until(lambda: check(plain, "/healthz/workers")[0] == 200, 60, "worker and beat")

        broker.stop()
        wait_until(lambda: states(plain) == {"no broker"}, 60, "the broker missed by both")
        status, body = check(plain, "/healthz/workers")
        assert status == 503
        problem = f"no worker alive: {worker.hostname} cannot reach the broker since "
        assert [p for p in body["problems"] if p.startswith(problem)], body["problems"]
        assert (body["worker"]["state"], body["worker"]["no_broker"]) == ("no broker", 1)
        assert body["beat"]["state"] == "no broker"  # beat cannot send its tasks either
        assert worker.process.poll() is None  # the process itself lives on

        broker.start()
        wait_until(lambda: check(plain, "/healthz/workers")[0] == 200, 60, "the broker back")
        assert check(plain, "/healthz/workers")[1]["worker"]["alive"] == 1
    finally:
        for process in reversed(started):
            process.stop()
        broker.stop()


def test_the_metrics_add_up_every_gunicorn_process_and_keep_the_https_redirect(site_env):
    # Each web process is replaced after 4 requests: what the ones gone counted still counts.
    site = Gunicorn(site_env, workers=2, threads=1, options=("--max-requests", "4"))
    try:
        # A request may wait for a new process to start: patience on a loaded machine.
        plain = Player(site.port, timeout=120)
        proxied = Player(site.port, timeout=120, headers={"X-Forwarded-Proto": "https"})
        status, headers, _ = plain.send("GET", "/metrics")
        assert status == 301 and headers["Location"].endswith("/metrics")
        assert proxied.send("GET", "/metrics")[0] == 401
        scraper = Player(
            site.port,
            timeout=120,
            headers={"X-Forwarded-Proto": "https", "Authorization": f"Bearer {TOKEN}"},
        )
        for _ in range(20):
            assert proxied.send("GET", "/robots.txt")[0] == 200
        labels = {"method": "GET", "view": "robots_txt", "status": "200"}
        for _ in range(6):  # whichever process answers the scrape adds up all of them
            status, _, text = scraper.send("GET", "/metrics")
            assert status == 200
            name = "sudoku_http_request_duration_seconds"
            assert metric_value(text, name + "_count", **labels) == 20
            assert metric_value(text, name + "_bucket", le="+Inf", **labels) == 20
            assert metric_value(text, "sudoku_pool_fresh_puzzles", difficulty="easy") == 0
            assert metric_value(text, "sudoku_workers_alive", kind="worker") == 0
    finally:
        site.stop()
