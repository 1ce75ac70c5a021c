"""Talking to the broker without ever making a request wait on it."""

from __future__ import annotations

import logging
import time

import redis
from celery import Task, current_app
from django.conf import settings

log = logging.getLogger(__name__)

# After a failed send, this process does not try again for a while: with the broker down,
# requests must not each wait for a connection attempt to fail.
BACKOFF_SECONDS = 15.0
_down_until = 0.0


def recently_down() -> bool:
    """True while this process holds back after the broker failed to answer."""
    return time.monotonic() < _down_until


def note_down() -> None:
    """The broker's Redis did not answer: hold back for BACKOFF_SECONDS."""
    global _down_until
    _down_until = time.monotonic() + BACKOFF_SECONDS


def enqueue(task: Task | str, *args: object, **kwargs: object) -> bool:
    """Send a task (or the task of that name, for a service that must not import the task
    module) now; log and return False when the broker cannot take it."""
    global _down_until
    name = task if isinstance(task, str) else task.name
    if recently_down():
        log.info("not enqueueing %s%r: the broker was down moments ago", name, args)
        return False
    try:
        if isinstance(task, str):
            current_app.send_task(task, args=args, kwargs=kwargs, retry=False)
        else:
            task.apply_async(args=args, kwargs=kwargs, retry=False)
    except Exception:  # any broker or transport failure: the caller goes on without it
        note_down()
        log.warning("could not enqueue %s%r: broker unavailable", name, args, exc_info=True)
        return False
    _down_until = 0.0
    return True


def broker_is_up() -> bool:
    """True when the broker answers a ping within half a second."""
    try:
        client = redis.Redis.from_url(
            settings.CELERY_BROKER_URL, socket_connect_timeout=0.5, socket_timeout=0.5
        )
        with client:
            return bool(client.ping())
    except (redis.RedisError, OSError, ValueError):
        return False


def queue_depth() -> dict[str, int] | None:
    """Tasks waiting in the broker's queue and tasks handed to a worker but not yet
    acknowledged (running, or held by a worker that died); None when the broker does not
    answer. The queue is a Redis list per priority step (kombu's naming)."""
    queue = current_app.conf.task_default_queue
    names = [queue] + [f"{queue}\x06\x16{step}" for step in range(1, 10)]
    try:
        client = redis.Redis.from_url(
            settings.CELERY_BROKER_URL, socket_connect_timeout=0.5, socket_timeout=0.5
        )
        with client, client.pipeline() as pipe:
            for name in names:
                pipe.llen(name)
            pipe.hlen("unacked")
            *lengths, unacked = pipe.execute()
    except (redis.RedisError, OSError, ValueError):
        return None
    return {"queued": sum(lengths), "unacked": unacked}
