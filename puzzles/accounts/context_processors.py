"""Template context every page gets: the player's preferences (for the theme), and the
owner mark of the page (see owners.py), none on a page kept for anyone."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .owners import is_unowned, owner_mark
from .players import preferences_for


def preferences(request: HttpRequest) -> dict:
    """{"prefs": ...}, loaded only when a template uses it."""
    return {"prefs": SimpleLazyObject(lambda: preferences_for(request))}


def owner(request: HttpRequest) -> dict:
    """{"owner": the page's OwnerMark, or None}."""
    return {"owner": None if is_unowned(request) else owner_mark(request)}
