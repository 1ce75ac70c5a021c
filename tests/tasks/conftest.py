"""Real Celery worker processes on the test Redis and the test database."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.core.cache import cache

from sudokusite.celery import app

from .helpers import Worker


@pytest.fixture
def start_worker(transactional_db) -> Iterator[Callable[..., Worker]]:
    """Start real workers on demand; every one is stopped after the test."""
    cache.clear()  # the broker shares this Redis database: no queued task survives a test
    started: list[Worker] = []

    def start(concurrency: int = 1, start_checks: bool = False) -> Worker:
        worker = Worker(concurrency, start_checks)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()
    app.control.purge()
    cache.clear()
