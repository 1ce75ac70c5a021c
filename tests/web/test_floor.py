"""The benchmark's floor view: absent from the site unless the benchmark turns it on, and
then it touches only the player's own game."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from puzzles.models import Game

from .conftest import post, start

pytestmark = pytest.mark.django_db


def test_the_floor_view_is_not_there_unless_turned_on(client, stocked):
    game = start(client)
    response = post(client, game, "floor")
    assert response.status_code == 404
    assert Game.objects.get(pk=game.pk).seen_at == game.seen_at


@override_settings(BENCH_FLOOR_VIEW=True)
def test_turned_on_it_stores_one_update_on_the_players_own_game(client, stocked):
    game = start(client)
    response = post(client, game, "floor")
    assert response.status_code == 200
    assert response.json() == {"ok": True}
    assert Game.objects.get(pk=game.pk).seen_at > game.seen_at
    assert post(Client(), game, "floor").status_code == 404  # another guest's game
    assert client.get(f"/api/games/{game.pk}/floor").status_code == 405
