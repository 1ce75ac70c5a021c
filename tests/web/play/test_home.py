"""The home page a newcomer reads at a glance: the game in play to continue on top, today's
dailies with the player's status on each and the tiers said in words, the day named."""

from __future__ import annotations

import re

import pytest

from puzzles.models import Game
from puzzles.pools.daily import today

from ..helpers import play_to_the_end, start

pytestmark = pytest.mark.django_db


def statuses(html: str) -> dict[str, str]:
    found = re.findall(r'data-tier="(\w+)" data-daily-status="(\w+)"', html)
    return dict(found)


def daily(client, difficulty: str):
    response = client.post(f"/daily/{today().isoformat()}/{difficulty}/")
    assert response.status_code == 302
    return int(response["Location"].strip("/").split("/")[-1])


def test_the_dailies_name_their_day_and_each_says_where_the_player_stands(player, stocked):
    html = player.get("/").content.decode()
    assert f'data-daily-date="{today().isoformat()}"' in html
    assert set(statuses(html).values()) == {"new"} and len(statuses(html)) == 6
    easy = Game.objects.get(pk=daily(player, "easy"))
    daily(player, "medium")
    play_to_the_end(player, easy)
    found = statuses(player.get("/").content.decode())
    assert found["easy"] == "solved" and found["medium"] == "playing" and found["hard"] == "new"


def test_each_tier_is_said_in_a_word_or_two_with_no_stray_separator(client, stocked):
    html = client.get("/").content.decode()
    for words in ["Singles only", "Pairs and pointing", "Wings and fish", "Chains"]:
        assert words in html, words
    assert "· " not in re.sub(r"\s+", " ", html.split('class="cards')[1].split("</ul>")[0])


def test_the_game_in_play_is_on_top_to_continue(player, stocked):
    html = player.get("/").content.decode()
    assert "data-continue" not in html
    game = start(player, "medium")
    html = player.get("/").content.decode()
    assert html.index("data-continue") < html.index("data-daily-date")
    top = html[html.index("data-continue") : html.index("data-daily-date")]
    assert f'href="/games/{game.pk}/"' in top and "Continue your game" in top
    later = daily(player, "easy")
    html = player.get("/").content.decode()
    top = html[html.index("data-continue") : html.index("data-daily-date")]
    assert f'href="/games/{later}/"' in top  # the latest game
    assert f'href="/games/{game.pk}/"' in html[html.index("data-daily-date") :]  # still listed
