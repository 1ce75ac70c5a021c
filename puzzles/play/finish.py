"""Where the end of a game points: the player's daily streak, the next daily of the
player's day not played yet (the next tier up first), and when none is left, how long
until the next day's dailies come out where the player is."""

from __future__ import annotations

import datetime

from django.http import HttpRequest
from django.urls import reverse

from ..accounts.players import Player, current_player
from ..models import DailyPuzzle, Difficulty, Game
from ..pools.stock import MADE_AHEAD
from . import stats
from .days import player_today, player_zone, seconds_to_tomorrow


def after(request: HttpRequest, game: Game) -> dict:
    """For a game over: {"streak", and "next_daily" ({"difficulty", "url"}) or
    "next_dailies_in" (seconds)}; nothing while it is played."""
    if game.status == Game.Status.PLAYING:
        return {}
    player, zone, today = current_player(request), player_zone(request), player_today(request)
    current, _ = stats.streaks(player, zone, today)
    result: dict = {"streak": current}
    difficulty = next_daily(player, today, game.puzzle.difficulty, above=bool(game.daily_id))
    if difficulty is None:
        result["next_dailies_in"] = seconds_to_tomorrow(zone)
    else:
        url = reverse("puzzles:daily_play", args=[today.isoformat(), difficulty])
        result["next_daily"] = {"difficulty": difficulty, "url": url}
    return result


def next_daily(
    player: Player, today: datetime.date, difficulty: str, *, above: bool = True
) -> str | None:
    """The tier of the day's daily the player has not started: from the tier just played
    (the tier above it, with `above`) upwards first, then those below; None when every
    one is started. A tier made ahead only counts once its daily is picked (until then it
    may have none)."""
    picked = set(DailyPuzzle.objects.filter(date=today).values_list("difficulty", flat=True))
    started = set(
        player.all_games().filter(daily__date=today).values_list("daily__difficulty", flat=True)
    )
    tiers = list(Difficulty.values)
    at = tiers.index(difficulty) + int(above) if difficulty in tiers else 0
    for tier in tiers[at:] + tiers[:at]:
        available = tier in picked or tier not in MADE_AHEAD
        if available and tier not in started:
            return tier
    return None
