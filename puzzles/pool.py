"""The pools of fresh puzzles: what is in stock, storing what workers make, claiming."""

from __future__ import annotations

import datetime
import logging

from django.db import IntegrityError, connection, transaction
from django.db.models import Count
from django.utils import timezone

import engine

from .models import Difficulty, PoolTarget, Puzzle

log = logging.getLogger(__name__)

DEFAULT_TARGETS = {
    # difficulty: (low, high, batch size). Hard and expert take longer to make: smaller batches.
    Difficulty.EASY: (20, 50, 10),
    Difficulty.MEDIUM: (20, 50, 10),
    Difficulty.HARD: (10, 30, 5),
    Difficulty.EXPERT: (5, 15, 2),
}


def targets() -> dict[str, PoolTarget]:
    """Each difficulty's target, created with the defaults where missing."""
    found = {t.difficulty: t for t in PoolTarget.objects.all()}
    for difficulty, (low, high, batch) in DEFAULT_TARGETS.items():
        if difficulty not in found:
            found[difficulty], _ = PoolTarget.objects.get_or_create(
                difficulty=difficulty, defaults={"low": low, "high": high, "batch_size": batch}
            )
    return found


def fresh_counts() -> dict[str, int]:
    """Fresh stock per difficulty, every difficulty present."""
    counts = dict.fromkeys(Difficulty.values, 0)
    rows = Puzzle.objects.fresh().values("difficulty").annotate(n=Count("id"))
    counts.update({row["difficulty"]: row["n"] for row in rows})
    return counts


def made_last_hour() -> dict[str, int]:
    """Puzzles generated per difficulty over the last hour."""
    counts = dict.fromkeys(Difficulty.values, 0)
    since = timezone.now() - datetime.timedelta(hours=1)
    rows = Puzzle.objects.made_since(since).values("difficulty").annotate(n=Count("id"))
    counts.update({row["difficulty"]: row["n"] for row in rows})
    return counts


def puzzle_row(made: engine.Generated, source: str = Puzzle.Source.GENERATED) -> Puzzle:
    """An unsaved Puzzle for what the engine made or graded."""
    return Puzzle(
        givens=made.puzzle,
        solution=made.solution,
        difficulty=made.grade.difficulty,
        score=made.grade.score,
        techniques=made.grade.techniques,
        clue_count=81 - made.puzzle.count("0"),
        canonical_key=engine.canonical(made.puzzle),
        source=source,
    )


def store_for_pool(difficulty: str, made: list[engine.Generated]) -> int:
    """Commit a batch, trimmed so the fresh stock never passes the high water mark.

    The target row is locked (where the database can) so two batches of one difficulty
    commit one after the other, each seeing the other's puzzles. Returns how many stored.
    """
    rows = [puzzle_row(m) for m in made]  # canonical keys: computed before taking locks
    with transaction.atomic():
        target = PoolTarget.objects.select_for_update().get(difficulty=difficulty)
        kept = rows[: max(target.high - Puzzle.objects.fresh(difficulty).count(), 0)]
        return len(kept) - len(insert_new(kept))


def insert_new(rows: list[Puzzle]) -> list[Puzzle]:
    """Insert the rows whose canonical key is not stored yet (nor repeated among them);
    the rows left out, as duplicates. Only rows really inserted are left out of that list,
    so callers can count what they stored, even against a concurrent insert."""
    keys = {row.canonical_key for row in rows}
    stored = Puzzle.objects.filter(canonical_key__in=keys).values_list("canonical_key", flat=True)
    seen, new, duplicates = set(stored), [], []
    for row in rows:
        (duplicates if row.canonical_key in seen else new).append(row)
        seen.add(row.canonical_key)
    try:
        with transaction.atomic():
            Puzzle.objects.bulk_create(new)
    except IntegrityError:
        # Another transaction (a redelivered batch, a second worker) committed some of these
        # puzzles since the look-up above: insert one by one to learn which are ours.
        duplicates += [row for row in new if not _insert_one(row)]
    return duplicates


def _insert_one(row: Puzzle) -> bool:
    """Insert a row unless its canonical key is stored by now; True if inserted."""
    row.pk = None  # bulk_create may have set it before its transaction rolled back
    try:
        with transaction.atomic():
            row.save(force_insert=True)
    except IntegrityError:
        if not Puzzle.objects.filter(canonical_key=row.canonical_key).exists():
            raise  # some other constraint: a real error
        return False
    return True


def claim_fresh_puzzle(difficulty: str) -> Puzzle | None:
    """Take one fresh puzzle out of the pool for good; None when the pool is empty.

    Concurrent claims never get the same puzzle: rows locked by another claim are
    skipped where the database can (PostgreSQL); SQLite serialises the transactions.
    """
    with transaction.atomic():
        qs = Puzzle.objects.fresh(difficulty).order_by("id")
        if connection.features.has_select_for_update_skip_locked:
            qs = qs.select_for_update(skip_locked=True)
        puzzle = qs.first()
        if puzzle is None:
            return None
        puzzle.served_at = timezone.now()
        puzzle.save(update_fields=["served_at"])
    return puzzle


def make_and_serve(difficulty: str) -> Puzzle:
    """The last resort when the database has nothing suitable: make a puzzle right now."""
    log.warning("no %s puzzle to hand out; generating one during the request", difficulty)
    while True:
        row = puzzle_row(engine.make_puzzle(difficulty))
        row.served_at = timezone.now()
        try:
            with transaction.atomic():
                row.save()
            return row
        except IntegrityError:  # an isomorph is already stored: make another
            continue
