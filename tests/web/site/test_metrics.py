"""/metrics for Prometheus (behind METRICS_TOKEN) and the request log line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib

import pytest

from puzzles.models import PoolTarget
from puzzles.pools import activity
from sudokusite import build
from sudokusite.processes import ROOT

from ...harness import metric_value as value
from ..helpers import post, seen, start, state, stock

pytestmark = pytest.mark.django_db

TOKEN = "scrape-me-" + "x" * 30


def scrape(client) -> str:
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    return response.content.decode()


def test_without_a_token_set_there_are_no_metrics(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 404


@pytest.mark.parametrize("authorization", [None, "Bearer wrong", f"Basic {TOKEN}", TOKEN])
def test_the_metrics_refuse_a_scrape_without_the_token(client, settings, authorization):
    settings.METRICS_TOKEN = TOKEN
    headers = {"Authorization": authorization} if authorization else {}
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert b"sudoku_" not in response.content


def test_a_scrape_shows_pool_stock_refills_workers_games_moves_and_request_latency(
    client, settings
):
    settings.METRICS_TOKEN = TOKEN
    settings.WORKER_GONE_SECONDS = 180
    stock("easy", 3)
    PoolTarget.objects.filter(difficulty="hard").update(low=7, high=21)
    activity.record_batch("hard", 4, 0.7)
    activity.record_batch("hard", 3, 42.0)
    seen("worker", "w1@host", 2)
    before = scrape(client)
    game = start(client, "easy")
    current = state(client, game)
    cell = current["puzzle"].index("0")
    move = {"cell": cell, "digit": 1, "mode": "value", "version": current["version"]}
    assert post(client, game, "moves", move).status_code == 200
    after = scrape(client)

    assert value(after, "sudoku_pool_fresh_puzzles", difficulty="easy") == 2
    assert value(after, "sudoku_pool_fresh_puzzles", difficulty="expert") == 0
    assert value(after, "sudoku_pool_low_mark", difficulty="hard") == 7
    assert value(after, "sudoku_pool_high_mark", difficulty="hard") == 21
    assert value(after, "sudoku_refill_batches_total", difficulty="hard") == 2
    assert value(after, "sudoku_refill_puzzles_stored_total", difficulty="hard") == 7
    duration = "sudoku_refill_batch_duration_seconds"
    assert value(after, duration + "_bucket", difficulty="hard", le="1.0") == 1
    assert value(after, duration + "_bucket", difficulty="hard", le="30.0") == 1
    assert value(after, duration + "_bucket", difficulty="hard", le="60.0") == 2
    assert value(after, duration + "_bucket", difficulty="hard", le="+Inf") == 2
    assert value(after, duration + "_sum", difficulty="hard") == pytest.approx(42.7)
    assert value(after, "sudoku_workers_alive", kind="worker") == 1
    assert value(after, "sudoku_workers_alive", kind="beat") == 0
    assert value(after, "sudoku_worker_last_seen_timestamp_seconds", kind="worker") > 0
    assert value(after, "sudoku_broker_up") == 1

    def grew(name: str, **labels: str) -> float:
        try:
            earlier = value(before, name, **labels)
        except AssertionError:  # no such sample yet
            earlier = 0.0
        return value(after, name, **labels) - earlier

    assert grew("sudoku_games_started_total", difficulty="easy") == 1
    assert grew("sudoku_moves_total", kind="value") == 1
    latency = "sudoku_http_request_duration_seconds"
    labels = {"method": "POST", "view": "puzzles:api_moves", "status": "200"}
    assert grew(latency + "_count", **labels) == 1
    assert grew(latency + "_bucket", le="+Inf", **labels) == 1
    assert value(after, latency + "_sum", **labels) > 0


def test_each_request_is_logged_on_one_line_with_its_latency(client, caplog):
    with caplog.at_level("INFO", logger="puzzles.requests"):
        client.get("/robots.txt")
    (record,) = [r for r in caplog.records if r.name == "puzzles.requests"]
    assert re.fullmatch(
        r"GET /robots\.txt 200 \d+\.\d ms from 127\.0\.0\.1 user -", record.getMessage()
    )
    assert (record.method, record.path, record.status) == ("GET", "/robots.txt", 200)


def test_log_format_json_writes_one_object_a_line():
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "Client(HTTP_HOST='127.0.0.1').get('/robots.txt')\n"
    )
    env = {**os.environ, "LOG_FORMAT": "json", "DJANGO_SETTINGS_MODULE": "sudokusite.settings"}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    (request,) = [line for line in lines if line["logger"] == "puzzles.requests"]
    assert request["level"] == "INFO" and request["time"]
    assert (request["method"], request["path"], request["status"]) == ("GET", "/robots.txt", 200)
    assert isinstance(request["duration_ms"], float)
    assert request["message"].startswith("GET /robots.txt 200 ")


def test_a_scrape_says_the_database_is_up_and_times_requests_below_five_milliseconds(
    client, settings
):
    settings.METRICS_TOKEN = TOKEN
    client.get("/robots.txt")  # a request timed, whichever test ran before
    text = scrape(client)
    assert value(text, "sudoku_database_up") == 1
    assert 'sudoku_http_request_duration_seconds_bucket{le="0.001"' in text


def test_with_the_database_down_a_scrape_still_answers_what_it_knows():
    """A real database that refuses connections: the scrape answers 200 with the database
    down and the web processes' own figures, not the 503 page."""
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "r = Client(raise_request_exception=False).get(\n"
        f"    '/metrics', HTTP_HOST='127.0.0.1', HTTP_AUTHORIZATION='Bearer {TOKEN}')\n"
        "print(r.status_code); print(r.content.decode())\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:1/nowhere",  # nothing listens there
        "METRICS_TOKEN": TOKEN,
    }
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    status, _, text = result.stdout.partition("\n")
    assert status == "200", text[:300]
    assert value(text, "sudoku_database_up") == 0
    assert "sudoku_broker_up" in text
    assert "sudoku_http_request_duration_seconds" in text
    assert "sudoku_pool_fresh_puzzles" not in text  # read from the database: not told


