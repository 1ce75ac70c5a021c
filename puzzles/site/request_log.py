"""One log line per request, with its latency, the client and the user, and the same
latency in the metrics' histogram; the request's id on every line logged while it runs and
in the answer's X-Request-ID. First in the middleware, so the time covers everything the
site does for the request (redirects to HTTPS and static files included) and every line
written for it carries its id."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

from sudokusite.logs import current_request_id, request_id_for

from ..accounts.limits import client_ip
from .metrics import REQUEST_SECONDS

log = logging.getLogger("puzzles.requests")

# Label values come from a short list, whatever a client sends: any other method is "other".
METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}


def view_name(request: HttpRequest) -> str:
    """The view that answered, for a label that stays one of a few (not the path, which
    holds ids): "static" for static files, "shed" for a request turned away under load,
    "unmatched" when no URL matched."""
    if getattr(request, "shed", False):
        return "shed"  # turned away before any URL was matched (site/shedding.py)
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return match.view_name or match._func_path
    return "static" if request.path.startswith("/" + settings.STATIC_URL) else "unmatched"


def user_of(request: HttpRequest) -> int | str:
    """Who made the request: the account's id, "guest", or "-" when the request never
    asked (static files, health checks, metrics): finding out would cost a read of the
    session that nothing else needed."""
    user = getattr(request, "user", None)
    if user is None or getattr(user, "_wrapped", None) is empty:
        return "-"
    return user.pk if user.is_authenticated else "guest"


@receiver(request_finished)
def _request_done(sender: object, **kwargs: object) -> None:
    """The answer is sent: lines written from now on are no longer this request's."""
    current_request_id.set(None)


class RequestLogMiddleware:
    """Logs "GET /daily/ 200 12.3 ms from 203.0.113.9 user 42" (with the fields apart in
    the JSON format), observes the request's latency and answers with the request's id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Set until the request is finished, not only while the middleware runs: Django logs
        # a 4xx answer's warning after the last middleware is done.
        request_id = request_id_for(request.headers.get("X-Request-ID"))
        current_request_id.set(request_id)
        response = self.serve(request)
        response["X-Request-ID"] = request_id
        return response

    def serve(self, request: HttpRequest) -> HttpResponse:
        began = time.perf_counter()
        response = self.get_response(request)
        seconds = time.perf_counter() - began
        status = response.status_code
        method = request.method if request.method in METHODS else "other"
        REQUEST_SECONDS.labels(method, view_name(request), str(status)).observe(seconds)
        milliseconds = round(seconds * 1000, 1)
        client, user = client_ip(request), user_of(request)
        log.info(
            "%s %s %s %.1f ms from %s user %s",
            request.method,
            request.path,
            status,
            milliseconds,
            client,
            user,
            extra={
                "method": request.method,
                "path": request.path,
                "status": status,
                "duration_ms": milliseconds,
                "client": client,
                "user": user,
            },
        )
        return response
