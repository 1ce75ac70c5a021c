"""Who is playing: a signed-in user, or a guest known by an id kept in their session.
Guests' games move to their account when they sign up or log in."""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import timezone

from ..models import AccountName, Game, Preferences
from ..sql import read_preferences
from .usernames import skeleton

GUEST_KEY = "guest_id"
# Guest games that yielded to the account's at log-in, old id -> the account's game's id,
# kept in the session so that a page of the old game still open leads to the new one.
YIELDED_KEY = "yielded_games"
# The preferences a player sets on the settings page (a guest's session keeps them too).
PREFERENCES = (
    "mark_mistakes",
    "auto_remove_notes",
    "auto_notes",
    "compact_places",
    "show_timer",
    "digit_first",
    "theme",
)
# What the player was shown once and dismissed, kept beside the preferences (a guest's in
# the session) but set by the page, not on the settings page.
SHOWN_ONCE = ("intro_seen",)


@dataclass(frozen=True)
class Player:
    """The owner of games: exactly one of user and guest_id is set. `new`: a guest whose id
    this request made, who has no game yet (what would look for one can skip the read)."""

    user: object | None = None
    guest_id: str | None = None
    new: bool = field(default=False, compare=False)

    def owns(self) -> Q:
        """The filter for this player's games."""
        return Q(user=self.user) if self.user is not None else Q(guest_id=self.guest_id)

    def games(self) -> QuerySet[Game]:
        """This player's games of record: one per puzzle at most."""
        return self.all_games().live()

    def all_games(self) -> QuerySet[Game]:
        """This player's games, those set aside at log-in included (history, ownership)."""
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
        return Player(guest_id=guest_id, new=True)
    return Player(guest_id=guest_id)


def preferences_for(request: HttpRequest) -> Preferences:
    """The player's preferences: saved ones for users (read once a request: the language's
    choice, the view and the page's theme all ask), the session's for guests."""
    if request.user.is_authenticated:
        kept = getattr(request, "_preferences", None)
        if kept is None or kept.user_id != request.user.pk:
            kept = request._preferences = _saved_preferences(request.user)
        return kept
    saved = request.session.get("preferences", {})
    fields = {f: saved[f] for f in PREFERENCES + SHOWN_ONCE if f in saved}
    return Preferences(**fields)


def _saved_preferences(user) -> Preferences:
    """A user's saved preferences, made with the defaults the first time."""
    prefs = read_preferences(user.pk)
    if prefs is None:
        prefs, _ = Preferences.objects.get_or_create(user=user)
        return prefs
    prefs._state.fields_cache["user"] = user
    return prefs


def save_guest_preferences(request: HttpRequest, prefs: Preferences) -> None:
    """Keep a guest's preferences in their session."""
    request.session["preferences"] = {f: getattr(prefs, f) for f in PREFERENCES + SHOWN_ONCE}


def _empty(game: Game) -> bool:
    """Nothing to keep: still in play, no move made, no help used."""
    helped = game.hints or game.reveals or game.marked or game.helped_at is not None
    return game.status == Game.Status.PLAYING and game.moves_logged == 0 and not helped


def _seen(game: Game) -> datetime.datetime | None:
    """When the player first had help on the game's puzzle or saw its solution, which
    every ended game shows; a practice game shows part of the solve from its start."""
    starts = [game.started_at] if game.practice else []
    times = [t for t in (game.helped_at, game.finished_at, *starts) if t is not None]
    return min(times, default=None)


def _carry_help(game: Game, seen: datetime.datetime | None) -> None:
    """Help or a seen solution from another game of the player's on the same puzzle: this
    game cannot be a clean solve after it. A game that ended before it stays as it was."""
    if seen is None or (game.helped_at is not None and game.helped_at <= seen):
        return
    if game.status != Game.Status.PLAYING and game.finished_at and game.finished_at <= seen:
        return
    game.helped_at = seen
    Game.objects.filter(pk=game.pk).update(helped_at=seen)


