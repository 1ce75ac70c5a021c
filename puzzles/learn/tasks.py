"""Celery tasks of learning: find the technique guide's examples."""

from __future__ import annotations

from collections import Counter

from celery import shared_task

from ..pools.broker import enqueue
from ..pools.tasks import TRANSIENT
from . import examples


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def refresh_technique_examples() -> dict[str, int]:
    """Find positions for the technique guide and practice where a technique is the next
    step, from the stored puzzles' solves (examples.refresh_examples), then seek puzzles
    for the techniques still without one (examples.seek_examples); the examples added. A
    run that added some while others are still missing sends the next at once."""
    added = Counter(examples.refresh_examples())
    added.update(examples.seek_examples())
    if added and examples.missing_slugs():
        enqueue(refresh_technique_examples)
    return dict(added)
