"""The daily puzzles: picked once per date and difficulty, the same for everyone."""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import DailyPuzzle, Difficulty, Puzzle
from .pool import claim_fresh_puzzle, make_and_serve


def today() -> datetime.date:
    """The date in the site's time zone."""
    return timezone.localdate()


def _unplayed(difficulty: str) -> Puzzle | None:
    """A puzzle nobody has played and that was never a daily."""
    return (
        Puzzle.objects.filter(difficulty=difficulty, games__isnull=True, dailies__isnull=True)
        .order_by("id")
        .first()
    )


def ensure_daily(date: datetime.date) -> dict[str, DailyPuzzle]:
    """The date's daily puzzle per difficulty, picked now for those not picked yet.

    Safe to run from several processes at once: the unique (date, difficulty) constraint
    lets one pick win, and a losing pick's puzzle goes back to the pool.
    """
    dailies = {
        d.difficulty: d for d in DailyPuzzle.objects.filter(date=date).select_related("puzzle")
    }
    for difficulty in Difficulty.values:
        if difficulty in dailies:
            continue
        puzzle = (
            claim_fresh_puzzle(difficulty) or _unplayed(difficulty) or make_and_serve(difficulty)
        )
        try:
            with transaction.atomic():
                dailies[difficulty] = DailyPuzzle.objects.create(
                    date=date, difficulty=difficulty, puzzle=puzzle
                )
            if puzzle.served_at is None:
                Puzzle.objects.filter(pk=puzzle.pk).update(served_at=timezone.now())
        except IntegrityError:
            dailies[difficulty] = DailyPuzzle.objects.select_related("puzzle").get(
                date=date, difficulty=difficulty
            )
            if not puzzle.games.exists() and not puzzle.dailies.exists():
                Puzzle.objects.filter(pk=puzzle.pk).update(served_at=None)
    return dailies
