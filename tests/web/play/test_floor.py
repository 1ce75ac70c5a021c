"""The benchmark's floor view: absent from the site's URLs, present only in the benchmark's
(sudokusite/bench_urls.py, chosen by BENCH_FLOOR_VIEW), and then it touches only the
player's own game."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from puzzles.models import Game

from ..helpers import post, start

pytestmark = pytest.mark.django_db


def test_the_floor_view_is_not_among_the_sites_urls(client, stocked):
    game = start(client)
    response = post(client, game, "floor")
    assert response.status_code == 404
    assert Game.objects.get(pk=game.pk).seen_at == game.seen_at


@override_settings(ROOT_URLCONF="sudokusite.bench_urls")
def test_turned_on_it_stores_one_update_on_the_players_own_game(client, stocked):
    game = start(client)
    response = post(client, game, "floor")
    assert response.status_code == 200
    assert response.json() == {"ok": True}
    assert Game.objects.get(pk=game.pk).seen_at > game.seen_at
    assert post(Client(), game, "floor").status_code == 404  # another guest's game
    assert client.get(f"/api/games/{game.pk}/floor").status_code == 405


def test_the_benchmarks_setting_picks_the_benchmarks_urls():
    import os
    import subprocess
    import sys

    read = "from django.conf import settings; print(settings.ROOT_URLCONF)"
    args = [sys.executable, "-c", f"import django; django.setup(); {read}"]
    for flag, urls in (("1", "sudokusite.bench_urls"), ("0", "sudokusite.urls")):
        env = {**os.environ, "BENCH_FLOOR_VIEW": flag}
        done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
        assert done.stdout.strip() == urls
