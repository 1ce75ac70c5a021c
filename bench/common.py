"""Helpers shared by the benchmarks: timing, and for web and load, preparing the site as in
production (the servers themselves are the tests' harness's) and loading it over raw
keep-alive connections."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from tests import harness
from tests.harness import manage

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CHROMIUM = Path("/usr/bin/chromium")
T = TypeVar("T")


def load(name: str) -> list[str]:
    """The puzzles of a sample file, '.' turned into '0'."""
    return [line.replace(".", "0") for line in (DATA / f"{name}.txt").read_text().split()]


def rate(
    work: Callable[[str], object], items: Sequence[str], budget: float = 3.0
) -> tuple[float, int]:
    """Items per second over the first items that fit in the time budget, and how many."""
    start = time.perf_counter()
    done = 0
    for item in items:
        work(item)
        done += 1
        if time.perf_counter() - start > budget:
            break
    return done / (time.perf_counter() - start), done


def rate_on(work: Callable[[str], object], items: Sequence[str]) -> float:
    """Items per second over exactly these items."""
    start = time.perf_counter()
    for item in items:
        work(item)
    return len(items) / (time.perf_counter() - start)


def line(*fields: object) -> None:
    """One result line, fields padded into columns."""
    print("  ".join(f"{f:<26}" if i == 0 else f"{f:<18}" for i, f in enumerate(fields)), flush=True)


# The site, as in production (web, load) -----------------------------------------------

PICK_DAILIES = "from puzzles.pools.daily import dailies_of, today; dailies_of(today())"


def postgres_ready(url: str) -> bool:
    """Drop and create the scratch database; False when PostgreSQL does not answer."""
    import psycopg

    server, _, name = url.rpartition("/")
    try:
        with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=2) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return True
    except psycopg.Error:
        return False


def site_env(pg_url: str, redis_url: str) -> dict[str, str]:
    """The environment of the site's processes: production settings, scratch services."""
    return {
        **os.environ,
        "DATABASE_URL": pg_url,
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_HTTPS": "0",  # plain HTTP on the loopback: no redirect, no secure-only cookies
        # Every simulated player comes from 127.0.0.1: the per-client limits would refuse
        # them as one client. The limits are measured by the tests, not here.
        "RATE_LIMITS": "0",
    }


def prepare_site(env: dict[str, str], *commands: tuple[str, ...]) -> None:
    """Schema and static files, then the given manage.py commands (stocking the pools), then
    today's dailies, so that no page has to pick them."""
    manage(env, "migrate", "--noinput", timeout=None)
    manage(env, "collectstatic", "--noinput", timeout=None)  # into STATIC_ROOT, var/static
    for command in commands:
        manage(env, *command, timeout=None)
    manage(env, "shell", "-c", PICK_DAILIES, timeout=None)


def in_browser_site(name: str, measure: Callable[[str], T]) -> T | None:
    """`measure(base_url)` against the production site (one gunicorn worker, a private Redis,
    a pool of easy puzzles) for the browser's benchmarks; None where there is no Chromium."""
    if not CHROMIUM.exists():
        print("(no Chromium at /usr/bin/chromium: skipped)")
        return None
    started: list = []
    with tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as scratch:
        try:
            started.append(redis := harness.PrivateRedis(Path(scratch)))
            env = site_env(f"sqlite:///{scratch}/{name}.sqlite3", redis.url)
            prepare_site(env, ("seed_pool", "--difficulty", "easy", "--count", "3", "--now"))
            started.append(site := harness.Gunicorn(env, workers=1, echo=True))
            return measure(f"http://127.0.0.1:{site.port}")
        finally:
            for server in reversed(started):
                server.stop()


# The load -----------------------------------------------------------------------------

GRACE = 30  # seconds a request may still take after the end before it counts as failed


@dataclass
class Tally:
    """What one load process measured: latencies in seconds, and failed requests."""

    counting_from: float = 0.0  # requests that start earlier are the warm-up
    latencies: list[float] = field(default_factory=list)
    errors: int = 0


