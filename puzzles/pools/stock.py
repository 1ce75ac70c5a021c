"""The pools of fresh puzzles and their rules: what is in stock, when and how much to make,
the one refill round per difficulty (its lock), storing what workers make, claiming.

`tasks.py` only turns these rules into Celery tasks; a request that wants a refill
calls start_refill here, which sends the batch task by name.
"""

from __future__ import annotations

import datetime
import logging
import random
import time
from dataclasses import dataclass

import redis
from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet
from django.utils import timezone

import engine
from engine import EXTREME_STARTS

from .. import sql
from ..models import Difficulty, PoolTarget, Puzzle
from . import activity, broker, traffic
from .locks import RefillLock

log = logging.getLogger(__name__)

HOUR = datetime.timedelta(hours=1)  # the window of the pool page's rates

DEFAULT_TARGETS = {
    # difficulty: (low, high, batch size). The harder tiers take longer to make: smaller
    # batches (an extreme puzzle takes a worker some seconds).
    Difficulty.EASY: (20, 50, 10),
    Difficulty.MEDIUM: (20, 50, 10),
    Difficulty.HARD: (10, 30, 5),
    Difficulty.EXPERT: (5, 15, 2),
    Difficulty.MASTER: (5, 15, 2),
    Difficulty.EXTREME: (2, 6, 1),
}

# Tiers only ever made ahead by the workers: too slow to make while a request waits. When
# their pool is empty a request falls back (an easier puzzle, the daily later) and the
# refill is started.
MADE_AHEAD = frozenset({Difficulty.MASTER, Difficulty.EXTREME})


def targets() -> dict[str, PoolTarget]:
    """Each difficulty's target, created with the defaults where missing."""
    found = {t.difficulty: t for t in PoolTarget.objects.all()}
    for difficulty, (low, high, batch) in DEFAULT_TARGETS.items():
        if difficulty not in found:
            found[difficulty], _ = PoolTarget.objects.get_or_create(
                difficulty=difficulty, defaults={"low": low, "high": high, "batch_size": batch}
            )
    return found


def per_difficulty(puzzles: QuerySet[Puzzle]) -> dict[str, int]:
    """How many of the puzzles each difficulty has, every difficulty present."""
    counts = dict.fromkeys(Difficulty.values, 0)
    rows = puzzles.values("difficulty").annotate(n=Count("id"))
    counts.update({row["difficulty"]: row["n"] for row in rows})
    return counts


def fresh_counts() -> dict[str, int]:
    """Fresh stock per difficulty, every difficulty present."""
    return per_difficulty(Puzzle.objects.fresh())


def made_last_hour() -> dict[str, int]:
    """Puzzles generated per difficulty over the last hour."""
    return per_difficulty(Puzzle.objects.made_since(timezone.now() - HOUR))


def drawn_last_hour() -> dict[str, int]:
    """Puzzles handed out per difficulty over the last hour: the rate games draw on each
    pool (dailies included)."""
    return per_difficulty(Puzzle.objects.served_since(timezone.now() - HOUR))


# How many of the newest stored extreme puzzles an extreme climb may start from, beside the
# engine's own starts: the pool grows from its own puzzles.
CLIMB_STARTS = 50


def make(difficulty: str, rng: random.Random) -> engine.Generated:
    """One new puzzle of the difficulty for a pool or a seed job. Extreme ones are climbed
    to (engine/climb.py), from the engine's starts or the newest extreme puzzles stored."""
    if difficulty != Difficulty.EXTREME:
        return engine.make_puzzle(difficulty, seed=rng)
    stored = (
        Puzzle.objects.filter(difficulty=difficulty)
        .exclude(source=Puzzle.Source.PLAYER)
        .order_by("-id")
        .values_list("givens", flat=True)[:CLIMB_STARTS]
    )
    return engine.make_puzzle(difficulty, seed=rng, starts=(*EXTREME_STARTS, *stored))


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
        solution_print=engine.grid_print(made.solution),
        source=source,
    )


def room(target: PoolTarget, fresh: int) -> int:
    """How many puzzles the pool takes before its fresh stock reaches the high water mark."""
    return max(target.high - fresh, 0)


@dataclass(frozen=True)
class Stored:
    """What storing a batch did: how many were stored, and the pool's room left after."""

    count: int
    room: int


def store_for_pool(difficulty: str, made: list[engine.Generated]) -> Stored:
    """Commit a batch, trimmed so the fresh stock never passes the high water mark.

    The target row is locked (where the database can) so two batches of one difficulty
    commit one after the other, each seeing the other's puzzles.
    """
    rows = [puzzle_row(m) for m in made]  # canonical keys: computed before taking locks
    with transaction.atomic():
        target = PoolTarget.objects.select_for_update().get(difficulty=difficulty)
        space = room(target, Puzzle.objects.fresh(difficulty).count())
        kept = rows[:space]
        stored = len(kept) - len(insert_new(kept))
    return Stored(stored, space - stored)


# Refill rounds ------------------------------------------------------------------------

# The batch task, sent by name: the pool's rules do not import the task module.
REFILL_TASK = "puzzles.pools.tasks.refill_pool"


