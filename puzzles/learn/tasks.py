"""Celery tasks of learning: find the technique guide's examples."""

from __future__ import annotations

from celery import shared_task

from ..pools.tasks import TRANSIENT
from . import examples


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def refresh_technique_examples() -> dict[str, int]:
    """Find positions for the technique guide and practice where a technique is the next
    step, from the stored puzzles' solves (examples.refresh_examples); the examples added."""
    return examples.refresh_examples()
