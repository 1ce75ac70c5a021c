"""Workers and beat you can see: each worker and beat process writes a heartbeat row every
HEARTBEAT_SECONDS from a thread of its own, and says when it stops cleanly; the health
checks, the metrics and the pool page read the rows.

The rows live in the database, not in Redis or the cache: /healthz and the pages need only
the database, and without REDIS_URL the cache is each process's own.
"""

from __future__ import annotations

import datetime
import logging
import os
import threading
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection
from django.utils import timezone

from ..models import Heartbeat

log = logging.getLogger(__name__)

# A process not seen for a day is forgotten: a worker retired or renamed for good.
FORGET_AFTER = datetime.timedelta(days=1)


def beat_once(kind: str, name: str, started_at: datetime.datetime) -> None:
    """Write this process's heartbeat now, and forget processes long gone."""
    now = timezone.now()
    Heartbeat.objects.update_or_create(
        kind=kind,
        name=name,
        defaults={"pid": os.getpid(), "started_at": started_at, "seen_at": now, "stopped_at": None},
    )
    Heartbeat.objects.filter(seen_at__lt=now - FORGET_AFTER).delete()


class HeartbeatThread(threading.Thread):
    """Writes a process's heartbeat at once and then every HEARTBEAT_SECONDS until stopped;
    a database that does not answer costs a heartbeat, never the process."""

    def __init__(self, kind: str, name: str) -> None:
        super().__init__(name=f"heartbeat-{kind}", daemon=True)
        self.kind, self.process_name = kind, name
        self.started_at = timezone.now()
        self.halt = threading.Event()

    def run(self) -> None:
        try:
            while True:
                self._beat()
                if self.halt.wait(settings.HEARTBEAT_SECONDS):
                    return
        finally:
            connection.close()  # this thread's own connection

    def _beat(self) -> None:
        close_old_connections()  # a connection the database dropped is not used again
        try:
            beat_once(self.kind, self.process_name, self.started_at)
        except DatabaseError:
            log.warning("no heartbeat for %s %s", self.kind, self.process_name, exc_info=True)
            connection.close()

    def stop(self) -> None:
        """Stop beating and record the clean stop, so the process shows as stopped at once
        rather than gone a few beat periods later."""
        self.halt.set()
        self.join(timeout=settings.HEARTBEAT_SECONDS)
        try:
            Heartbeat.objects.filter(kind=self.kind, name=self.process_name).update(
                stopped_at=timezone.now()
            )
        except DatabaseError:
            log.warning("could not record that %s stopped", self.process_name, exc_info=True)


def start(kind: str, name: str) -> HeartbeatThread:
    """Start this process's heartbeat."""
    thread = HeartbeatThread(kind, name)
    thread.start()
    return thread


@dataclass(frozen=True)
class KindHealth:
    """The processes of one kind, worker or beat, as the health checks tell them."""

    kind: str
    alive: int
    gone: int
    stopped: int
    last_seen: datetime.datetime | None
    gone_names: tuple[str, ...] = ()

    def as_json(self, now: datetime.datetime) -> dict:
        """For /healthz and /healthz/workers: counts and times, and the names of the
        processes gone (a worker's node name holds its machine's host name)."""
        ago = round((now - self.last_seen).total_seconds()) if self.last_seen else None
        return {
            "state": "alive" if self.alive else "gone",
            "alive": self.alive,
            "gone": self.gone,
            "stopped": self.stopped,
            "last_seen": self.last_seen.isoformat() if self.last_seen else None,
            "seconds_ago": ago,
            "gone_names": list(self.gone_names),
        }

    def problem(self, now: datetime.datetime) -> str | None:
        """What a monitor is told when no process of this kind is alive."""
        if self.alive:
            return None
        if self.last_seen is None:
            return f"no {self.kind} has ever been seen"
        ago = round((now - self.last_seen).total_seconds())
        return (
            f"no {self.kind} alive: the last one was seen {ago} s ago "
            f"({self.last_seen.isoformat()}); gone after {settings.WORKER_GONE_SECONDS} s"
        )


def processes() -> list[Heartbeat]:
    """Every process seen in the last day, workers first."""
    return list(Heartbeat.objects.all())


def health(now: datetime.datetime | None = None) -> dict[str, KindHealth]:
    """Worker and beat: how many are alive, gone and stopped, and when one was last seen."""
    now = now or timezone.now()
    rows = processes()
    found = {}
    for kind in Heartbeat.Kind.values:
        mine = [row for row in rows if row.kind == kind]
        states = [row.state(now) for row in mine]
        found[kind] = KindHealth(
            kind=kind,
            alive=states.count("alive"),
            gone=states.count("gone"),
            stopped=states.count("stopped"),
            last_seen=max((row.seen_at for row in mine), default=None),
            gone_names=tuple(
                sorted(r.name for r, s in zip(mine, states, strict=True) if s == "gone")
            ),
        )
    return found