def start_refill(
    difficulty: str, stock: int, target: PoolTarget | None = None, *, top_up: bool = False
) -> bool:
    """Start a refill round for a difficulty below its low water mark (below its high one
    with top_up, while the site is quiet), unless one is under way. Safe to call from a
    request: with Redis down or slow it gives up within a second, says so, and does not
    try again for a while (beat repairs the pool later)."""
    target = target or targets()[difficulty]
    if stock >= (target.high if top_up else target.low):
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
    return _send_batch(lock)


def start_refills() -> dict[str, int]:
    """Start a round for each difficulty below its low water mark, or, while the site is
    quiet (traffic.py), below its high one, and without a live round (a round whose lock
    expired is over): how many each round is to make. Pools topped up in quiet time meet
    a surge full, and the workers need not make puzzles while it lasts."""
    stock = fresh_counts()
    top_up = traffic.site_is_quiet()
    return {
        difficulty: room(target, stock[difficulty])
        for difficulty, target in targets().items()
        if start_refill(difficulty, stock[difficulty], target, top_up=top_up)
    }


def _send_batch(lock: RefillLock) -> bool:
    """Send the round's next batch; let go of the lock if the broker cannot take it."""
    if broker.enqueue(REFILL_TASK, lock.difficulty, lock.token):
        return True
    lock.release()
    return False


def make_batch(difficulty: str, token: str, seed: str) -> int:
    """One batch of a round: make puzzles up to the batch size and the pool's room, store
    them, and send the next batch while the pool has room. How many were stored.

    Before each puzzle the batch looks whether the site is busy (traffic.py): if so, and
    the pool with what the batch made is at its low mark or above, it yields: stores what
    it made and ends the round, letting go of the lock (the rest is made at the next quiet
    moment, or by the next round once the pool falls below its low mark). A tier made
    ahead only (master, extreme) yields below its low mark too: no request waits for one
    (new_game falls back to a puzzle of the tier already served), and making one takes a
    core for seconds. That round keeps its lock until it lapses (REFILL_LOCK_SECONDS), so
    that the new games of a busy site, each finding the pool low, do not start a round
    apiece; the first round after that looks again.

    The round's lock goes from batch to batch with its token, renewed after every puzzle;
    a batch whose lock is free takes it (the first batch of a round sent on its own, or one
    delivered again after its worker died). A batch whose round lost the lock (another
    round holds it) still stores its puzzles, trimmed at the high mark, and stops there.
    Seeded by `seed` (the task id): a batch delivered again makes the same puzzles, which
    the canonical key refuses to store twice.
    """
    lock = RefillLock(difficulty, token)
    held = lock.claim()
    target = targets()[difficulty]
    count = min(target.batch_size, room(target, Puzzle.objects.fresh(difficulty).count()))
    if count == 0:
        if held:
            lock.release()
        return 0
    rng = random.Random(seed)
    log.info("making %d %s puzzles", count, difficulty)
    began, made = time.monotonic(), []
    waits = False  # yielded below the low mark: the round's lock lapses, not let go
    while len(made) < count:
        if yields(difficulty, target, len(made)):
            log.info("%s refill yields after %d puzzles: the site is busy", difficulty, len(made))
            waits = difficulty in MADE_AHEAD
            break
        made.append(make(difficulty, rng))
        held = held and lock.renew()
    stored = store_for_pool(difficulty, made)
    seconds = time.monotonic() - began
    if made:  # a batch that yielded before its first puzzle is no batch in the tallies
        activity.record_batch(difficulty, stored.count, seconds)
    log.info("stored %d %s puzzles in %.1f s", stored.count, difficulty, seconds)
    if stored.room == 0 or len(made) < count:
        if held and not (waits and stored.room > 0):
            lock.release()
    elif held and lock.renew():
        _send_batch(lock)
    return stored.count


def yields(difficulty: str, target: PoolTarget, made: int) -> bool:
    """Whether a batch that made that many puzzles so far stops here: the site is busy and
    the pool, with them, is not about to run dry (at its low mark or above), or is of a
    tier no request waits for (MADE_AHEAD: a new game falls back to one already served)."""
    if not traffic.site_is_busy():
        return False
    if difficulty in MADE_AHEAD:
        return True
    return Puzzle.objects.fresh(difficulty).count() + made >= target.low


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

    One statement where the database returns what an UPDATE changed (sql.claim_fresh), at
    every new game of a surge. Concurrent claims never get the same puzzle: rows locked by
    another claim are skipped where the database can (PostgreSQL); SQLite serialises the
    writes.
    """
    if sql.can_claim_in_one():
        return sql.claim_fresh(difficulty, timezone.now())
    with transaction.atomic():  # SQLite before 3.35
        puzzle = Puzzle.objects.fresh(difficulty).without_examples().order_by("id").first()
        if puzzle is None:
            return None
        puzzle.served_at = timezone.now()
        puzzle.save(update_fields=["served_at"])
    return puzzle


def make_and_serve(difficulty: str) -> Puzzle | None:
    """The last resort when the database has nothing suitable: make a puzzle right now.
    None for a tier made ahead only (MADE_AHEAD), which no request waits for."""
    if difficulty in MADE_AHEAD:
        log.warning("no %s puzzle to hand out; not made during a request", difficulty)
        return None
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
