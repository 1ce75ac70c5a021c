"""How busy the site is, as the refills read it: the requests the web processes answered,
counted in the broker's Redis in buckets of BUCKET_SECONDS of the wall clock, shared by
every web process and worker on every machine.

Each web process counts its requests in memory and adds them to the bucket of the moment
at most every FLUSH_SECONDS (one INCRBY, on the request that finds the time come), so a
request pays no round trip to Redis but that one. The health checks and the scrape are not
counted: a monitor is not a player. With Redis down nothing is counted and the site is
neither quiet nor busy: the pools are refilled by their low marks alone, as without these
counts.

- quiet: fewer than REFILL_QUIET_REQUESTS_PER_MINUTE over the last REFILL_QUIET_MINUTES;
  beat then tops every pool up to its high mark (stock.start_refills).
- busy: at least REFILL_BUSY_REQUESTS_PER_MINUTE over the last minute, or at that rate
  over the last 20 s (a surge); a refill batch for a pool above its low mark, or for
  master and extreme, then stops between two puzzles (stock.make_batch).
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from django.conf import settings

from . import broker
from .locks import client

log = logging.getLogger(__name__)

BUCKET_SECONDS = 10
# Buckets older than this are gone: longer than any window read (REFILL_QUIET_MINUTES
# is at most 15).
KEEP_SECONDS = 16 * 60
# How often, at most, a web process sends what it counted.
FLUSH_SECONDS = 2.0
BUSY_WINDOW_SECONDS = 60
SURGE_WINDOW_SECONDS = 20

_lock = threading.Lock()
_pending = 0
_flushed_at = float("-inf")
_down_until = 0.0  # no count is sent before this, after Redis failed to answer


def key(bucket: int) -> str:
    return f"site-requests:{bucket}"


def add(requests: int, at: float | None = None) -> None:
    """Add requests answered to the bucket of `at` (now by default), never raising: with
    Redis down the count is dropped and this process holds back a while, as it does from
    sending tasks (broker.py)."""
    global _down_until
    if requests <= 0 or broker.recently_down() or time.monotonic() < _down_until:
        return
    name = key(int((time.time() if at is None else at) // BUCKET_SECONDS))
    try:
        with client().pipeline(transaction=False) as pipe:
            pipe.incrby(name, requests)
            pipe.expire(name, KEEP_SECONDS)
            pipe.execute()
    except (redis.RedisError, OSError):
        _down_until = time.monotonic() + broker.BACKOFF_SECONDS
        log.warning("requests not counted: Redis did not answer", exc_info=True)


def count_request() -> None:
    """Count one request answered; send the process's count once FLUSH_SECONDS passed."""
    global _pending, _flushed_at
    now = time.monotonic()
    with _lock:
        _pending += 1
        if now - _flushed_at < FLUSH_SECONDS:
            return
        requests, _pending, _flushed_at = _pending, 0, now
    add(requests)


def flush() -> None:
    """Send what this process counted and not yet sent."""
    global _pending, _flushed_at
    with _lock:
        requests, _pending, _flushed_at = _pending, 0, time.monotonic()
    add(requests)


def counted(seconds: int, now: float | None = None) -> int | None:
    """Requests counted over the last `seconds` (the whole buckets covering them and the
    bucket under way); None when Redis does not answer."""
    now = time.time() if now is None else now
    current = int(now // BUCKET_SECONDS)
    first = current - -(-seconds // BUCKET_SECONDS)
    try:
        values = client().mget([key(b) for b in range(first, current + 1)])
    except (redis.RedisError, OSError):
        log.warning("site traffic unknown: Redis did not answer", exc_info=True)
        return None
    return sum(int(v) for v in values if v is not None)


def per_minute(seconds: int, now: float | None = None) -> float | None:
    """Requests a minute over the last `seconds` (at least; the bucket under way is read
    too and counted in the time); None when Redis does not answer."""
    now = time.time() if now is None else now
    requests = counted(seconds, now)
    if requests is None:
        return None
    current = int(now // BUCKET_SECONDS)
    covered = -(-seconds // BUCKET_SECONDS) * BUCKET_SECONDS + (now - current * BUCKET_SECONDS)
    return requests * 60 / covered


def site_is_quiet() -> bool:
    """Fewer requests a minute than REFILL_QUIET_REQUESTS_PER_MINUTE over the last
    REFILL_QUIET_MINUTES (never with the threshold 0, or with Redis down)."""
    threshold = settings.REFILL_QUIET_REQUESTS_PER_MINUTE
    if not threshold:
        return False
    rate = per_minute(settings.REFILL_QUIET_MINUTES * 60)
    return rate is not None and rate < threshold


def site_is_busy() -> bool:
    """At least REFILL_BUSY_REQUESTS_PER_MINUTE over the last minute, or at that rate over
    the last SURGE_WINDOW_SECONDS: a surge is busy within seconds, before it has filled a
    minute (never with the threshold 0, or with Redis down)."""
    threshold = settings.REFILL_BUSY_REQUESTS_PER_MINUTE
    if not threshold:
        return False
    for window in (SURGE_WINDOW_SECONDS, BUSY_WINDOW_SECONDS):
        rate = per_minute(window)
        if rate is None:
            return False
        if rate >= threshold:
            return True
    return False
