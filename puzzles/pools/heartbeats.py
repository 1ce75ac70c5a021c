"""Workers and beat you can see: each worker and beat process writes a heartbeat row every
HEARTBEAT_SECONDS from a thread of its own, with whether it reached the broker, and says
when it stops cleanly; the health checks, the metrics and the pool page read the rows.

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
from .broker import broker_is_up

log = logging.getLogger(__name__)

# A process not seen for a day is forgotten: a worker retired or renamed for good.
FORGET_AFTER = datetime.timedelta(days=1)


def beat_once(
    kind: str, name: str, started_at: datetime.datetime, broker_reached: bool = True
) -> None:
    """Write this process's heartbeat now, with whether it reached the broker (since when it
    has not, kept from the first heartbeat that missed it), and forget processes long gone."""
    now = timezone.now()
    Heartbeat.objects.update_or_create(
        kind=kind,
        name=name,
        defaults={"pid": os.getpid(), "started_at": started_at, "seen_at": now, "stopped_at": None},
    )
    mine = Heartbeat.objects.filter(kind=kind, name=name)
    if broker_reached:
        mine.exclude(broker_lost_at=None).update(broker_lost_at=None)
    else:
        mine.filter(broker_lost_at=None).update(broker_lost_at=now)
    Heartbeat.objects.filter(seen_at__lt=now - FORGET_AFTER).delete()


class HeartbeatThread(threading.Thread):
    """Writes a process's heartbeat at once and then every HEARTBEAT_SECONDS until stopped;
    a database that does not answer costs a heartbeat, never the process. Each heartbeat
    first asks the broker (a ping, at most half a second): a worker that cannot reach it
    takes no task and beat sends none, so neither is alive, though both live on and retry."""

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
        reached = broker_is_up()
        if not reached:
            log.warning("%s %s cannot reach the broker", self.kind, self.process_name)
        try:
            beat_once(self.kind, self.process_name, self.started_at, reached)
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
    no_broker: int
    gone: int
    stopped: int
    last_seen: datetime.datetime | None
    rows: tuple[Heartbeat, ...] = ()
    gone_names: tuple[str, ...] = ()

    @property
    def state(self) -> str:
        """The kind's state: "alive" while one process is; otherwise the first of "no broker",
        "gone" and "stopped" that some process is in ("gone" when none was ever seen)."""
        if self.alive:
            return "alive"
        if self.no_broker:
            return "no broker"
        return "stopped" if self.stopped and not self.gone else "gone"

    def as_json(self, now: datetime.datetime) -> dict:
        """For /healthz and /healthz/workers: counts and times, and the names of the
        processes gone (a worker's node name holds its machine's host name)."""
        ago = round((now - self.last_seen).total_seconds()) if self.last_seen else None
        return {
            "state": self.state,
            "alive": self.alive,
            "no_broker": self.no_broker,
            "gone": self.gone,
            "stopped": self.stopped,
            "last_seen": self.last_seen.isoformat() if self.last_seen else None,
            "seconds_ago": ago,
            "gone_names": list(self.gone_names),
        }

    def problem(self, now: datetime.datetime) -> str | None:
        """What a monitor is told when no process of this kind is alive: each process seen
        in the last day, by name, with why it is not alive (newest first)."""
        if self.alive:
            return None
        if not self.rows:
            return f"no {self.kind} has ever been seen"
        rows = sorted(self.rows, key=lambda row: row.seen_at, reverse=True)
        return f"no {self.kind} alive: " + "; ".join(why_not_alive(row, now) for row in rows)


def why_not_alive(row: Heartbeat, now: datetime.datetime) -> str:
    """A process that is not alive, named, with what happened and when."""
    state = row.state(now)
    if state == "stopped":
        return f"{row.name} stopped at {row.stopped_at.isoformat()}"
    if state == "no broker":
        return f"{row.name} cannot reach the broker since {row.broker_lost_at.isoformat()}"
    ago = round((now - row.seen_at).total_seconds())
    return (
        f"{row.name} gone, last seen {ago} s ago ({row.seen_at.isoformat()}), "
        f"no heartbeat for over {settings.WORKER_GONE_SECONDS} s"
    )


def processes() -> list[Heartbeat]:
    """Every process seen in the last day, workers first."""
    return list(Heartbeat.objects.all())


def health(now: datetime.datetime | None = None) -> dict[str, KindHealth]:
    """Worker and beat: how many are alive, cut off from the broker, gone and stopped, and
    when one was last seen."""
    now = now or timezone.now()
    rows = processes()
    found = {}
    for kind in Heartbeat.Kind.values:
        mine = [row for row in rows if row.kind == kind]
        states = [row.state(now) for row in mine]
        found[kind] = KindHealth(
            kind=kind,
            alive=states.count("alive"),
            no_broker=states.count("no broker"),
            gone=states.count("gone"),
            stopped=states.count("stopped"),
            last_seen=max((row.seen_at for row in mine), default=None),
            rows=tuple(mine),
            gone_names=tuple(
                sorted(r.name for r, s in zip(mine, states, strict=True) if s == "gone")
            ),
        )
    return found
