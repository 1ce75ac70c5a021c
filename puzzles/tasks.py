"""Celery tasks: keep the pools stocked, pick the dailies, run seed jobs.

Tasks take ids and plain values, are safe to run twice, and keep each run short (one
batch or one chunk), enqueueing the next run themselves.
"""

from __future__ import annotations

import datetime
import logging
import random

import redis
from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

import engine

from . import broker, daily, seeding
from .broker import enqueue
from .locks import RefillLock
from .models import PoolTarget, Puzzle, SeedJob
from .pool import fresh_counts, store_for_pool, targets

log = logging.getLogger(__name__)

TRANSIENT = (OperationalError, InterfaceError)


def start_refill(difficulty: str, stock: int, target: PoolTarget | None = None) -> bool:
    """Start a refill round for a difficulty below its low water mark, unless one is under
    way. Safe to call from a request: with Redis down or slow it gives up within a second,
    says so, and does not try again for a while (beat repairs the pool later)."""
    target = target or targets()[difficulty]
    if stock >= target.low:
        return False
    if broker.recently_down():
        log.info("no refill for %s: the broker was down moments ago", difficulty)
        return False
    lock = RefillLock(difficulty)
    try:
        if not lock.acquire():
            return False
    except (redis.RedisError, OSError):
        broker.note_down()
        log.warning("no refill for %s: Redis unavailable", difficulty, exc_info=True)
        return False
    if enqueue(refill_pool, difficulty, lock.token):
        return True
    lock.release()
    return False


@shared_task
def refill_pools() -> dict[str, int]:
    """Start a refill round for each difficulty below its low water mark and without a live
    round (a round whose lock expired is over); resume lost jobs."""
    stock = fresh_counts()
    started = {
        difficulty: target.high - stock[difficulty]
        for difficulty, target in targets().items()
        if start_refill(difficulty, stock[difficulty], target)
    }
    _resume_stalled_jobs()
    return started


@shared_task(bind=True, autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def refill_pool(self, difficulty: str, token: str | None = None) -> int:
    """Make one batch for a difficulty's pool, then enqueue the next while below high.

    The round's lock goes from batch to batch with its token, renewed after every puzzle.
    A batch sent without one starts a round of its own, its task id for a token, so that
    the batch delivered again after its worker died holds that round's lock as before.
    A batch whose round lost the lock (another round holds it) still makes and stores its
    puzzles, trimmed to the high mark, but leaves the rest to that round."""
    lock = RefillLock(difficulty, token or self.request.id)
    held = lock.claim()
    target = targets()[difficulty]
    fresh = Puzzle.objects.fresh(difficulty).count()
    if fresh >= target.high:
        if held:
            lock.release()
        return 0
    # Seeded by the task id: a redelivered batch makes the same puzzles, which the
    # canonical key then refuses to store twice.
    rng = random.Random(self.request.id)
    count = min(target.batch_size, target.high - fresh)
    log.info("making %d %s puzzles", count, difficulty)
    made = []
    for _ in range(count):
        made.append(engine.make_puzzle(difficulty, seed=rng))
        held = held and lock.renew()
    stored = store_for_pool(difficulty, made)
    log.info("stored %d %s puzzles", stored, difficulty)
    if Puzzle.objects.fresh(difficulty).count() >= target.high:
        if held:
            lock.release()
    elif held and lock.renew() and not enqueue(refill_pool, difficulty, lock.token):
        lock.release()
    return stored


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def ensure_daily(days_ahead: int = 0) -> list[str]:
    """Pick today's daily puzzles (and, with days_ahead, those of the days after)."""
    first = daily.today()
    picked = []
    for offset in range(days_ahead + 1):
        date = first + datetime.timedelta(days=offset)
        picked += [str(d) for d in daily.ensure_daily(date).values()]
    return picked


@shared_task(bind=True, max_retries=5)
def run_seed_job(self, job_id: int) -> bool:
    """Do one chunk of a seed job, then enqueue the next."""
    try:
        more = seeding.run_chunk(job_id, seed=self.request.id)
    except TRANSIENT as error:
        raise self.retry(exc=error, countdown=5) from error
    except Exception as error:
        log.exception("seed job %s failed", job_id)
        seeding.fail(job_id, f"{type(error).__name__}: {error}")
        return False
    if more:
        enqueue(run_seed_job, job_id)
    return more


def _resume_stalled_jobs() -> None:
    """Jobs whose task was never enqueued (broker down) or whose worker died for good."""
    now = timezone.now()
    queued_before = now - datetime.timedelta(seconds=60)
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    running_before = now - datetime.timedelta(seconds=visibility + 60)
    stalled = SeedJob.objects.filter(
        state=SeedJob.State.QUEUED, touched_at__lt=queued_before
    ) | SeedJob.objects.filter(state=SeedJob.State.RUNNING, touched_at__lt=running_before)
    for job_id in stalled.values_list("id", flat=True):
        SeedJob.objects.filter(pk=job_id).update(touched_at=now)
        enqueue(run_seed_job, job_id)
