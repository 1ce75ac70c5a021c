"""The site's own pages outside any concern: robots.txt, the favicon, the error pages, and
what lets the site be installed and played offline (the service worker, the web app
manifest and the offline page)."""

from __future__ import annotations

import functools
import sys

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template import loader
from django.templatetags.static import static
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from ..accounts.owners import unowned
from ..accounts.players import preferences_for

# Why the site answers 503: in the API's words and in the page's.
UNAVAILABLE = {
    "database": (
        gettext_lazy("The database is not answering; try again in a few seconds."),
        gettext_lazy("Our database is not answering right now."),
    ),
    "busy": (
        gettext_lazy("The site is too busy to answer now; try again in %(seconds)d seconds."),
        gettext_lazy("The site is very busy right now."),
    ),
}


def unavailable(request: HttpRequest, reason: str, *, retry_after: int) -> HttpResponse:
    """The site's 503, for a reason of UNAVAILABLE: JSON with the error and retry_after
    under /api/, the "Back in a moment" page elsewhere (which tries again by itself), and
    Retry-After on both."""
    api, page = UNAVAILABLE[reason]
    if request.path.startswith("/api/"):
        body = {"error": api % {"seconds": retry_after}, "retry_after": retry_after}
        response: HttpResponse = JsonResponse(body, status=503)
    else:
        text = loader.get_template("503.html").render({"reason": page})
        response = HttpResponse(text, status=503)
    response["Retry-After"] = str(retry_after)
    # Said here: a shed answer leaves before CommonMiddleware, which would say it.
    response["Content-Length"] = str(len(response.content))
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """A 500, except that a database that does not answer is a 503 to retry shortly."""
    error = sys.exc_info()[1]
    if isinstance(error, (OperationalError, InterfaceError)):
        return unavailable(request, "database", retry_after=5)
    if request.path.startswith("/api/"):
        message = _("Something went wrong on our side; your game is saved.")
        return JsonResponse({"error": message}, status=500)
    return HttpResponse(loader.get_template("500.html").render(), status=500)


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    """Keep crawlers out of the API and the admin; name the sitemap."""
    lines = ["User-agent: *", "Disallow: /api/", "Disallow: /admin/", "Disallow: /games/"]
    lines.append(f"Sitemap: {request.build_absolute_uri('/sitemap.xml')}")
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain")


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on pages that name no icon: the site's icon."""
    return redirect(static("img/favicon.svg"), permanent=True)


@functools.cache
def _service_worker_source() -> str:
    found = finders.find("js/sw.js")
    if found:
        with open(found, encoding="utf-8") as source:
            return source.read()
    with staticfiles_storage.open("js/sw.js") as source:
        return source.read().decode()


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: the service worker, served from the root so that its scope is the whole
    site (from /static/ it could only cover /static/). Browsers check it for a new version
    on every visit; no-cache makes that check reach the server."""
    return HttpResponse(_service_worker_source(), content_type="text/javascript")


# The installed app's splash (background_color) and bar (theme_color), light and dark.
APP_COLORS = {
    "light": {"background_color": "#ffffff", "theme_color": "#3454d1"},
    "dark": {"background_color": "#0f1320", "theme_color": "#0f1320"},
}


def app_scheme(request: HttpRequest) -> str:
    """Light or dark: the player's theme setting, or when it follows the system, the
    system's as the browser tells it (Sec-CH-Prefers-Color-Scheme, which every page asks
    for); light when it does not."""
    theme = preferences_for(request).theme
    if theme in APP_COLORS:
        return theme
    hint = request.headers.get("Sec-CH-Prefers-Color-Scheme", "").strip('"')
    return "dark" if hint == "dark" else "light"


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """/manifest.webmanifest: what a phone needs to add the site to its home screen, its
    splash in the player's theme (the page asks for it with the player's cookie)."""
    icons = [
        {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("img/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    body = {
        "name": "Sudoku",
        "short_name": "Sudoku",
        "description": _("Daily Sudoku puzzles, hints that teach, and play that goes on offline."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        **APP_COLORS[app_scheme(request)],
        "icons": icons,
    }
    response = JsonResponse(body)
    response["Content-Type"] = "application/manifest+json"
    patch_vary_headers(response, ["Cookie", "Sec-CH-Prefers-Color-Scheme"])
    return response


@require_safe
@unowned
def offline(request: HttpRequest) -> HttpResponse:
    """/offline/: the page the service worker shows for a page it has not kept while there
    is no network; its script lists the games kept on this device. The worker keeps one
    copy for everyone who uses the device: it is nobody's."""
    return render(request, "offline.html")
