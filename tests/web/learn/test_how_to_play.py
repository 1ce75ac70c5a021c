"""How to play: a page of its own with the rules, a small board, both ways of entering
digits and notes, hints, the check and the tiers; linked from the home and game pages."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ..helpers import start

pytestmark = pytest.mark.django_db


def test_the_page_says_the_rules_the_input_help_and_the_tiers(client):
    response = client.get("/how-to-play/")
    assert response.status_code == 200
    html = response.content.decode()
    for words in ["every <b>row</b>", "Cell first", "Digit first", "Notes", "three levels"]:
        assert words in html, words
    for words in ["Check my board", "Apply", "Easy", "Medium", "Hard", "Expert", "Master"]:
        assert words in html, words
    assert "Extreme" in html and "Singles" not in html.split("<dl")[0]
    # The example: a board to look at, its first row shaded and its empty cell marked.
    assert "data-board-view" in html and "data-board " not in html
    assert len(re.findall(r'data-cell="\d+"', html)) == 81
    assert html.count('data-hint="region"') == 8 and html.count('data-hint="target"') == 1


def test_the_page_only_shows(client):
    assert client.head("/how-to-play/").status_code == 200
    assert client.post("/how-to-play/").status_code == 405


def test_the_home_page_and_the_game_page_link_to_it(client, stocked):
    assert 'href="/how-to-play/"' in client.get("/").content.decode()
    game = start(client)
    page = client.get(f"/games/{game.pk}/").content.decode()
    help_dialog = page[page.index("data-help ") :]
    assert 'href="/how-to-play/"' in help_dialog
    assert help_dialog.index("How to play") < help_dialog.index("<table")


def test_the_first_visit_explanation_goes_once_dismissed_for_guests_and_accounts(stocked, alice):
    guest = Client()
    game = start(guest)
    assert "data-intro" in guest.get(f"/games/{game.pk}/").content.decode()
    assert guest.post("/settings/intro/").status_code == 204
    assert "data-intro" not in guest.get(f"/games/{game.pk}/").content.decode()
    assert "data-intro" not in guest.get(f"/games/{start(guest, 'medium').pk}/").content.decode()
    # Logging in carries it to the account, which keeps it on every device.
    guest.post("/accounts/login/", {"username": "alice", "password": "wonderland-42"})
    other = Client()
    other.force_login(alice)
    assert "data-intro" not in other.get(f"/games/{start(other, 'hard').pk}/").content.decode()


def test_an_account_dismisses_it_for_good(player, stocked):
    game = start(player)
    assert "data-intro" in player.get(f"/games/{game.pk}/").content.decode()
    assert player.get("/settings/intro/").status_code == 405
    assert player.post("/settings/intro/").status_code == 204
    assert "data-intro" not in player.get(f"/games/{game.pk}/").content.decode()
