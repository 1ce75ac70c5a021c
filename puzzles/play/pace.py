"""The pace of a game's changes: how fast a person makes them, and what a game whose changes
come faster meets. Changes to the board (moves, undos, redos) draw on an allowance that a
script runs out of (TooFast, 429); digits draw on one of their own, and a game whose digits
came faster than a person places them is hurried (kept, not ranked). A page's batch places
its changes at the moments the device stamped them (`moments`)."""

from __future__ import annotations

import datetime
import math

from django.utils.translation import gettext_lazy as _

from ..models import DIGIT_BURST, DIGIT_RATE, Game
from .board import digits_put
from .errors import TooFast

# The pace of changes to a board (moves, undos, redos): a burst of MOVE_BURST at once (a
# whole batch of changes queued offline), then MOVE_RATE a second. A fast human places a
# digit or a note every half second or so; a script is slowed to this pace.
MOVE_BURST = 200
MOVE_RATE = 5
TOO_FAST = _("Too many changes to this game at once; wait a moment and send them again.")


def changes_fields(game: Game, now: datetime.datetime) -> dict:
    """One change taken from the game's allowance, which refills at MOVE_RATE a second up
    to MOVE_BURST; TooFast when it has less than one. Every change to the board made by a
    call draws here, and every change of a batch, stored or refused."""
    allowance = float(MOVE_BURST)
    if game.move_allowance is not None and game.allowance_at is not None:
        rested = max(0.0, (now - game.allowance_at).total_seconds())
        allowance = min(allowance, game.move_allowance + rested * MOVE_RATE)
    if allowance < 1:
        raise TooFast(TOO_FAST, retry_after=math.ceil((1 - allowance) / MOVE_RATE))
    game.move_allowance, game.allowance_at = allowance - 1, now
    return {"move_allowance": game.move_allowance, "allowance_at": now}


def digit_fields(game: Game, changes: list[dict], side: str, now: datetime.datetime) -> dict:
    """The digits a change puts on the board taken from the game's digit allowance, which
    refills at DIGIT_RATE a second up to DIGIT_BURST: a game whose digits ran past it came
    faster than a person places them, and is hurried from then on (not ranked)."""
    placed = digits_put(changes, side)
    if not placed:
        return {}
    allowance = float(DIGIT_BURST)
    if game.digit_allowance is not None and game.digit_allowance_at is not None:
        rested = max(0.0, (now - game.digit_allowance_at).total_seconds())
        allowance = min(allowance, game.digit_allowance + rested * DIGIT_RATE)
    game.digit_allowance, game.digit_allowance_at = allowance - placed, now
    fields = {"digit_allowance": game.digit_allowance, "digit_allowance_at": now}
    if game.digit_allowance < 0 and not game.hurried:
        game.hurried = True
        fields["hurried"] = True
    return fields


def moments(game: Game, changes: list[dict], now: datetime.datetime) -> list[datetime.datetime]:
    """When each change of a batch was made, by the server's clock, for the digits' pace: a
    page held back (offline, or asked to wait) sends at once what was made over minutes.
    The device's stamps (`at`, its own clock) give the gaps between the changes, the last
    made now; none is placed before the game's last request, so stamps that claim more
    time than went by spread nothing. A batch without every stamp was made now."""
    stamps = [change.get("at") for change in changes]
    if not stamps or any(stamp is None for stamp in stamps):
        return [now] * len(changes)
    earliest = game.seen_at
    if game.digit_allowance_at is not None:
        earliest = max(earliest, game.digit_allowance_at)
    span = max(0.0, (now - earliest).total_seconds() * 1000)
    made, last = [], stamps[-1]
    for stamp in stamps:
        before = min(max(0.0, last - stamp), span)  # ms before now, within the time gone by
        moment = now - datetime.timedelta(milliseconds=before)
        earliest = min(now, max(moment, earliest))  # in order, never before the last one
        made.append(earliest)
    return made