def _adopt(game: Game, user, now: datetime.datetime) -> int | None:
    """Move one guest game (locked) to the user. Returns the id of the account's game it
    yielded to, if it was deleted."""
    mine = list(Game.objects.select_for_update().filter(user=user, puzzle=game.puzzle_id))
    if game.practice:  # practice games stand beside any other game on the puzzle
        for other in mine:
            _carry_help(other, _seen(game))
        game.user, game.guest_id = user, None
        game.save(update_fields=["user", "guest_id"])
        return None
    live = next((g for g in mine if not g.set_aside and not g.practice), None)
    if live is not None and _empty(game):
        game.delete()
        return live.pk
    seen_here, seen_there = _seen(game), min(filter(None, map(_seen, mine)), default=None)
    for other in mine:
        _carry_help(other, seen_here)
    _carry_help(game, seen_there)
    if live is not None and _empty(live):
        live.delete()
        live = None
    game.user, game.guest_id = user, None
    if live is not None:  # both played: the account's game stays the one in play
        game.active_seconds, game.resumed_at = game.elapsed(now), None
        game.set_aside_at = now
    game.save(
        update_fields=[
            "user",
            "guest_id",
            "helped_at",
            "set_aside_at",
            "active_seconds",
            "resumed_at",
        ]
    )
    return None


def adopt_guest_games(guest_id: str, user) -> dict[int, int]:
    """Move a guest's games to a user, never losing a move or an ended game:

    - a guest game on a puzzle the account has no game of is simply moved;
    - where both have one, a guest game with nothing in it (no move, no help) is deleted,
      and an account game with nothing in it gives way to a guest game that has something;
    - where both have something, the account's game stays the one in play and the guest
      game is kept beside it, set aside: a record in the history, no longer played;
    - help used or a solution seen in either game is carried to the other: a solve after
      it is not clean (a solve that came before it stays clean).

    Returns the deleted guest games, each with the id of the account's game it yielded to.
    """
    yielded = {}
    with transaction.atomic():
        # One adoption at a time per account: two log-ins from two guest sessions at once
        # would otherwise both move a game to a puzzle the account has none of.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        now = timezone.now()
        for game in Game.objects.select_for_update().filter(guest_id=guest_id).order_by("pk"):
            pk = game.pk
            for attempt in range(3):
                try:
                    with transaction.atomic():
                        live = _adopt(game, user, now)
                    break
                except IntegrityError:
                    # The account started a game on this puzzle meanwhile: look again.
                    if attempt == 2:
                        raise
                    game.refresh_from_db()
            if live is not None:
                yielded[pk] = live
    return yielded


@receiver(user_logged_in)
def _adopt_on_login(sender, request, user, **kwargs) -> None:
    if request is None:
        return
    guest_id = request.session.pop(GUEST_KEY, None)
    if guest_id:
        yielded = adopt_guest_games(guest_id, user)
        if yielded:
            known = request.session.get(YIELDED_KEY, {})
            request.session[YIELDED_KEY] = known | {str(k): v for k, v in yielded.items()}
    guest_prefs = request.session.pop("preferences", None)
    if not guest_prefs:
        return
    if not Preferences.objects.filter(user=user).exists():
        Preferences.objects.create(user=user, **guest_prefs)
    elif guest_prefs.get("intro_seen"):  # the person has read it, whichever account
        Preferences.objects.filter(user=user).update(intro_seen=True)


# The look-alike key of every account's name (models.AccountName), kept up to date on every
# save of a user: sign-up refuses a name that reads like one already taken.
@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _store_account_name(sender, instance, created: bool, update_fields=None, **kwargs) -> None:
    if created or update_fields is None or "username" in update_fields:
        AccountName.objects.update_or_create(
            user=instance, defaults={"skeleton": skeleton(instance.get_username())}
        )
