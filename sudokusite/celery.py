"""The Celery app; its settings are the CELERY_* names in sudokusite/settings.py."""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")

app = Celery("sudokusite")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Tasks live with the concern they serve: the pools' and learning's.
app.autodiscover_tasks(["puzzles.pools", "puzzles.learn"])


@worker_ready.connect
def check_pools_on_start(sender, **kwargs) -> None:
    """A worker that comes up tops up the pools, picks today's dailies, resumes stalled
    seed jobs and looks for technique examples at once, instead of waiting for beat."""
    from django.conf import settings

    if settings.WORKER_START_CHECKS:
        sender.app.send_task("puzzles.pools.tasks.refill_pools")
        sender.app.send_task("puzzles.pools.tasks.ensure_daily")
        sender.app.send_task("puzzles.pools.tasks.resume_stalled_seed_jobs")
        sender.app.send_task("puzzles.learn.tasks.refresh_technique_examples")
