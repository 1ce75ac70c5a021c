"""Every error the API answers is JSON with a message; HEAD works wherever GET does; every
response carries a Content-Security-Policy that pages keep to (no inline script or style)."""

from __future__ import annotations

import re

import pytest
from django.http import HttpResponse
from django.template import loader
from django.test import Client
from django.urls import path
from django.utils import timezone

from puzzles.models import Game
from sudokusite import urls as site_urls

from ..helpers import post, start

pytestmark = pytest.mark.django_db


def limited(request):
    """An HTML 429, as a rate limit in front of the API might answer."""
    return HttpResponse("<h1>Slow down</h1>", status=429, headers={"Retry-After": "30"})


urlpatterns = [path("api/limited", limited), *site_urls.urlpatterns]


def assert_json_error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json", response.content[:300]
    body = response.json()
    assert isinstance(body["error"], str) and body["error"].strip()
    return body


def test_a_failed_csrf_check_is_json_on_the_api_and_the_usual_page_elsewhere(alice, stocked):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    game = Game.objects.create(user=alice, puzzle=stocked["easy"][0], values="0" * 81)
    response = post(browser, game, "moves", {"cell": 0, "digit": 1, "version": 0})
    assert "CSRF" in assert_json_error(response, 403)["error"]
    page = browser.post("/play/easy/")
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")


def test_unknown_api_urls_and_other_players_games_are_json_404s(player, bob, stocked):
    assert_json_error(player.get("/api/nothing-here"), 404)
    assert_json_error(player.get("/api/games/999999"), 404)
    theirs = Game.objects.create(user=bob, puzzle=stocked["easy"][0], values="0" * 81)
    assert_json_error(player.get(f"/api/games/{theirs.pk}"), 404)
    assert player.get("/no-such-page/")["Content-Type"].startswith("text/html")


def test_a_wrong_method_is_a_json_405_that_names_the_allowed_ones(player, stocked):
    game = start(player)
    response = player.get(f"/api/games/{game.pk}/moves")
    assert "POST" in assert_json_error(response, 405)["error"]
    assert response["Allow"] == "POST"
    response = player.post(f"/api/games/{game.pk}", "{}", content_type="application/json")
    assert "GET" in assert_json_error(response, 405)["error"]
    assert_json_error(player.put(f"/api/games/{game.pk}"), 405)


def test_a_body_too_large_is_a_json_413_and_changes_nothing(player, stocked, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    game = start(player)
    body = '{"cell": 0, "digit": 1, "version": 0, "pad": "' + "x" * 2000 + '"}'
    response = post(player, game, "moves", body)
    assert "1000" in assert_json_error(response, 413)["error"]
    game.refresh_from_db()
    assert game.version == 0


@pytest.mark.urls(__name__)
def test_a_rate_limited_api_call_is_a_json_429_that_keeps_its_retry_after(client):
    response = client.get("/api/limited")
    assert_json_error(response, 429)
    assert response["Retry-After"] == "30"


def test_head_works_wherever_get_does(player, stocked):
    game = start(player)
    for url in (
        f"/api/games/{game.pk}",
        "/healthz",
        "/",
        "/daily/",
        f"/games/{game.pk}/",
        "/history/",
        "/stats/",
        "/settings/",
        "/robots.txt",
        "/accounts/login/",
    ):
        head, get = player.head(url), player.get(url)
        assert head.status_code == get.status_code == 200, url
        assert head["Content-Type"] == get["Content-Type"], url
        assert head.content == b"", url


POLICY_PAGES = ["/", "/daily/", "/history/", "/stats/", "/settings/", "/accounts/login/"]


def test_every_response_carries_a_content_security_policy(player, stocked):
    game = start(player)
    responses = [player.get(url) for url in POLICY_PAGES]
    responses += [player.get(f"/games/{game.pk}/"), player.get(f"/api/games/{game.pk}")]
    responses += [player.get("/api/nothing"), player.get("/no-such-page/"), player.get("/healthz")]
    for response in responses:
        policy = dict(
            part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
        )
        assert policy["default-src"] == "'self'"
        assert "unsafe-inline" not in response["Content-Security-Policy"]
        assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"


INLINE = [
    # Scripts come from files; a JSON data block (json_script) is not run, so it may stay.
    (
        re.compile(r"<script(?![^>]*\b(src=|type=\"application/json\"))[^>]*>", re.I),
        "an inline script",
    ),
    (re.compile(r"<style\b", re.I), "a style block"),
    (re.compile(r"\sstyle=", re.I), "a style attribute"),
    (re.compile(r"\son[a-z]+=", re.I), "an event handler attribute"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]


def test_pages_have_no_inline_script_or_style(player, stocked):
    solved = start(player)  # something in the history, and a point on the stats chart
    Game.objects.filter(pk=solved.pk).update(
        status="solved", finished_at=timezone.now(), active_seconds=300
    )
    game = start(player)
    urls = [*POLICY_PAGES, f"/games/{game.pk}/", f"/games/{solved.pk}/", "/no-such-page/"]
    pages = [(url, player.get(url).content.decode()) for url in urls]
    assert "<svg" in pages[3][1]  # the stats chart
    pages += [("/accounts/signup/", Client().get("/accounts/signup/").content.decode())]
    pages += [(name, loader.get_template(name).render()) for name in ("500.html", "503.html")]
    for url, html in pages:
        for pattern, what in INLINE:
            found = pattern.search(html)
            assert not found, f"{url} has {what}: {html[found.start() : found.start() + 120]}"
