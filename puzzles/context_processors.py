"""Template context every page gets: the player's preferences (for the theme)."""

from __future__ import annotations

from django.http import HttpRequest

from .players import preferences_for


def preferences(request: HttpRequest) -> dict:
    """{"prefs": ...}, loaded only when a template uses it."""
    cached = {}

    def load():
        if "prefs" not in cached:
            cached["prefs"] = preferences_for(request)
        return cached["prefs"]

    return {"prefs": _Lazy(load)}


class _Lazy:
    """Attribute access loads the preferences once."""

    def __init__(self, load):
        self._load = load

    def __getattr__(self, name: str):
        return getattr(self._load(), name)
