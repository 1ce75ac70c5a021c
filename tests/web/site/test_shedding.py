"""Load shed at the door: a request that waited past SHED_AFTER_MS since nginx received it
(its X-Request-Start stamp) is answered 503 with Retry-After at once, before its session
or the database is read; the health checks and the scrape are never shed, and a stamp
that cannot be read or lies in the future is ignored."""

from __future__ import annotations

import json
import time

import pytest
from django.test import RequestFactory

from puzzles.site.views import unavailable

from ...harness import metric_value, settings_refuse
from ..helpers import post, start, state

pytestmark = pytest.mark.django_db

TOKEN = "scrape-me-" + "s" * 30


def stamp(seconds_ago: float) -> str:
    """X-Request-Start as nginx sets it: "t=" and the time in seconds, to the millisecond."""
    return f"t={time.time() - seconds_ago:.3f}"


def shed_count(client) -> float:
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    return metric_value(response.content.decode(), "sudoku_requests_shed_total")


@pytest.fixture
def shedding(settings):
    settings.SHED_AFTER_MS = 1000
    settings.METRICS_TOKEN = TOKEN


def assert_shed(response) -> int:
    """The shed answer's Retry-After, checked to be a few whole seconds."""
    assert response.status_code == 503, response.content[:300]
    retry_after = int(response["Retry-After"])
    # Its length said, as every answer of the site's: a keep-alive client needs it.
    assert int(response["Content-Length"]) == len(response.content)
    assert 1 <= retry_after <= 10
    return retry_after


def test_an_api_request_that_waited_too_long_is_shed_with_json_and_no_query(
    client, stocked, shedding, django_assert_num_queries
):
    game = start(client)
    before = shed_count(client)
    with django_assert_num_queries(0):
        response = client.get(f"/api/games/{game.pk}", headers={"X-Request-Start": stamp(5)})
    retry_after = assert_shed(response)
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["retry_after"] == retry_after
    assert "busy" in body["error"]
    assert "sessionid" not in response.cookies  # the session was never touched
    assert shed_count(client) == before + 1


def test_a_move_that_waited_too_long_is_shed_and_not_stored(
    client, stocked, shedding, django_assert_num_queries
):
    game = start(client)
    cell = game.puzzle.givens.index("0")
    move = {"cell": cell, "digit": int(game.puzzle.solution[cell]), "mode": "value", "version": 0}
    with django_assert_num_queries(0):
        response = post(client, game, "moves", move, headers={"X-Request-Start": stamp(2)})
    assert_shed(response)
    assert state(client, game)["values"][cell] == "0"
    assert post(client, game, "moves", move).status_code == 200  # sent again, it is stored


def test_a_page_that_waited_too_long_is_the_sites_503_page(
    client, stocked, shedding, django_assert_num_queries
):
    with django_assert_num_queries(0):
        response = client.get("/", headers={"X-Request-Start": stamp(3)})
    assert_shed(response)
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "Back in a moment" in page and "busy" in page
    assert response["Content-Security-Policy"]


def test_a_request_in_time_is_served(client, stocked, shedding):
    assert client.get("/", headers={"X-Request-Start": stamp(0.2)}).status_code == 200
    game = start(client)
    response = client.get(f"/api/games/{game.pk}", headers={"X-Request-Start": stamp(0)})
    assert response.status_code == 200


@pytest.mark.parametrize("path", ["/healthz", "/healthz/workers", "/metrics"])
def test_the_health_checks_and_the_scrape_are_never_shed(client, stocked, shedding, path):
    headers = {"X-Request-Start": stamp(60), "Authorization": f"Bearer {TOKEN}"}
    assert client.get(path, headers=headers).status_code in (200, 503)
    assert "Retry-After" not in client.get(path, headers=headers)


def test_static_files_are_never_shed(client, stocked, shedding):
    # The page already served needs its scripts and styles: WhiteNoise serves them where
    # they are collected (a 200), the site's 404 answers where they are not; never a 503.
    response = client.get("/static/css/error.css", headers={"X-Request-Start": stamp(60)})
    assert response.status_code in (200, 404) and "Retry-After" not in response


@pytest.mark.parametrize(
    "value",
    [
        "",
        "t=",
        "t=soon",
        "t=nan",
        "t=inf",
        "t=-inf",
        "t=1e999",
        "t=12,5",
        "x" * 5000,
        "t=\u0661\u0662",
        "later",
    ],
)
def test_a_stamp_that_cannot_be_read_is_ignored(client, stocked, shedding, value):
    assert client.get("/", headers={"X-Request-Start": value}).status_code == 200


def test_a_stamp_in_the_future_is_ignored(client, stocked, shedding):
    assert client.get("/", headers={"X-Request-Start": stamp(-3600)}).status_code == 200


def test_a_stamp_without_t_is_read_too(client, stocked, shedding):
    response = client.get("/", headers={"X-Request-Start": f"{time.time() - 5:.3f}"})
    assert_shed(response)


def test_shedding_is_off_at_zero(client, stocked, settings):
    settings.SHED_AFTER_MS = 0
    assert client.get("/", headers={"X-Request-Start": stamp(3600)}).status_code == 200


def test_a_shed_request_is_logged_under_its_own_view(client, stocked, shedding, caplog):
    caplog.set_level("INFO", logger="puzzles.requests")
    caplog.set_level("INFO", logger="django.request")
    response = client.get("/", headers={"X-Request-Start": stamp(5), "X-Request-ID": "shed-1"})
    assert_shed(response)
    assert response["X-Request-ID"] == "shed-1"
    assert any("GET / 503" in line for line in caplog.messages)
    # The site turning a request away is no server error: no ERROR line (which an operator
    # may alert on) for each of a surge's thousands, the request log's line is enough.
    assert [r.levelname for r in caplog.records if r.name == "django.request"] == []
    scrape = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).content.decode()
    assert 'view="shed"' in scrape


def test_the_database_down_503_is_the_same_answer_with_its_own_words():
    # The shed answer and the database's are the site's one 503, each with its reason.
    api = unavailable(RequestFactory().get("/api/games/1"), "database", retry_after=5)
    assert api.status_code == 503 and api["Retry-After"] == "5"
    body = json.loads(api.content)
    assert "database" in body["error"] and body["retry_after"] == 5
    page = unavailable(RequestFactory().get("/"), "database", retry_after=5)
    assert "database is not answering" in page.content.decode()


@pytest.mark.parametrize(("value", "said"), [("-1", "0 (off) or more"), ("soon", "an integer")])
def test_a_wrong_shed_after_ms_stops_the_site_with_a_clear_error(value, said):
    assert f"SHED_AFTER_MS must be {said}" in settings_refuse("SHED_AFTER_MS", value)
