"""The player's language as the player chose it: the account's setting, then the choice the
switcher or the settings page left in a cookie, then the browser's Accept-Language
(puzzles/site/languages.py reads it for every page without a language prefix)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import translate_url
from django.utils import translation
from django.utils.translation import trans_real

from .players import preferences_for


def supported(code: str | None) -> str | None:
    """The shipped language a code names (`de-AT` gives `de`), or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def from_accept_language(request: HttpRequest) -> str | None:
    """The first shipped language of the request's Accept-Language, or None."""
    header = request.headers.get("Accept-Language", "")
    for code, _quality in trans_real.parse_accept_lang_header(header):
        if code == "*":
            break
        if found := supported(code):
            return found
    return None


def chosen(request: HttpRequest) -> str:
    """The language a page without a prefix should be in: the account's setting, then the
    switcher's cookie, then Accept-Language, then English."""
    user = getattr(request, "user", None)
    if (
        user is not None
        and user.is_authenticated
        and (found := supported(preferences_for(request).language))
    ):
        return found
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return supported(cookie) or from_accept_language(request) or settings.LANGUAGE_CODE


def kept(request: HttpRequest, code: str, path: str) -> HttpResponseRedirect:
    """After the settings page saved a language (empty: the browser's): back to `path` in
    it, the switcher's cookie set to it, or dropped for the browser's to rule again."""
    response: HttpResponse
    if supported(code):
        response = HttpResponseRedirect(translate_url(path, supported(code)))
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            supported(code),
            max_age=settings.LANGUAGE_COOKIE_AGE,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
        return response
    with translation.override(translation.get_language_from_path(path) or "en"):
        response = HttpResponseRedirect(translate_url(path, settings.LANGUAGE_CODE))
    response.delete_cookie(
        settings.LANGUAGE_COOKIE_NAME, samesite=settings.LANGUAGE_COOKIE_SAMESITE
    )
    return response
