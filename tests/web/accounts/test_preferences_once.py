"""A signed-in player's preferences are read once a request, whoever asks: the language's
choice for a page without a prefix, the view and the page's theme."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db


def preference_reads(client, path: str) -> int:
    with CaptureQueriesContext(connection) as seen:
        assert client.get(path).status_code == 200
    return sum(1 for q in seen.captured_queries if "puzzles_preferences" in q["sql"])


@pytest.mark.parametrize("path", ["/", "/settings/", "/de/stats/"])
def test_a_signed_in_players_preferences_are_read_once_a_request(player, path):
    player.get("/")  # the preferences made the first time
    assert preference_reads(player, path) == 1
