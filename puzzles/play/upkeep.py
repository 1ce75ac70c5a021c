"""What the database keeps that nobody needs any more, removed once a day (the beat's
`prune-every-night`; tasks.prune):

- expired sessions, as `manage.py clearsessions` removes them: a guest's session lasts a
  year from its last change (SESSION_COOKIE_AGE), and the row stays after that until
  removed;
- receipts of games no longer in play: a receipt keeps a batched change's id only so that
  a batch sent again is stored once, and a batch sent to a game over is answered with its
  state before any id is looked up. A game that ends by a batch or is given up drops its
  own at once; one solved by a single move, a hint's Apply or a reveal left them behind.

Both go in slices of SLICE rows, each its own short transaction, so that a large backlog
never holds a lock long or fills the log at once.
"""

from __future__ import annotations

from django.contrib.sessions.models import Session
from django.utils import timezone

from ..models import ChangeReceipt, Game

SLICE = 5_000


def prune() -> dict[str, int]:
    """Remove expired sessions and receipts of ended games; how many of each."""
    now = timezone.now()
    sessions = _in_slices(Session.objects.filter(expire_date__lt=now), "session_key")
    ended = ChangeReceipt.objects.exclude(game__status=Game.Status.PLAYING)
    return {"sessions": sessions, "receipts": _in_slices(ended, "pk")}


def _in_slices(rows, key: str) -> int:
    removed = 0
    while True:
        keys = list(rows.values_list(key, flat=True)[:SLICE])
        if not keys:
            return removed
        removed += rows.model.objects.filter(**{f"{key}__in": keys}).delete()[0]
