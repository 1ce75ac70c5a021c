"""A newcomer's home page (no session: no account, no game, no setting) is rendered once and
served to the next newcomers with their own CSRF token and owner mark: under a surge of new
players it costs no query and no template; whoever has a session gets their own page."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from puzzles.models import Game
from puzzles.play import newcomers
from puzzles.pools.daily import today

from .test_home import statuses

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')
OWNER = re.compile(r'data-owner="(\w+)" data-owner-expires="(\d+)" data-owner-issued="(\d+)"')


def plain(page: str) -> str:
    """The page without its token and owner mark."""
    return OWNER.sub("", page.replace(TOKEN.search(page).group(1), ""))


def newcomer_home(client: Client):
    response = client.get("/")
    assert response.status_code == 200
    return response, response.content.decode()


def test_the_next_newcomers_get_the_page_made_once_with_their_own_token_and_mark(stocked):
    _, html = newcomer_home(Client(enforce_csrf_checks=True))
    assert len(statuses(html)) == 6
    later = Client(enforce_csrf_checks=True)
    with CaptureQueriesContext(connection) as queries:
        second, again = newcomer_home(later)
    assert len(queries) == 0  # nothing read: the page was kept
    token = TOKEN.search(again).group(1)
    assert token != TOKEN.search(html).group(1)
    assert "slot" not in again and newcomers.EXPIRES_SLOT not in again
    assert again.count(token) == again.count("csrfmiddlewaretoken") + 1  # every form has it
    assert second.cookies["csrftoken"].value  # the cookie a render would set
    mark, expires, issued = OWNER.search(again).groups()
    assert second["Sudoku-Owner"] == f"{mark}; expires={expires}; issued={issued}"
    assert plain(again) == plain(html)  # the same page otherwise
    # The token filled in is the newcomer's own: a new game with it is taken.
    started = later.post(f"/daily/{today().isoformat()}/easy/", {"csrfmiddlewaretoken": token})
    assert started.status_code == 302


def test_a_player_with_a_session_gets_a_page_of_their_own(player, stocked):
    newcomer_home(Client())  # a newcomer's page kept
    player.post(f"/daily/{today().isoformat()}/easy/")
    assert Game.objects.count() == 1
    html = player.get("/").content.decode()
    assert statuses(html)["easy"] == "playing"
    assert statuses(newcomer_home(Client())[1])["easy"] == "new"


def test_a_newcomer_in_another_zone_gets_that_zones_page(stocked):
    _, here = newcomer_home(Client())
    far = Client()
    far.cookies["tz"] = "Pacific/Kiritimati"
    _, there = newcomer_home(far)
    assert 'data-daily-date="' in here and 'data-daily-date="' in there
    kept = {key[-1] for key in newcomers._kept}
    assert len(kept) == 2  # one page a zone


def test_the_kept_page_is_made_again_after_its_time(stocked, monkeypatch):
    newcomer_home(Client())
    monkeypatch.setattr(newcomers, "KEEP_SECONDS", 0.0)
    newcomers.forget()
    newcomer_home(Client())
    with CaptureQueriesContext(connection) as queries:
        newcomer_home(Client())
    assert len(queries) > 0  # kept no time: rendered again
