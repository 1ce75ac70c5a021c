"""A newcomer's pages made once and served many times: the home page of a browser with no
session (no account, no game, no setting, no message kept) is the same for every newcomer
of a day and time zone but for the CSRF token and the owner mark's times. Under a surge of
new players (a daily's release, a shared link) it is rendered once every KEEP_SECONDS by
each web process and filled in for each request, instead of once a request.

What is kept is the page with slots where the token and the times go; a request fills them
with its own (the token through Django's `get_token`, which also sets the CSRF cookie as
a render would; the owner mark through `owner_mark`, which the answer's header repeats).
A page is kept KEEP_SECONDS at most: a daily picked meanwhile shows within that time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

from ..accounts.owners import OwnerMark, is_unowned, owner_mark

KEEP_SECONDS = 30.0
MOST_KEPT = 500  # pages kept at most (one a day and zone): past it all are dropped
# Slots of letters and digits only: the template escapes nothing in them.
CSRF_SLOT = "csrfslot7f3a9c1e5b"
EXPIRES_SLOT = "8880000000000001"
ISSUED_SLOT = "8880000000000002"

_kept: dict[tuple, tuple[float, str]] = {}
_lock = threading.Lock()


def is_newcomer(request: HttpRequest) -> bool:
    """A browser with no session and no message waiting: nothing of its own on the page."""
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies


def page(
    request: HttpRequest, key: tuple, template: str, context: Callable[[], dict]
) -> HttpResponse:
    """The newcomer's page `template` for `key` (what it depends on: the day, the zone),
    rendered from `context()` when none is kept or it is older than KEEP_SECONDS, with
    this request's token and owner mark filled in. Kept apart by language and address (the
    switcher and the hreflang links name the page)."""
    key = (template, translation.get_language(), request.get_full_path(), *key)
    now = time.monotonic()
    with _lock:
        found = _kept.get(key)
    if found is None or found[0] <= now:
        html = _render(request, template, context())
        with _lock:
            if len(_kept) >= MOST_KEPT:
                _kept.clear()
            _kept[key] = (now + KEEP_SECONDS, html)
    else:
        html = found[1]
    html = html.replace(CSRF_SLOT, get_token(request))
    if not is_unowned(request):
        mark = owner_mark(request)
        html = html.replace(EXPIRES_SLOT, str(mark.expires)).replace(ISSUED_SLOT, str(mark.issued))
    return HttpResponse(html)


def _render(request: HttpRequest, template: str, context: dict) -> str:
    """The page with slots for the token and the owner mark's times (a view's context
    wins over the context processors')."""
    slots: dict = {"csrf_token": CSRF_SLOT}
    if not is_unowned(request):
        mark = owner_mark(request).mark
        slots["owner"] = OwnerMark(mark, int(EXPIRES_SLOT), int(ISSUED_SLOT))
    return render_to_string(template, context | slots, request)


def forget() -> None:
    """Drop every page kept (tests, and a process that must show a change at once)."""
    with _lock:
        _kept.clear()
