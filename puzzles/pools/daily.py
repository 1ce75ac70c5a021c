"""The daily puzzles: picked once per date and difficulty, the same for everyone."""

from __future__ import annotations

import datetime
import logging

from django.db import IntegrityError, transaction
from django.utils import timezone

from ..models import DailyPuzzle, Difficulty, Puzzle
from .stock import MADE_AHEAD, claim_fresh_puzzle, make_and_serve, start_refill

log = logging.getLogger(__name__)

# Each failed attempt means another process took the puzzle meanwhile: a handful is plenty.
PICK_ATTEMPTS = 5


# The time zones furthest behind and ahead of UTC (Baker Island, Kiribati): between them,
# every date some place on Earth is living.
EARLIEST_OFFSET = datetime.timedelta(hours=-12)
LATEST_OFFSET = datetime.timedelta(hours=14)


def today() -> datetime.date:
    """The date in the site's time zone."""
    return timezone.localdate()


def living_dates(now: datetime.datetime | None = None) -> list[datetime.date]:
    """The dates some time zone is living now, earliest first: two or three of them."""
    now = (now or timezone.now()).astimezone(datetime.UTC)
    first, last = (now + EARLIEST_OFFSET).date(), (now + LATEST_OFFSET).date()
    return [first + datetime.timedelta(days=n) for n in range((last - first).days + 1)]


def latest_living() -> datetime.date:
    """The latest date some time zone is living: no daily after it is out anywhere."""
    return living_dates()[-1]


def _unplayed(difficulty: str) -> Puzzle | None:
    """A puzzle nobody has played and that was never a daily, nor a player's own nor one
    the technique guide shows."""
    return (
        Puzzle.objects.without_examples()
        .filter(difficulty=difficulty, games__isnull=True, dailies__isnull=True)
        .exclude(source=Puzzle.Source.PLAYER)
        .order_by("id")
        .first()
    )


def dailies_of(date: datetime.date) -> dict[str, DailyPuzzle]:
    """The date's daily puzzle for every difficulty, picked now where not picked yet.

    What it guarantees: the result has every difficulty, the same puzzles for every caller,
    each out of the pool (served) and the daily of this date only; a database failure
    raises. The one way a difficulty can be missing is a pick losing PICK_ATTEMPTS races
    in a row (other processes taking its puzzle for another date), which is logged;
    callers treat a missing difficulty as "not available yet", never index blindly. A tier
    made ahead only (stock.MADE_AHEAD) is also missing while its pool is empty and no
    puzzle of it was ever left unplayed: its refill is started, and the pick is made on a
    later call, once the workers have made one.

    Safe to run from several processes at once: the unique (date, difficulty) constraint
    lets one pick win; a losing pick is rolled back whole, its puzzle left in the pool.
    """
    dailies = {
        d.difficulty: d for d in DailyPuzzle.objects.filter(date=date).select_related("puzzle")
    }
    for difficulty in Difficulty.values:
        for _ in range(PICK_ATTEMPTS):
            if difficulty in dailies:
                break
            picked = _pick(date, difficulty)
            if picked is not None:
                dailies[difficulty] = picked
        if difficulty in dailies:
            continue
        if difficulty in MADE_AHEAD:
            log.info("no %s daily for %s yet: none made", difficulty, date)
            start_refill(difficulty, Puzzle.objects.fresh(difficulty).count())
        else:
            log.error("no %s daily for %s after %d attempts", difficulty, date, PICK_ATTEMPTS)
    return dailies


def _pick(date: datetime.date, difficulty: str) -> DailyPuzzle | None:
    """Make a puzzle the date's daily of the difficulty: the one another process picked if
    it got there first, or None if the puzzle chosen was taken by another date meanwhile.

    The puzzle is claimed in the same transaction that records the pick, so a pick that
    fails or dies half-way leaves the puzzle where it was.
    """
    try:
        with transaction.atomic():
            puzzle = (
                claim_fresh_puzzle(difficulty)
                or _unplayed(difficulty)
                or make_and_serve(difficulty)
            )
            if puzzle is None:  # a tier made ahead only, none of it to hand out
                return None
            daily = DailyPuzzle.objects.create(date=date, difficulty=difficulty, puzzle=puzzle)
            if puzzle.served_at is None:
                Puzzle.objects.filter(pk=puzzle.pk).update(served_at=timezone.now())
        return daily
    except IntegrityError:
        return (
            DailyPuzzle.objects.select_related("puzzle")
            .filter(date=date, difficulty=difficulty)
            .first()
        )


def days_around(day: datetime.date, latest: datetime.date) -> dict:
    """For a day's page: the day with dailies before it ("earlier") and after it, up to
    the player's today, `latest` ("later"), and the last 30 days that had them
    ("archive")."""
    out = DailyPuzzle.objects.filter(date__lte=latest)
    dates = out.order_by("-date").values_list("date", flat=True)
    return {
        "earlier": dates.filter(date__lt=day).first(),
        "later": dates.filter(date__gt=day).order_by("date").first(),
        "archive": dates.distinct()[:30],
    }
