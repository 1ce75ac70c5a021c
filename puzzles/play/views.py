"""Pages of play: home, new games, the dailies, the game, history, statistics and settings.
Views parse the request, call one service, and render."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.html import json_script
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

import engine

from .. import sql
from ..accounts import languages, limits
from ..accounts.forms import PreferencesForm
from ..accounts.players import (
    YIELDED_KEY,
    current_player,
    preferences_for,
    save_guest_preferences,
)
from ..learn.guide import GUIDE, grade_of
from ..learn.skills import skills as skill_profile
from ..learn.tiers import TIERS, tier_name
from ..models import DailyPuzzle, Difficulty, Game
from ..pools.daily import dailies_of, days_around
from . import answers, finish, newcomers, starting, stats
from .days import player_today, player_zone
from .errors import NotFound, Unavailable

# The board's geometry as the game page carries it (a JSON data block): the same on every
# page, so written once.
BOARD_PEERS = json_script([sorted(peers) for peers in engine.PEERS], "board-peers")


def _difficulty(value: str) -> str:
    if value not in Difficulty.values:
        raise Http404(_("No such difficulty."))
    return value


def _a(word: str) -> str:
    """A tier with its indefinite article in English, 'an expert', 'a master'; in another
    language the tier's name alone, as its sentence wants it."""
    if translation.get_language() != settings.LANGUAGE_CODE:
        return tier_name(word)
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _date(value: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise Http404(_("Not a date.")) from None


def _daily_cards(date: datetime.date, player, today: datetime.date) -> list[dict]:
    """Each difficulty's daily of the date, with the player's game on it if any, and its
    tier said in words; those of the player's today picked now where not picked yet."""
    dailies = (
        dailies_of(date)
        if date == today
        else {
            d.difficulty: d for d in DailyPuzzle.objects.filter(date=date).select_related("puzzle")
        }
    )
    mine = {
        g.puzzle_id: g
        for g in player.games().filter(puzzle__in=[d.puzzle_id for d in dailies.values()])
    }
    return [
        {
            "difficulty": d,
            "daily": dailies[d],
            "game": mine.get(dailies[d].puzzle_id),
            "tier": TIERS[d],
        }
        for d in Difficulty.values
        if d in dailies
    ]


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The game in play to continue, today's dailies, other games in progress, and a new
    game of any difficulty. A newcomer's is made once for many (newcomers.py)."""
    daily_date = player_today(request)  # the day whose dailies the page shows
    if newcomers.is_newcomer(request):
        key = (daily_date, str(player_zone(request)))
        return newcomers.page(request, key, "puzzles/home.html", lambda: _home(request, daily_date))
    return render(request, "puzzles/home.html", _home(request, daily_date))


def _home(request: HttpRequest, daily_date: datetime.date) -> dict:
    player = current_player(request)
    playing = player.games().filter(status=Game.Status.PLAYING)
    latest = playing.select_related("puzzle", "daily").order_by("-updated_at").first()
    others = playing.exclude(daily__date=daily_date)
    if latest is not None:
        others = others.exclude(pk=latest.pk)
    current, best = stats.streaks(player, player_zone(request), daily_date)
    dailies = _daily_cards(daily_date, player, daily_date)
    picked = {card["difficulty"] for card in dailies}
    return {
        "today": daily_date,
        "daily_date": daily_date,
        "shows_day": True,  # drawn again for the browser's zone (static/js/site.js)
        "dailies": dailies,
        # Tiers made ahead only whose daily waits for the workers' first puzzle.
        "pending": [TIERS[d] for d in Difficulty.values if d not in picked],
        "latest": latest,
        "in_progress": others.select_related("puzzle", "daily").order_by("-updated_at")[:10],
        "difficulties": Difficulty.choices,
        "streak": current,
        "best_streak": best,
    }


@require_POST
def play(request: HttpRequest, difficulty: str) -> HttpResponse:
    """Start a new game of a difficulty."""
    difficulty = _difficulty(difficulty)
    refused = limits.start_refused(request)
    if refused is not None:
        return refused
    player = current_player(request, create=True)
    game = starting.new_game(player, difficulty, preferences_for(request))
    if game.puzzle.difficulty != difficulty:
        messages.info(
            request,
            _(
                # Translators: %(difficulty)s is a tier ("easy"), %(other)s another tier with
                # its article ("an expert").
                "No %(difficulty)s puzzle is ready just now, so here is %(other)s one. More "
                "%(difficulty)s puzzles are being made: try again in a few minutes."
            )
            % {"difficulty": tier_name(difficulty), "other": _a(game.puzzle.difficulty)},
        )
    return redirect("puzzles:game", pk=game.pk)


@require_safe
def daily_today(request: HttpRequest) -> HttpResponse:
    """Today's puzzles."""
    return daily_day(request, player_today(request).isoformat())


@require_safe
def daily_day(request: HttpRequest, date: str) -> HttpResponse:
    """A day's puzzles, the player's games on them, and the day's leaderboards."""
    day, today = _date(date), player_today(request)
    if day > today:
        raise Http404(_("That day's puzzles are not out yet."))
    player = current_player(request)
    cards = _daily_cards(day, player, today)
    if not cards:
        raise Http404(_("There were no daily puzzles that day."))
    for card in cards:
        card["leaderboard"] = stats.leaderboard(card["daily"], player)
        place = stats.would_place(card["daily"], player)
        card["would_place"] = stats.ordinal(place) if place else None
    return render(
        request,
        "puzzles/daily.html",
        {"day": day, "is_today": day == today, "today": today, "cards": cards, "shows_day": True}
        | days_around(day, today),
    )


@require_POST
def daily_play(request: HttpRequest, date: str, difficulty: str) -> HttpResponse:
    """Start (or go back to) the player's game on a day's puzzle."""
    refused = limits.start_refused(request)
    if refused is not None:
        return refused
    try:
        game = starting.daily_game(
            current_player(request, create=True),
            _date(date),
            _difficulty(difficulty),
            preferences_for(request),
            day=player_today(request),
        )
    except NotFound as error:
        raise Http404(str(error)) from None
    except Unavailable as error:
        response = render(request, "puzzles/unavailable.html", {"message": error}, status=503)
        response["Retry-After"] = "30"
        return response
    return redirect("puzzles:game", pk=game.pk)


@require_safe
def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The board."""
    player = current_player(request)
    # The API's read of a game, its puzzle and daily: one statement written once.
    user_id = player.user.pk if player.user is not None else None
    game = sql.read_game(pk, user_id=user_id, guest_id=player.guest_id, lock=False)
    if game is None:
        # A guest game that gave way to the account's own at log-in: go to that one.
        yielded = request.session.get(YIELDED_KEY, {}).get(str(pk))
        if yielded is not None:
            return redirect("puzzles:game", pk=yielded)
        raise Http404(_("No such game."))
    live = player.games().filter(puzzle=game.puzzle_id).first() if game.set_aside else None
    prefs = preferences_for(request)
    state = answers.state(game, prefs) | finish.after(request, game)
    return render(
        request,
        "puzzles/game.html",
        {
            "game": game,
            "state": state,
            "prefs": prefs,
            "cells": _cells(game, state),
            "peers": BOARD_PEERS,  # the board's geometry
            "live": live,
            # Tier and score; the hardest technique (name, plain, label, slug) once it is over.
            "grade": grade_of(game.puzzle, over=game.status != Game.Status.PLAYING),
            "share_url": request.build_absolute_uri(state["share_url"]),
            "practice": state.get("practice"),
            "send_every_ms": settings.SEND_EVERY_MS,
            # Served by a strained process: the page starts on the longer cadence that the
            # answers to its batches would ask for (site/shedding.py), until one does not.
            "send_every_asked_ms": settings.BUSY_SEND_EVERY_MS
            if getattr(request, "strained", False)
            else None,
        },
    )


def _cells(game: Game, state: dict) -> list[dict]:
    """The board as the state shows it: while the game is paused, the givens only."""
    notes = state["notes"]
    return [
        {
            "index": i,
            "row": i // 9 + 1,
            "col": i % 9 + 1,
            "value": int(state["values"][i]),
            "given": game.puzzle.givens[i] != "0",
            "notes": notes[i],
        }
        for i in range(81)
    ]


@require_safe
def history(request: HttpRequest) -> HttpResponse:
    """The player's games, filterable by difficulty and status, 20 a page; practice games
    apart (kind=practice)."""
    difficulty = request.GET.get("difficulty", "")
    status = request.GET.get("status", "")
    kind = "practice" if request.GET.get("kind") == "practice" else ""
    found = stats.history(current_player(request), difficulty, status, practice=bool(kind))
    page = Paginator(found, 20).get_page(request.GET.get("page"))
    return render(
        request,
        "puzzles/history.html",
        {
            "page": page,
            "difficulty": difficulty if difficulty in Difficulty.values else "",
            "status": status if status in Game.Status.values else "",
            "difficulties": Difficulty.choices,
            "statuses": Game.Status.choices,
            "kind": kind,
            "guide": GUIDE,
        },
    )


@require_safe
def statistics_page(request: HttpRequest) -> HttpResponse:
    """Per difficulty: played, solved, best, average and median time; streaks; a chart."""
    player = current_player(request)
    current, best = stats.streaks(player, player_zone(request), player_today(request))
    skills, practise_next = skill_profile(player)
    return render(
        request,
        "puzzles/stats.html",
        {
            "skills": skills,
            "practise_next": practise_next,
            "rows": stats.by_difficulty(player),
            "streak": current,
            "best_streak": best,
            "shows_day": True,
            "chart": stats.solve_time_chart(player),
        },
    )


@require_POST
def input_mode(request: HttpRequest) -> HttpResponse:
    """The game page's input switch, kept as the `digit_first` setting: `digit_first` is
    "1" or "0"; anything else is a 400 and changes nothing."""
    value = request.POST.get("digit_first")
    if value not in ("0", "1"):
        return HttpResponseBadRequest('digit_first must be "1" or "0".')
    prefs = preferences_for(request)
    prefs.digit_first = value == "1"
    if request.user.is_authenticated:
        prefs.save(update_fields=["digit_first"])
    else:
        save_guest_preferences(request, prefs)
    return HttpResponse(status=204)


@require_POST
def intro_seen(request: HttpRequest) -> HttpResponse:
    """The game page's first-visit explanation, dismissed: it shows on no later page."""
    prefs = preferences_for(request)
    prefs.intro_seen = True
    if request.user.is_authenticated:
        prefs.save(update_fields=["intro_seen"])
    else:
        save_guest_preferences(request, prefs)
    return HttpResponse(status=204)


def settings_page(request: HttpRequest) -> HttpResponse:
    """The player's preferences."""
    prefs = preferences_for(request)
    form = PreferencesForm(request.POST or None, instance=prefs)
    if request.method == "POST" and form.is_valid():
        if request.user.is_authenticated:
            prefs = form.save()
        else:
            prefs = form.save(commit=False)
            save_guest_preferences(request, prefs)
        if prefs.mark_mistakes:
            starting.mark_games_in_progress(current_player(request))
        messages.success(request, _("Settings saved."))
        return languages.kept(request, prefs.language, reverse("puzzles:settings"))
    return render(request, "puzzles/settings.html", {"form": form})
