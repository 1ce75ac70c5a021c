"""The player's language: which one a request is answered in, the switcher's choice kept,
and the page's addresses in the other languages.

A page's language is its URL's prefix (`/de/...`); English pages have none, as on
sudoku.com. A page asked for without a prefix is sent on to the prefixed address of the
player's language when that is not English: the account's setting first, then the choice
the switcher left in a cookie, then the browser's `Accept-Language`. An API request
(`/api/...`) has no prefix: it is answered in the language its `Accept-Language` names
first (the page sends its own), so its error messages read as the page does.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.locale import LocaleMiddleware
from django.urls import translate_url
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from ..accounts.languages import chosen, from_accept_language, supported
from ..accounts.players import preferences_for
from .middleware import API_PREFIX

# Paths never sent on to a prefixed address: not pages, or pages of one language.
UNPREFIXED = (API_PREFIX, "/static/", "/admin/", "/healthz", "/metrics", "/i18n/", "/sw.js")


class LanguageMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, with the choice above for pages without a prefix and the
    request's own Accept-Language for the API."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        path = request.path_info
        language = translation.get_language_from_path(path)
        if language is None and request.method in ("GET", "HEAD") and not _unprefixed(path):
            translation.activate(settings.LANGUAGE_CODE)  # the address read as English's
            wanted = chosen(request)
            if wanted != settings.LANGUAGE_CODE:
                target = translate_url(request.get_full_path(), wanted)
                if target != request.get_full_path():
                    redirect = HttpResponseRedirect(target)
                    patch_vary_headers(redirect, ("Accept-Language", "Cookie"))
                    return redirect
        translation.activate(language or settings.LANGUAGE_CODE)
        request.LANGUAGE_CODE = translation.get_language()
        return None

    def process_view(self, request: HttpRequest, *args: object) -> None:
        """An API call, its address read as English's, is answered in its own language."""
        if request.path_info.startswith(API_PREFIX) and (found := from_accept_language(request)):
            translation.activate(found)
            request.LANGUAGE_CODE = found

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        response = super().process_response(request, response)
        if translation.get_language_from_path(request.path_info) is None:
            patch_vary_headers(response, ("Cookie",))
        return response


def _unprefixed(path: str) -> bool:
    return path.startswith(UNPREFIXED) or path in ("/robots.txt", "/favicon.ico", "/sitemap.xml")


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The switcher: Django's set_language (the cookie, and back to the same page in the
    chosen language), and for a signed-in player the account's setting too."""
    # The page it came from is read in its own language, as translate_url needs.
    here = translation.get_language_from_path(request.POST.get("next", ""))
    with translation.override(here or settings.LANGUAGE_CODE):
        response = set_language(request)
    code = supported(request.POST.get("language"))
    user = request.user
    if code is not None and user.is_authenticated:
        prefs = preferences_for(request)
        if prefs.language != code:
            prefs.language = code
            prefs.save(update_fields=["language"])
    return response


def in_language(path: str, code: str) -> str:
    """A page's path in another language: its language prefix swapped for that language's
    (none for English). The paths are the same in every language, so no URL is resolved
    and reversed again, as `translate_url` would (a test checks both agree on every page)."""
    if translation.get_language_from_path(path) is not None:
        path = path[len(path.split("/", 2)[1]) + 1 :] or "/"
    return path if code == settings.LANGUAGE_CODE else f"/{code}{path}"


def alternates(request: HttpRequest) -> dict:
    """The page's address in each shipped language, for hreflang links and the switcher,
    worked out only when a template uses them."""

    def links() -> list[dict]:
        if request.resolver_match is None or _unprefixed(request.path_info):
            return []
        here = request.get_full_path()
        current = translation.get_language()
        found = []
        for code, name in settings.LANGUAGES:
            path = in_language(here, code)
            found.append(
                {
                    "code": code,
                    "name": name,
                    "path": path,
                    "url": request.build_absolute_uri(path),
                    "current": code == current,
                }
            )
        return found

    return {"language_links": SimpleLazyObject(links)}
