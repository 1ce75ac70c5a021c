"""What a game refuses, and why: each error carries the HTTP status the API answers with."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _


class GameError(Exception):
    """A request the game cannot take; status is the HTTP status to answer with."""

    status = 400


class Conflict(GameError):
    """The request does not fit the game's current state (stale version, game over)."""

    status = 409


class NotFound(GameError):
    status = 404


class Unavailable(GameError):
    """Something the request needs cannot be had right now; worth a retry."""

    status = 503


class TooFast(GameError):
    """More than a limit allows; worth a retry after `retry_after` seconds."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


STALE = _("The game changed in another window; here is its current state.")
OVER = _("This game is over.")
SET_ASIDE = _(
    "This game was set aside when you logged in: your account's game on this puzzle is "
    "the one to play."
)
