"""The health checks' findings: for /healthz (can this web process serve?) and
/healthz/workers (are the workers and beat alive?). The views, and who is told the
details, are in puzzles/site/metrics.py with the other things monitors read."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.utils import timezone

from . import heartbeats
from .broker import broker_is_up
from .stock import fresh_counts


def site() -> tuple[int, dict]:
    """200 while the database answers, whatever the workers do (pages and moves need only
    the database: a proxy must not take a healthy web process out of service because the
    workers are down); the body says how the broker, the pools and the workers are."""
    broker = "ok" if broker_is_up() else "down"
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        pools = fresh_counts()
        now = timezone.now()
        workers = {kind: h.as_json(now) for kind, h in heartbeats.health(now).items()}
    except DatabaseError:
        return 503, {"database": "down", "broker": broker, "pools": {}, "workers": {}}
    return 200, {"database": "ok", "broker": broker, "pools": pools, "workers": workers}


def workers() -> tuple[int, dict]:
    """200 while at least one worker and one beat were seen within WORKER_GONE_SECONDS,
    with their last heartbeats; 503 naming what is missing otherwise (or the database)."""
    now = timezone.now()
    try:
        health = heartbeats.health(now)
    except DatabaseError:
        return 503, {"status": "down", "problems": ["the database does not answer"]}
    problems = [p for h in health.values() if (p := h.problem(now))]
    body = {kind: h.as_json(now) for kind, h in health.items()}
    body |= {"status": "down" if problems else "ok", "problems": problems}
    return (503 if problems else 200), body
