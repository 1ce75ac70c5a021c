"""A request followed across processes: its id on the lines of the Celery tasks it sends (a
real worker process), and on gunicorn's own lines, written in the site's JSON format (a
real gunicorn)."""

from __future__ import annotations

import json

import pytest

from puzzles.pools.tasks import refill_pool

from ..harness import Gunicorn, Player, production_env, wait_until
from .helpers import broker_url, database_url, fresh, set_targets

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def json_lines(text: str) -> list[dict]:
    """Every line of a log that should be JSON, read; fails on a line that is not."""
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"not a JSON line: {line!r}") from None
    return lines


def batch_lines(output: str) -> list[dict]:
    """The JSON lines of a worker's refill batches ("making 2 easy puzzles")."""
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    return [line for line in lines if line["message"].startswith("making ")]


def test_the_tasks_a_request_sends_log_with_its_request_id(start_worker, client, monkeypatch):
    monkeypatch.setenv("LOG_FORMAT", "json")
    set_targets(easy=(2, 4, 2))
    worker = start_worker()
    response = client.post("/play/easy/", HTTP_X_REQUEST_ID="trace-task-1")
    assert response.status_code == 302
    wait_until(lambda: fresh("easy") >= 4, what="the round that the request started")
    wait_until(lambda: len(batch_lines(worker.output())) >= 2, what="both batches logged")
    # The first batch, sent by the request, and the next, sent by the first.
    assert {line["request_id"] for line in batch_lines(worker.output())} == {"trace-task-1"}


def test_a_task_sent_outside_any_request_carries_no_request_id(start_worker, monkeypatch):
    monkeypatch.setenv("LOG_FORMAT", "json")
    set_targets(easy=(2, 2, 2))
    worker = start_worker()
    refill_pool.delay("easy")
    wait_until(lambda: batch_lines(worker.output()), what="the batch logged")
    assert [line["request_id"] for line in batch_lines(worker.output())] == ["-"]


def test_gunicorn_writes_its_own_lines_in_json_with_the_request_id():
    set_targets()  # no pool wants a refill
    env = production_env(database_url(), broker_url()) | {"LOG_FORMAT": "json"}
    site = Gunicorn(env, workers=1, threads=2, options=("--access-logfile", "-"))
    try:
        player = Player(site.port, headers={"X-Request-ID": "trace-web-1"})
        status, headers, _ = player.send("GET", "/robots.txt")
        assert (status, headers["X-Request-ID"]) == (200, "trace-web-1")

        def access_lines() -> list[dict]:
            lines = json_lines(site.output())
            return [line for line in lines if line["logger"] == "gunicorn.access"]

        wait_until(lambda: any("/robots.txt" in a["message"] for a in access_lines()))
        lines = json_lines(site.output())
    finally:
        site.stop()
    errors = [line["message"] for line in lines if line["logger"] == "gunicorn.error"]
    assert any(message.startswith("Starting gunicorn") for message in errors)
    assert any(message.startswith("engine warmed up") for message in errors)
    by_logger = {line["logger"]: line for line in lines if line.get("request_id") == "trace-web-1"}
    assert set(by_logger) == {"gunicorn.access", "puzzles.requests"}
    assert '"GET /robots.txt HTTP/1.1" 200' in by_logger["gunicorn.access"]["message"]
    assert by_logger["puzzles.requests"]["path"] == "/robots.txt"
