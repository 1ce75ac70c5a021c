"""One log line per request, with its latency, and the same latency in the metrics'
histogram. First in the middleware, so the time covers everything the site does for the
request (redirects to HTTPS and static files included)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from .metrics import REQUEST_SECONDS

log = logging.getLogger("puzzles.requests")

# Label values come from a short list, whatever a client sends: any other method is "other".
METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}


def view_name(request: HttpRequest) -> str:
    """The view that answered, for a label that stays one of a few (not the path, which
    holds ids): "static" for static files, "unmatched" when no URL matched."""
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return match.view_name or match._func_path
    return "static" if request.path.startswith("/" + settings.STATIC_URL) else "unmatched"


class RequestLogMiddleware:
    """Logs "GET /daily/ 200 12.3 ms" (with the fields apart in the JSON format) and
    observes the request's latency."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        began = time.perf_counter()
        response = self.get_response(request)
        seconds = time.perf_counter() - began
        status = response.status_code
        method = request.method if request.method in METHODS else "other"
        REQUEST_SECONDS.labels(method, view_name(request), str(status)).observe(seconds)
        milliseconds = round(seconds * 1000, 1)
        log.info(
            "%s %s %s %.1f ms",
            request.method,
            request.path,
            status,
            milliseconds,
            extra={
                "method": request.method,
                "path": request.path,
                "status": status,
                "duration_ms": milliseconds,
            },
        )
        return response
