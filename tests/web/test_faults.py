"""The site under faults of its database: PostgreSQL restarted while players play."""

from __future__ import annotations

import threading
import time

import pytest

from ..harness import Gunicorn, Player, PrivatePostgres, manage, production_env

pytestmark = pytest.mark.worker  # starts real servers


@pytest.fixture
def postgres():
    server = PrivatePostgres()
    yield server
    server.destroy()


def test_a_postgres_restart_fails_requests_cleanly_and_the_site_recovers_by_itself(postgres):
    env = production_env(postgres.url, redis_url="redis://127.0.0.1:1/0")
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "seed_pool", "--difficulty", "easy", "--count", "12", "--now")
    site = Gunicorn(env)
    try:
        players = [Player(site.port, timeout=20) for _ in range(4)]
        games = [p.start_game() for p in players]
        results: list[tuple[float, int]] = []
        stop = threading.Event()

        def play(player: Player, game: int) -> None:
            while not stop.is_set():
                started = time.monotonic()
                try:
                    status, _, _ = player.send("GET", f"/api/games/{game}")
                    results.append((started, status))
                    status, _, _ = player.send("GET", "/")
                    results.append((started, status))
                except OSError:
                    results.append((started, -1))
                time.sleep(0.05)

        threads = [
            threading.Thread(target=play, args=pg) for pg in zip(players, games, strict=True)
        ]
        for t in threads:
            t.start()
        time.sleep(1.5)
        down_from = time.monotonic()
        postgres.stop()
        time.sleep(2.5)
        postgres.start()
        up_at = time.monotonic()
        time.sleep(4)
        stop.set()
        for t in threads:
            t.join()

        statuses = {s for _, s in results}
        assert statuses <= {200, 503}, sorted(statuses)  # no 500, no dropped connection
        assert any(s == 503 for t, s in results if down_from <= t <= up_at)  # the fault was seen
        assert all(s == 200 for t, s in results if t < down_from - 0.2)
        assert all(s == 200 for t, s in results if t > up_at + 1.5)  # recovered by itself
        status, _, body = players[0].send("GET", f"/api/games/{games[0]}")
        assert status == 200 and '"status": "playing"' in body
    finally:
        site.stop()
