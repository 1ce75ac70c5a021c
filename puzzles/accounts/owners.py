"""Whose pages a browser holds. One browser serves several players in turn (a shared
computer, a family's tablet), and what the site keeps in it for offline play (the pages
and game states the service worker keeps, the game records in the browser's storage) must
never be shown to the next one. So every page and every answer of the game API carries an
owner mark: a keyed hash of who the request's player is, that no one can forge or read a
name out of, with when the session runs out and when the mark was given. The page's script
(static/js/game/queue.js) and the service worker (static/js/sw.js) keep what they keep
for one owner, and drop all of it when a page or an answer comes with another owner's mark:
another account logged in over the last, or the last one's session ended elsewhere (a
password change, a log-out on another device, expiry).

One account's sessions share a mark: what it keeps on a device is its own whichever of its
sessions kept it. A session that ended leaves its next page to a guest or nobody, whose mark
differs.
"""

from __future__ import annotations

import datetime
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

from .players import current_player

HEADER = "Sudoku-Owner"
# Asked of the browser on the answer to a log-in, a sign-up and a log-out. "storage" drops
# the browser's storage, the service worker's caches and the worker itself; the next page
# registers the worker again, so nothing is lost but what the previous owner kept, which is
# the point (the page sends that owner's unsent changes before the form goes, see
# static/js/pwa.js). Not "cache": Chromium holds the answer for seconds while it empties its
# whole disk cache, and a page of another owner that the browser's history brings back is
# reloaded by the page itself.
CLEAR_SITE_DATA = '"storage"'


@dataclass(frozen=True)
class OwnerMark:
    mark: str
    expires: int  # when the session runs out, in seconds since 1970
    issued: int  # when the mark was given, in milliseconds since 1970 (the server's clock)

    def header(self) -> str:
        return f"{self.mark}; expires={self.expires}; issued={self.issued}"


def owner_mark(request: HttpRequest) -> OwnerMark:
    """The mark of the request's player as it stands now (a log-in in the view changes
    it); the page and its header give the same one."""
    player = current_player(request)
    if player.user is not None:
        who = f"user:{player.user.pk}"
    else:
        who = f"guest:{player.guest_id}" if player.guest_id else "nobody"
    given = request.__dict__.setdefault("owner_marks", {})
    if who not in given:
        mark = salted_hmac("puzzles.accounts.owners", who).hexdigest()[:32]
        expires = int(_session_expiry(request).timestamp())
        given[who] = OwnerMark(mark, expires, int(time.time() * 1000))
    return given[who]


def _session_expiry(request: HttpRequest) -> datetime.datetime:
    """When the request's session runs out: its stored expiry, or, for a session this
    request changes (saved with a new expiry as the answer goes) or has not stored yet,
    Django's own count from now."""
    session = request.session
    stored = getattr(session, "stored_expiry", None)
    if stored is not None and not session.modified:
        return stored
    return session.get_expiry_date()


def unowned(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page whose copy is kept for anyone who uses the device (the offline page): it
    carries no owner mark, and its template shows no one's name."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        request.unowned = True
        return view(request, *args, **kwargs)

    return wrapped


def is_unowned(request: HttpRequest) -> bool:
    return getattr(request, "unowned", False)


@receiver(user_logged_in)
@receiver(user_logged_out)
def _owner_changes(sender, request: HttpRequest | None, **kwargs) -> None:
    if request is not None:
        request.owner_changed = True


class OwnerMarkMiddleware:
    """Marks every page and every answer of the game API with its owner, and asks the
    browser to drop what it keeps when the request logged someone in or out."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, "owner_changed", False):
            response["Clear-Site-Data"] = CLEAR_SITE_DATA
        if not is_unowned(request) and _kept_by_browsers(request, response):
            response[HEADER] = owner_mark(request).header()
        return response


def _kept_by_browsers(request: HttpRequest, response: HttpResponse) -> bool:
    """Pages and game states are what the service worker keeps; other answers (static
    files, health checks, metrics) need no mark, nor the session read it takes, and a
    server error is kept by no one (its database may be what failed)."""
    if response.status_code >= 500:
        return False
    html = response.get("Content-Type", "").startswith("text/html")
    return html or request.path.startswith("/api/")
