"""Beat on exactly one machine: a second beat started by mistake (on another machine, or
twice on one) sends nothing while the first runs, and takes over once the first is gone."""

from __future__ import annotations

import json
import signal

import pytest
import redis

from sudokusite.processes import signal_group

from ..harness import Beat, PrivateRedis, production_env, wait_until
from .helpers import database_url, set_targets

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_server():
    server = PrivateRedis()
    yield server
    server.stop()


def senders(client: redis.Redis) -> list[int]:
    """The process id of the sender of every task waiting in the queue (no worker takes
    them), oldest first: Celery names the process that sent a task in its origin header."""
    messages = [json.loads(raw) for raw in client.lrange("celery", 0, -1)]
    origins = [m["headers"]["origin"] for m in messages]
    return [int(origin.split("@")[0].removeprefix("gen")) for origin in reversed(origins)]


def test_a_second_beat_sends_nothing_until_the_first_is_gone(redis_server):
    set_targets()
    env = production_env(database_url(), redis_server.url) | {
        "REFILL_INTERVAL_SECONDS": "1",
        "BEAT_LOCK_SECONDS": "3",
    }
    client = redis.Redis.from_url(redis_server.url)
    first = Beat(env)
    started = [first]
    try:
        wait_until(lambda: first.process.pid in senders(client), what="the first beat's tasks")
        second = Beat(env)
        started.append(second)
        # The second beat is up, ticking, once it has written its heartbeat; then a few
        # more of the first beat's rounds, each a beat period, in which it sends nothing.
        wait_until(lambda: "beat: Starting" in second.output(), what="the second beat up")
        sent = len(senders(client))
        wait_until(lambda: len(senders(client)) >= sent + 8, what="four more rounds")
        assert set(senders(client)) == {first.process.pid}, second.output()[-2000:]
        # The first beat dies outright: its lock runs out and the second takes over.
        signal_group(first.process, signal.SIGKILL)
        first.process.wait()
        wait_until(lambda: second.process.pid in senders(client), what="the second taking over")
        assert set(senders(client)) == {first.process.pid, second.process.pid}
    finally:
        for beat in reversed(started):
            beat.stop()
