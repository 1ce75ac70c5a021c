"""Whose pages a browser holds: every page and game state says whose it is (the owner
mark the page's script and the service worker compare with what they keep), and the
answers to a log-in, a sign-up and a log-out tell the browser to drop what it keeps."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from ..helpers import start

pytestmark = pytest.mark.django_db

ALICE = {"username": "alice", "password": "wonderland-42"}
HTML_MARK = re.compile(
    r'<html[^>]* data-owner="([0-9a-f]+)" data-owner-expires="(\d+)" data-owner-issued="(\d+)"'
)


def owner_of(response) -> dict:
    """The answer's owner mark, from its header: {"mark", "expires", "issued"}."""
    mark, *fields = (part.strip() for part in response["Sudoku-Owner"].split(";"))
    return {"mark": mark} | {k: int(v) for k, v in (f.split("=") for f in fields)}


def mark_of(client: Client) -> str:
    return owner_of(client.get("/"))["mark"]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_page_and_a_game_state_carry_their_players_mark_in_the_header_and_the_page(
    alice, stocked
):
    client = logged_in(alice)
    game = start(client)
    page = client.get(f"/games/{game.pk}/")
    owner = owner_of(page)
    found = HTML_MARK.search(page.content.decode())
    assert found, "no owner mark on the page's <html>"
    assert found.groups() == (owner["mark"], str(owner["expires"]), str(owner["issued"]))
    assert len(owner["mark"]) >= 32
    assert owner_of(client.get(f"/api/games/{game.pk}"))["mark"] == owner["mark"]


def test_each_player_has_their_own_mark_and_an_account_keeps_its_own_across_sessions(
    alice, bob, stocked
):
    guest = Client()
    nobody = mark_of(guest)
    start(guest)  # the guest now has an id, and games
    marks = {mark_of(logged_in(alice)), mark_of(logged_in(bob)), mark_of(guest), nobody}
    assert len(marks) == 4
    assert mark_of(logged_in(alice)) == mark_of(logged_in(alice))
    assert nobody == mark_of(Client())  # nobody's pages: no one's games to keep


def test_a_session_ended_by_a_password_change_elsewhere_gets_another_mark(alice):
    here, elsewhere = logged_in(alice), logged_in(alice)
    before = mark_of(here)
    response = elsewhere.post(
        "/accounts/password_change/",
        {
            "old_password": ALICE["password"],
            "new_password1": "a new password for alice",
            "new_password2": "a new password for alice",
        },
    )
    assert response.status_code == 302
    assert mark_of(here) not in (before, mark_of(elsewhere))
    assert mark_of(elsewhere) == before  # the device that changed it stays hers


def test_the_mark_says_when_the_session_runs_out_and_when_it_was_given(alice):
    client = logged_in(alice)
    before = time.time() * 1000
    owner = owner_of(client.get("/"))
    stored = Session.objects.get(session_key=client.session.session_key).expire_date
    assert owner["expires"] == int(stored.timestamp())
    assert before - 1000 <= owner["issued"] <= time.time() * 1000 + 1000


def test_log_in_sign_up_and_log_out_answers_tell_the_browser_to_drop_what_it_keeps(alice):
    client = Client()
    assert "Clear-Site-Data" not in client.get("/accounts/login/")
    wrong = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert wrong.status_code == 200 and "Clear-Site-Data" not in wrong
    logged = client.post("/accounts/login/", ALICE)
    assert logged.status_code == 302 and logged["Clear-Site-Data"] == '"storage"'
    assert "Clear-Site-Data" not in client.get("/")
    out = client.post("/accounts/logout/")
    assert out.status_code == 302 and out["Clear-Site-Data"] == '"storage"'
    signed = Client().post(
        "/accounts/signup/",
        {
            "username": "carol",
            "email": "carol@example.com",
            "password1": "a long enough password",
        },
    )
    assert signed.status_code == 302 and signed["Clear-Site-Data"] == '"storage"'


def test_the_offline_page_is_nobodys_and_names_no_one(alice):
    """A copy of it is shown to whoever uses the device with no network."""
    client = logged_in(alice)
    page = client.get("/offline/")
    assert page.status_code == 200
    assert "Sudoku-Owner" not in page
    assert "data-owner" not in page.content.decode()
    assert "alice" not in page.content.decode()
