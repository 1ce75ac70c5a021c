"""Helpers of the worker tests: the test database and broker as other processes reach them,
a worker on them, and pool targets set and read."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

from django.db import connection

from puzzles.models import Difficulty, PoolTarget, Puzzle
from sudokusite.celery import app

from ..harness import WorkerProcess

VISIBILITY_SECONDS = 4  # how soon a dead worker's task is handed out again, in these tests


def database_url() -> str:
    """The test database, as a URL another process can open."""
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(s['NAME']).resolve()}"
    auth = quote(s["USER"] or "") + (f":{quote(s['PASSWORD'])}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def broker_url() -> str:
    """The broker the test workers use."""
    return app.conf.broker_url


class Worker(WorkerProcess):
    """A worker on the test database and Redis, its tasks redelivered within seconds."""

    def __init__(self, concurrency: int = 1, start_checks: bool = False) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_SECONDS),
            "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
            "WORKER_START_CHECKS": "1" if start_checks else "0",
        }
        super().__init__(env, concurrency)


def set_targets(**targets: tuple[int, int, int]) -> None:
    """Pool targets as difficulty=(low, high, batch); difficulties not named get none."""
    for difficulty in Difficulty.values:
        low, high, batch = targets.get(difficulty, (0, 0, 1))
        PoolTarget.objects.update_or_create(
            difficulty=difficulty, defaults={"low": low, "high": high, "batch_size": batch}
        )


def fresh(difficulty: str) -> int:
    return Puzzle.objects.fresh(difficulty).count()
