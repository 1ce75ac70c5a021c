"""Pool figures: seconds for real workers to fill empty pools (one worker, then two), and the
latency of claiming a fresh puzzle with 1,000 and with 100,000 puzzles stored.

Runs once per database (a scratch SQLite file, and PostgreSQL when it answers), each in a
child process of its own with an embedded Redis.
"""

from __future__ import annotations

import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.harness import PrivateRedis, WorkerProcess

from .common import line, postgres_ready

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/bench_pool")
FILL = {"easy": 200, "medium": 100, "hard": 30, "expert": 10, "master": 10, "extreme": 2}
BATCH = {"easy": 20, "medium": 10, "hard": 5, "expert": 2, "master": 2, "extreme": 1}
CLAIMS = 500
FILL_LIMIT = 600  # seconds: pools not full by then mean the workers are stuck


def main() -> None:
    """Each database in its own process."""
    print("== pool")
    scratch = Path(tempfile.mkdtemp(prefix="bench-pool-"))
    runs = [("sqlite", f"sqlite:///{scratch / 'pool.sqlite3'}")]
    if postgres_ready(PG_URL):
        runs.append(("postgresql", PG_URL))
    else:
        print("(PostgreSQL did not answer at BENCH_PG_URL: SQLite only)")
    try:
        for label, url in runs:
            command = [sys.executable, "-m", "bench.pool", label, url, str(scratch)]
            subprocess.run(command, check=True, cwd=ROOT)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)  # 100,000 puzzles' worth of SQLite


def _setup(url: str, scratch: Path) -> PrivateRedis:
    """Django on the database, migrated, with a Redis of its own: the Redis server."""
    redis = PrivateRedis(Path(tempfile.mkdtemp(prefix="redis-", dir=scratch)))
    os.environ.update(
        DATABASE_URL=url,
        REDIS_URL=redis.url,
        WORKER_START_CHECKS="0",
        DJANGO_SETTINGS_MODULE="sudokusite.settings",
        DJANGO_DEBUG="1",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return redis


def _fill(label: str, workers: int) -> float:
    from django.core.cache import cache

    from puzzles.models import PoolTarget, Puzzle
    from puzzles.pools.stock import fresh_counts
    from puzzles.pools.tasks import refill_pools

    Puzzle.objects.all().delete()
    cache.clear()
    for difficulty, n in FILL.items():
        PoolTarget.objects.update_or_create(
            difficulty=difficulty, defaults={"low": n, "high": n, "batch_size": BATCH[difficulty]}
        )
    started: list[WorkerProcess] = []
    try:
        for _ in range(workers):  # each on the list as soon as it is up, to be stopped
            started.append(WorkerProcess(dict(os.environ), concurrency=1))
        start = time.perf_counter()
        refill_pools()
        while (counts := fresh_counts()) != FILL:
            if time.perf_counter() - start > FILL_LIMIT:
                raise RuntimeError(f"the pools stood at {counts} after {FILL_LIMIT} s")
            time.sleep(0.05)
        return time.perf_counter() - start
    finally:
        for worker in started:
            worker.stop()


def _claims(stored: int) -> tuple[float, float]:
    from django.db import transaction
    from django.utils import timezone

    import engine
    from puzzles.models import Puzzle
    from puzzles.pools.stock import claim_fresh_puzzle

    Puzzle.objects.all().delete()
    made = engine.make_puzzle("easy", seed=1)
    # One in ten still fresh, the rest served; never fewer fresh than the claims timed.
    fresh_every = min(10, stored // (CLAIMS + 100))
    rows = [
        Puzzle(
            givens=made.puzzle,
            solution=made.solution,
            difficulty="easy",
            score=made.grade.score,
            clue_count=81 - made.puzzle.count("0"),
            canonical_key=f"{i:081d}",  # stand-ins: the claim never looks at the grid
            served_at=None if i % fresh_every == 0 else timezone.now(),
        )
        for i in range(stored)
    ]
    with transaction.atomic():
        Puzzle.objects.bulk_create(rows, batch_size=5000)
    times = []
    for _ in range(CLAIMS):
        start = time.perf_counter()
        claim_fresh_puzzle("easy")
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99)]


def run(label: str, url: str, scratch: Path) -> None:
    """The figures for one database; its Redis and workers stopped however the run ends."""
    # SIGTERM ends the run as Ctrl-C does, through the clean-ups on the way out.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    redis = None
    try:
        redis = _setup(url, scratch)
        _report(label)
    finally:
        if redis is not None:
            redis.stop()


def _report(label: str) -> None:
    one = _fill(label, 1)
    two = _fill(label, 2)
    total = sum(FILL.values())
    line(f"fill {label} 1 worker", f"{one:.1f} s", f"{total / one:.0f} puzzles/s", "200/100/30/10")
    line(
        f"fill {label} 2 workers",
        f"{two:.1f} s",
        f"{total / two:.0f} puzzles/s",
        f"x{one / two:.2f}",
    )
    small = _claims(1_000)
    large = _claims(100_000)
    for n, (median, p99) in ((1_000, small), (100_000, large)):
        line(
            f"claim {label} {n:,} stored",
            f"median {median * 1e3:.2f} ms",
            f"p99 {p99 * 1e3:.2f} ms",
        )
    line(f"claim {label} 100k vs 1k", f"x{large[0] / small[0]:.2f} median", "goal: close to x1")


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2], Path(sys.argv[3]))
