"""Template context every page gets: the player's preferences (for the theme)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .players import preferences_for


def preferences(request: HttpRequest) -> dict:
    """{"prefs": ...}, loaded only when a template uses it."""
    return {"prefs": SimpleLazyObject(lambda: preferences_for(request))}
