"""What the refills did: every refill batch tallied per difficulty (how many, what they
stored, how long they took, when the last one ended). Read by the pool page and the
metrics."""

from __future__ import annotations

import bisect

from django.db import transaction
from django.utils import timezone

from ..models import Difficulty, RefillTally

# Upper bounds, in seconds, of the buckets a batch's time is counted in: from a fraction of
# a second (a small batch on an idle machine) up to the task's hard time limit (300 s).
# The tallies store one count per bucket: changing the bounds means recounting them.
BATCH_BUCKETS = (1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)


def record_batch(difficulty: str, stored: int, seconds: float) -> None:
    """Count a refill batch that took seconds and stored that many puzzles."""
    with transaction.atomic():
        tally, _ = RefillTally.objects.select_for_update().get_or_create(difficulty=difficulty)
        buckets = tally.buckets or [0] * len(BATCH_BUCKETS)
        for i in range(bisect.bisect_left(BATCH_BUCKETS, seconds), len(BATCH_BUCKETS)):
            buckets[i] += 1
        tally.buckets = buckets
        tally.batches += 1
        tally.stored += stored
        tally.seconds += seconds
        tally.last_at = timezone.now()
        tally.save()


def tallies() -> dict[str, RefillTally]:
    """Each difficulty's tally, an empty one where no batch ran yet."""
    found = {t.difficulty: t for t in RefillTally.objects.all()}
    empty = [0] * len(BATCH_BUCKETS)
    return {d: found.get(d) or RefillTally(difficulty=d, buckets=empty) for d in Difficulty.values}