def test_a_scrape_tells_the_build_its_version_and_commit(client, settings):
    settings.METRICS_TOKEN = TOKEN
    text = scrape(client)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert value(text, "sudoku_build_info", version=version, commit=head) == 1


def test_the_commit_is_the_installers_word_then_git_then_unknown(tmp_path):
    assert build.commit({"SUDOKU_COMMIT": "0123abc"}, ROOT) == "0123abc"
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert build.commit({}, ROOT) == head
    assert build.commit({"SUDOKU_COMMIT": " "}, ROOT) == head
    assert build.commit({}, tmp_path) == "unknown"  # a copy of the code without git
    (tmp_path / "REVISION").write_text("4567def\n")  # a release deploy/sudoku-upgrade unpacked
    assert build.commit({}, tmp_path) == "4567def"
    assert build.commit({"SUDOKU_COMMIT": "0123abc"}, tmp_path) == "0123abc"
    assert build.commit({"PATH": str(tmp_path)}, ROOT) == "unknown"  # no git installed


def test_the_build_is_read_once_not_at_each_scrape(client, settings, monkeypatch):
    settings.METRICS_TOKEN = TOKEN
    monkeypatch.setenv("SUDOKU_COMMIT", "changed-after-start")
    text = scrape(client)
    assert 'commit="changed-after-start"' not in text
    assert value(text, "sudoku_build_info", version=build.VERSION, commit=build.COMMIT) == 1


def test_a_scrape_counts_the_workers_in_each_state(client, settings):
    settings.METRICS_TOKEN = TOKEN
    settings.WORKER_GONE_SECONDS = 45
    seen("worker", "w1@host", 1)
    seen("worker", "w2@host", 2, broker_lost_seconds_ago=10)
    seen("worker", "w3@host", 100)
    seen("worker", "w4@host", 5, stopped=True)
    seen("beat", "beat@host", 1)
    text = scrape(client)
    expected = {"alive": 1, "no_broker": 1, "gone": 1, "stopped": 1}
    for kind_state, count in expected.items():
        assert value(text, "sudoku_workers", kind="worker", state=kind_state) == count, kind_state
    assert value(text, "sudoku_workers", kind="beat", state="alive") == 1
    assert value(text, "sudoku_workers", kind="beat", state="gone") == 0
    assert value(text, "sudoku_workers_alive", kind="worker") == 1