class Failed(Exception):
    """A request answered with a status that is not 2xx."""


class Connection:
    """One keep-alive HTTP/1.1 connection over asyncio streams, reopened when the server
    closes it; just enough HTTP for this site's answers (always with Content-Length)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, head: str, body: bytes = b"") -> bytes:
        """Send a request (head without the final blank line) and return the answer's body."""
        status, _, data = await self.exchange(head, body)
        if not 200 <= status < 300:
            raise Failed(str(status))
        return data

    async def exchange(self, head: str, body: bytes = b"") -> tuple[int, bytes, bytes]:
        """Send a request and return the answer's status, head (as sent) and body, whatever
        the status. A request cut short, cancelled included, drops the connection."""
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        try:
            writer.write(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
            answer = await reader.readuntil(b"\r\n\r\n")
            status, lower = int(answer[9:12]), answer.lower()  # HTTP/1.1 200 OK
            if status in (204, 304):  # no body, and no length said
                data = b""
            else:
                start = lower.index(b"\r\ncontent-length:") + 17
                data = await reader.readexactly(int(lower[start : lower.index(b"\r\n", start)]))
        except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.CancelledError):
            self.close()
            raise
        if b"\r\nconnection: close" in lower:
            self.close()
        return status, answer, data

    def close(self) -> None:
        """Drop the connection; the next request opens a new one."""
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


async def timed(tally: Tally, until: float, request: Awaitable[bytes]) -> bytes | None:
    """Await a request; its latency if it started after the warm-up and ended in time, or
    its failure; the answer's body, None on failure."""
    start = time.monotonic()
    try:
        body = await request
    except (Failed, OSError, ValueError, asyncio.IncompleteReadError):
        tally.errors += 1
        return None
    end = time.monotonic()
    if start >= tally.counting_from and end <= until:
        tally.latencies.append(end - start)
    return body


def p99(latencies: list[float]) -> float:
    """The 99th percentile of some latencies; NaN when there are none."""
    times = sorted(latencies)
    return times[int(len(times) * 0.99)] if times else float("nan")


def report(label: str, per_second: float, tally: Tally) -> None:
    """One line of figures: requests per second, median and p99 latency, errors, and how
    many requests were timed (few when a level's players are all mid-game)."""
    times = tally.latencies
    if not times:
        line(label, "no request timed", "", "", f"errors {tally.errors}")
        return
    rate = f"{per_second:,.1f}" if per_second < 10 else f"{per_second:,.0f}"
    line(
        label,
        f"{rate} requests/s",
        f"median {statistics.median(times) * 1e3:.1f} ms",
        f"p99 {p99(times) * 1e3:.1f} ms",
        f"errors {tally.errors}",
        f"n={len(times)}",
    )


@contextlib.contextmanager
def site_in_process(name: str, difficulty: str, stocked: int) -> Iterator[object]:
    """The site run in this process on a scratch SQLite database (Django's test client, no
    network between; rate limits off), `stocked` puzzles of a difficulty in its pool and
    the engine warm, as the analyse and languages benches measure a request's own work.
    Yields the client; the scratch folder goes after."""
    scratch = Path(tempfile.mkdtemp(prefix=f"bench-{name}-"))
    try:
        os.environ.update(
            {
                "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
                "DATABASE_URL": f"sqlite:///{scratch / 'db.sqlite3'}",
                "RATE_LIMITS": "0",
                "DJANGO_ALLOWED_HOSTS": "testserver",
            }
        )
        import django

        django.setup()
        from django.core.management import call_command
        from django.test import Client

        import engine
        from puzzles.pools.stock import insert_new, puzzle_row

        call_command("migrate", verbosity=0)
        insert_new([puzzle_row(engine.make_puzzle(difficulty, seed=n)) for n in range(stocked)])
        engine.warm_up()
        yield Client()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
