"""A request followed across processes: its id on the lines of the Celery tasks it sends (a
real worker process), on gunicorn's own lines, written in the site's JSON format (a real
gunicorn), and the same id in nginx's line and the site's (the shipped nginx site in front
of gunicorn)."""

from __future__ import annotations

import http.client
import json
import re
import ssl
import subprocess

import pytest

from puzzles.pools.tasks import refill_pool
from sudokusite.processes import free_port, stop, wait_for_port

from ..deploy.helpers import DEPLOY, nginx_site, on_ports
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


def test_nginx_and_the_site_log_a_request_under_the_same_id(tmp_path):
    """The shipped nginx site, on free ports, in front of gunicorn: a request's line in
    nginx's log and the site's lines carry the id nginx made, whatever id the client sent."""
    set_targets()
    env = production_env(database_url(), broker_url()) | {
        "LOG_FORMAT": "json",
        "DJANGO_BEHIND_PROXY": "1",
        "DJANGO_TRUSTED_PROXIES": "1",
    }
    https = free_port()
    site = Gunicorn(env, workers=1, threads=2)
    started: list[tuple[str, subprocess.Popen]] = []
    try:
        shipped = (DEPLOY / "nginx-sudoku.conf").read_text()
        conf = on_ports(shipped, free_port(), https, site.port)
        command = ["nginx", "-p", str(tmp_path), "-c", str(nginx_site(tmp_path, conf))]
        with (tmp_path / "nginx.stderr").open("w") as errors:
            nginx = subprocess.Popen(
                [*command, "-g", "daemon off;"], stderr=errors, start_new_session=True
            )
        started.append(("nginx", nginx))
        wait_for_port(https, seconds=30)
        connection = http.client.HTTPSConnection(
            "127.0.0.1", https, timeout=15, context=ssl._create_unverified_context()
        )
        connection.request("GET", "/robots.txt", headers={"X-Request-ID": "made-up-1"})
        response = connection.getresponse()
        response.read()
        connection.close()
        assert response.status == 200
        request_id = response.getheader("X-Request-ID")
        assert re.fullmatch(r"[0-9a-f]{32}", request_id)  # nginx's, not the client's

        def site_line() -> list[dict]:
            lines = json_lines(site.output())
            return [
                x
                for x in lines
                if x.get("logger") == "puzzles.requests" and x["path"] == "/robots.txt"
            ]

        wait_until(site_line, what="the site's request line")
        (site_request,) = site_line()
        wait_until(lambda: (tmp_path / "sudoku.access.log").read_text(), what="nginx's line")
        (nginx_request,) = json_lines((tmp_path / "sudoku.access.log").read_text())
    finally:
        stop(started)
        site.stop()
    assert site_request["request_id"] == nginx_request["request_id"] == request_id
    assert (nginx_request["uri"], nginx_request["status"]) == ("/robots.txt", 200)
    assert site_request["client"] == "127.0.0.1"
