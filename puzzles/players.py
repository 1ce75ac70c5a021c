"""Who is playing: a signed-in user, or a guest known by an id kept in their session.
Guests' games move to their account when they sign up or log in."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.db.models import Q, QuerySet
from django.dispatch import receiver
from django.http import HttpRequest

from .models import Game, Preferences

GUEST_KEY = "guest_id"
RANK = {Game.Status.SOLVED: 2, Game.Status.GAVE_UP: 1, Game.Status.PLAYING: 0}


def _further(game: Game) -> tuple:
    """Which of two games on one puzzle to keep: solved beats given up beats playing; a
    clean solve beats an assisted one, then the faster; else the more recent."""
    speed = -game.active_seconds if game.clean else 0
    return (RANK[game.status], game.clean, speed, game.updated_at)


@dataclass(frozen=True)
class Player:
    """The owner of games: exactly one of user and guest_id is set."""

    user: object | None = None
    guest_id: str | None = None

    def owns(self) -> Q:
        """The filter for this player's games."""
        return Q(user=self.user) if self.user is not None else Q(guest_id=self.guest_id)

    def games(self) -> QuerySet[Game]:
        """This player's games."""
        if self.user is None and self.guest_id is None:
            return Game.objects.none()
        return Game.objects.filter(self.owns())

    def owner_fields(self) -> dict:
        """The fields that make a new game this player's."""
        return {"user": self.user, "guest_id": self.guest_id}


def current_player(request: HttpRequest, *, create: bool = False) -> Player:
    """The request's player; with create, a guest without an id gets one."""
    if request.user.is_authenticated:
        return Player(user=request.user)
    guest_id = request.session.get(GUEST_KEY)
    if guest_id is None and create:
        guest_id = str(uuid.uuid4())
        request.session[GUEST_KEY] = guest_id
    return Player(guest_id=guest_id)


def preferences_for(request: HttpRequest) -> Preferences:
    """The player's preferences: saved ones for users, the session's for guests."""
    if request.user.is_authenticated:
        prefs, _ = Preferences.objects.get_or_create(user=request.user)
        return prefs
    saved = request.session.get("preferences", {})
    fields = {
        f: saved[f]
        for f in ("mark_mistakes", "auto_remove_notes", "show_timer", "theme")
        if f in saved
    }
    return Preferences(**fields)


def save_guest_preferences(request: HttpRequest, prefs: Preferences) -> None:
    """Keep a guest's preferences in their session."""
    request.session["preferences"] = {
        "mark_mistakes": prefs.mark_mistakes,
        "auto_remove_notes": prefs.auto_remove_notes,
        "show_timer": prefs.show_timer,
        "theme": prefs.theme,
    }


def adopt_guest_games(guest_id: str, user) -> int:
    """Move a guest's games to a user. Where both played the same puzzle, the further
    along game stays (see _further)."""
    moved = 0
    with transaction.atomic():
        for game in Game.objects.select_for_update().filter(guest_id=guest_id):
            mine = Game.objects.filter(user=user, puzzle=game.puzzle_id).first()
            if mine is not None:
                if _further(game) <= _further(mine):
                    game.delete()
                    continue
                mine.delete()
            game.user, game.guest_id = user, None
            game.save(update_fields=["user", "guest_id"])
            moved += 1
    return moved


@receiver(user_logged_in)
def _adopt_on_login(sender, request, user, **kwargs) -> None:
    if request is None:
        return
    guest_id = request.session.pop(GUEST_KEY, None)
    if guest_id:
        adopt_guest_games(guest_id, user)
    guest_prefs = request.session.pop("preferences", None)
    if guest_prefs and not Preferences.objects.filter(user=user).exists():
        Preferences.objects.create(user=user, **guest_prefs)
