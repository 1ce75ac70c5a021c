"""The clock of a game: pause and resume, and every clock a player has running stopped at
log-out. The rule of the clock itself (what counts, the idle stop) lives on the model
(`Game.elapsed`, `Game.resume`, `Game.pause`); here are the requests that move it.
"""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from ..accounts.players import GUEST_KEY, Player
from ..models import Game
from .changes import Write, check_playing, clock_fields
from .errors import Conflict


def pause(game: Game, page: str = "") -> Game:
    """Stop the clock, unless `page` is an older page of the device whose page started it
    last: a reloaded page's pause, sent as it left, that came after the new page's resume."""
    check_playing(game)
    if _older(page, game.clock_page):
        return game
    now = timezone.now()
    game.pause(now)
    game.seen_at = now
    write = Write(game, versioned=False)
    write.hold({"active_seconds": game.active_seconds, "resumed_at": None, "seen_at": now})
    return write.save()


def resume(game: Game, page: str = "") -> Game:
    """Start the clock again (the page also calls this each minute the player is active);
    `page` is kept as the page that started it."""
    check_playing(game)
    write = Write(game, versioned=False)
    fields = clock_fields(game, timezone.now())
    if page and page != game.clock_page:
        game.clock_page = page
        fields["clock_page"] = page
    write.hold(fields)
    return write.save()


def _older(page: str, kept: str) -> bool:
    """Whether `page` ("device:opened", opened in ms as the device counts) opened before
    `kept` on the same device. Pages of two devices are not compared: their clocks differ."""
    if not page or not kept:
        return False
    device, _, opened = page.rpartition(":")
    kept_device, _, kept_opened = kept.rpartition(":")
    return device == kept_device and int(opened) < int(kept_opened)


def pause_all(player: Player) -> int:
    """Stop the clock of every game the player has running (logging out ends the play);
    how many were stopped."""
    now, stopped = timezone.now(), 0
    running = player.all_games().filter(status=Game.Status.PLAYING, resumed_at__isnull=False)
    for pk in running.values_list("pk", flat=True):
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=pk, resumed_at__isnull=False).first()
            if game is None or game.set_aside:
                continue
            game.pause(now)
            write = Write(game, versioned=False)
            write.hold({"active_seconds": game.active_seconds, "resumed_at": None})
            try:
                write.save()
            except Conflict:  # it ended meanwhile
                continue
        stopped += 1
    return stopped


@receiver(user_logged_out)
def _pause_on_logout(sender, request, user, **kwargs) -> None:
    """The page's own pause would come after the session ended, and be refused: stop the
    clocks of the player's games (and of the session's guest games, if any) here."""
    if user is not None:
        pause_all(Player(user=user))
    guest_id = None if request is None else request.session.get(GUEST_KEY)
    if guest_id:
        pause_all(Player(guest_id=guest_id))
