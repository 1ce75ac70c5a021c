"""The site's own pages outside any concern: robots.txt, the favicon and the error pages."""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template import loader
from django.templatetags.static import static
from django.views.decorators.http import require_safe


def server_error(request: HttpRequest) -> HttpResponse:
    """A 500, except that a database that does not answer is a 503 to retry shortly."""
    error = sys.exc_info()[1]
    unavailable = isinstance(error, (OperationalError, InterfaceError))
    status = 503 if unavailable else 500
    if request.path.startswith("/api/"):
        message = (
            "The database is not answering; try again in a few seconds."
            if unavailable
            else "Something went wrong on our side; your game is saved."
        )
        response = JsonResponse({"error": message}, status=status)
    else:
        page = "503.html" if unavailable else "500.html"
        response = HttpResponse(loader.get_template(page).render(), status=status)
    if unavailable:
        response["Retry-After"] = "5"
    return response


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    """Keep crawlers out of the API and the admin."""
    lines = ["User-agent: *", "Disallow: /api/", "Disallow: /admin/", "Disallow: /games/"]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain")


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on pages that name no icon: the site's icon."""
    return redirect(static("img/favicon.svg"), permanent=True)
