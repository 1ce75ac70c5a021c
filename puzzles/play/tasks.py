"""Celery tasks of play: the nightly upkeep of what games leave behind (upkeep.py)."""

from __future__ import annotations

import logging

from celery import shared_task

from . import upkeep

log = logging.getLogger(__name__)


@shared_task
def prune() -> dict[str, int]:
    """Remove expired sessions and receipts of games no longer in play."""
    removed = upkeep.prune()
    log.info("pruned %(sessions)d expired sessions, %(receipts)d receipts of ended games", removed)
    return removed
