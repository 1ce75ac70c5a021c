"""Response rules for the whole site: a Content-Security-Policy on every response, JSON
for every error under /api/, whichever part of Django answered it, and the health checks
answered whatever the Host."""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus

from django.conf import settings
from django.core.exceptions import (
    DisallowedHost,
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import resolve
from django.utils.translation import gettext as _

from ..pools import traffic

API_PREFIX = "/api/"

# Scripts, styles, images and requests from the site itself only: no inline script or
# style, no plugins, no framing, forms posting back to the site only.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


class ContentSecurityPolicyMiddleware:
    """Sends the site's Content-Security-Policy with every response (static files too)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response


# What a load balancer or a monitor asks for by the machine's address: the health checks,
# and Prometheus's scrape (behind its token).
HEALTH_PATHS = ("/healthz", "/healthz/workers")
ANY_HOST_PATHS = (*HEALTH_PATHS, "/metrics")


def host_allowed(request: HttpRequest) -> bool:
    """Whether the request's Host is one of ALLOWED_HOSTS (Django answers 400 otherwise)."""
    try:
        request.get_host()
    except DisallowedHost:
        return False
    return True


class HealthChecksAnyHostMiddleware:
    """A load balancer's or a monitor's health check names the machine by its address
    (`Host: 10.0.0.5`), which is not one of the site's names: the health checks answer it
    here, before CommonMiddleware refuses the host. They tell such a request what they tell
    anyone (a monitor's address or token still opens the details). Prometheus's scrape of
    /metrics, by each machine's address, is answered here too, to the token's holder only;
    every other path still refuses an unknown host."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info not in ANY_HOST_PATHS or host_allowed(request):
            return self.get_response(request)
        match = resolve(request.path_info)
        request.resolver_match = match
        return match.func(request, *match.args, **match.kwargs)


class ClientMistakeFilter(logging.Filter):
    """Django logs a client's bad request as an ERROR with its traceback when it raised a
    SuspiciousOperation (a refused Host, a body too large, too many fields...), and as a
    WARNING with its traceback when the body could not be read. Either is the client's
    mistake or a scanner's, nothing for the operator to fix: one WARNING line, no
    traceback. A server error (5xx) keeps its level and its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True


def too_large_message() -> str:
    return _("The body is too large: at most %(bytes)d bytes.") % {
        "bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    }


def error_message(request: HttpRequest, response: HttpResponse) -> str:
    """Words for an error status that came without any."""
    status = response.status_code
    if status == 405:
        allowed = response.headers.get("Allow", "")
        return f"{request.method} is not allowed here; use {allowed or 'another method'}."
    messages = {
        400: _("The request could not be read."),
        403: _("You may not do that."),
        404: _("No such URL."),
        413: too_large_message(),
        429: _("Too many requests; wait a little and try again."),
    }
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    return messages.get(status, f"{phrase}.")


class ApiErrorsMiddleware:
    """Under /api/, an error raised by a view becomes a JSON answer with a message, and an
    error answered in HTML (by Django's URL resolver, a method check, a CSRF check, a
    handler) is answered again as JSON with the same status and headers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not is_api(request) or response.status_code < 400 or _is_json(response):
            return response
        answer = JsonResponse(
            {"error": error_message(request, response)}, status=response.status_code
        )
        for header, value in response.headers.items():
            if header.lower() not in ("content-type", "content-length"):
                answer.headers[header] = value
        return answer

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_api(request):
            return None
        if isinstance(exception, RequestDataTooBig):
            return JsonResponse({"error": too_large_message()}, status=413)
        if isinstance(exception, Http404):
            return JsonResponse({"error": str(exception) or _("No such URL.")}, status=404)
        if isinstance(exception, PermissionDenied):
            return JsonResponse({"error": str(exception) or _("You may not do that.")}, status=403)
        if isinstance(exception, SuspiciousOperation):
            return JsonResponse({"error": _("The request could not be read.")}, status=400)
        return None  # a 500 or 503: handler500 answers JSON under /api/


def _is_json(response: HttpResponse) -> bool:
    return response.headers.get("Content-Type", "").startswith("application/json")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a JSON 403 under /api/, Django's page elsewhere."""
    if is_api(request):
        message = (
            "CSRF check failed: send the X-CSRFToken header with the token of the page "
            "(its csrf-token meta tag) and the csrftoken cookie."
        )
        return JsonResponse({"error": message, "reason": reason}, status=403)
    from django.views.csrf import csrf_failure as page

    return page(request, reason)


class CountRequestsMiddleware:
    """Counts every request that reaches it for the refills (puzzles/pools/traffic.py):
    shed ones too (it is placed before the shedding), but not the health checks and the
    scrape: a monitor is not a player."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info not in ANY_HOST_PATHS:
            traffic.count_request()
        return self.get_response(request)
