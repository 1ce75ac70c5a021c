"""Celery tasks of the pools: keep them stocked, pick the dailies, run and resume seed jobs.

Each task turns a rule of the service modules (stock.py, daily.py, seeding.py) into
something a worker runs. Tasks take ids and plain values, are safe to run twice, and keep
each run short (one batch or one chunk), enqueueing the next run themselves.
"""

from __future__ import annotations

import datetime
import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import daily, seeding, stock
from .broker import enqueue

log = logging.getLogger(__name__)

TRANSIENT = (OperationalError, InterfaceError)


@shared_task
def refill_pools() -> dict[str, int]:
    """Start a refill round for each difficulty below its low water mark (stock.py)."""
    return stock.start_refills()


@shared_task(bind=True, autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def refill_pool(self, difficulty: str, token: str | None = None) -> int:
    """One batch of a refill round (stock.make_batch), which sends the next. A batch sent
    without a token starts a round of its own, its task id for a token."""
    return stock.make_batch(difficulty, token or self.request.id, seed=self.request.id)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def ensure_daily(days_ahead: int = 0) -> list[str]:
    """Pick the daily puzzles of every date some time zone is living (and, with
    days_ahead, those of the days after the latest)."""
    living = daily.living_dates()
    latest = living[-1]
    dates = living + [latest + datetime.timedelta(days=n) for n in range(1, days_ahead + 1)]
    picked = []
    for date in dates:
        picked += [str(d) for d in daily.dailies_of(date).values()]
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


@shared_task
def resume_stalled_seed_jobs() -> list[int]:
    """Send the task of every seed job whose task was never enqueued (broker down) or whose
    worker died for good; the ids of those jobs."""
    resumed = seeding.claim_stalled_jobs()
    for job_id in resumed:
        enqueue(run_seed_job, job_id)
    return resumed
