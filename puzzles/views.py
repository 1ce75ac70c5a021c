"""Pages and the health check. Views parse the request, call one service, and render."""

from __future__ import annotations

import datetime
import sys

from django.contrib import messages
from django.core.paginator import Paginator
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template import loader
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import engine

from . import games, learn, ratelimit, stats
from .broker import broker_is_up
from .daily import dailies_of, today
from .forms import PreferencesForm
from .models import DailyPuzzle, Difficulty, Game
from .players import YIELDED_KEY, current_player, preferences_for, save_guest_preferences
from .pool import fresh_counts
from .ratelimit import client_ip


def _difficulty(value: str) -> str:
    if value not in Difficulty.values:
        raise Http404("No such difficulty.")
    return value


def _date(value: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise Http404("Not a date.") from None


def _daily_cards(date: datetime.date, player) -> list[dict]:
    """Each difficulty's daily of the date, with the player's game on it if any."""
    dailies = (
        dailies_of(date)
        if date == today()
        else {
            d.difficulty: d for d in DailyPuzzle.objects.filter(date=date).select_related("puzzle")
        }
    )
    mine = {
        g.puzzle_id: g
        for g in player.games().filter(puzzle__in=[d.puzzle_id for d in dailies.values()])
    }
    return [
        {"difficulty": d, "daily": dailies[d], "game": mine.get(dailies[d].puzzle_id)}
        for d in Difficulty.values
        if d in dailies
    ]


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Today's dailies, games in progress, and a new game of any difficulty."""
    player = current_player(request)
    in_progress = player.games().filter(status=Game.Status.PLAYING).exclude(daily__date=today())
    current, best = stats.streaks(player)
    return render(
        request,
        "puzzles/home.html",
        {
            "today": today(),
            "dailies": _daily_cards(today(), player),
            "in_progress": in_progress.select_related("puzzle", "daily").order_by("-updated_at")[
                :10
            ],
            "difficulties": Difficulty.choices,
            "streak": current,
            "best_streak": best,
        },
    )


TOO_MANY_GAMES = (
    "Too many new games in a short time from here. Your games in progress are saved; "
    "wait a few minutes before starting another."
)


def _starts_limited(
    request: HttpRequest,
    per_client: ratelimit.Limit = ratelimit.GAME_START_PER_CLIENT,
    per_player: ratelimit.Limit = ratelimit.GAME_START_PER_ACCOUNT,
    message: str = TOO_MANY_GAMES,
) -> HttpResponse | None:
    """Count a game start (or another costly request) against the client and the player
    (account or guest); the 429 page when either has used up its limit."""
    player = current_player(request)
    checks = [(per_client, client_ip(request))]
    if player.user is not None:
        checks.append((per_player, f"user:{player.user.pk}"))
    elif player.guest_id is not None:
        checks.append((per_player, f"guest:{player.guest_id}"))
    for limit, who in checks:
        if ratelimit.exceeded(limit, who):
            response = render(request, "puzzles/unavailable.html", {"message": message}, status=429)
            response["Retry-After"] = str(limit.seconds)
            return response
    for limit, who in checks:
        ratelimit.count(limit, who)
    return None


@require_POST
def play(request: HttpRequest, difficulty: str) -> HttpResponse:
    """Start a new game of a difficulty."""
    difficulty = _difficulty(difficulty)
    refused = _starts_limited(request)
    if refused is not None:
        return refused
    player = current_player(request, create=True)
    game = games.new_game(player, difficulty, preferences_for(request))
    return redirect("puzzles:game", pk=game.pk)


@require_safe
def daily_today(request: HttpRequest) -> HttpResponse:
    """Today's puzzles."""
    return daily_day(request, today().isoformat())


@require_safe
def daily_day(request: HttpRequest, date: str) -> HttpResponse:
    """A day's puzzles, the player's games on them, and the day's leaderboards."""
    day = _date(date)
    if day > today():
        raise Http404("That day's puzzles are not out yet.")
    player = current_player(request)
    cards = _daily_cards(day, player)
    if not cards:
        raise Http404("There were no daily puzzles that day.")
    for card in cards:
        card["leaderboard"] = stats.leaderboard(card["daily"], player)
        place = stats.would_place(card["daily"], player)
        card["would_place"] = stats.ordinal(place) if place else None
    earlier = (
        DailyPuzzle.objects.filter(date__lt=day)
        .order_by("-date")
        .values_list("date", flat=True)
        .first()
    )
    later = (
        DailyPuzzle.objects.filter(date__gt=day, date__lte=today())
        .order_by("date")
        .values_list("date", flat=True)
        .first()
    )
    archive = (
        DailyPuzzle.objects.filter(date__lte=today())
        .order_by("-date")
        .values_list("date", flat=True)
        .distinct()[:30]
    )
    return render(
        request,
        "puzzles/daily.html",
        {
            "day": day,
            "is_today": day == today(),
            "today": today(),
            "cards": cards,
            "earlier": earlier,
            "later": later,
            "archive": archive,
        },
    )


@require_POST
def daily_play(request: HttpRequest, date: str, difficulty: str) -> HttpResponse:
    """Start (or go back to) the player's game on a day's puzzle."""
    refused = _starts_limited(request)
    if refused is not None:
        return refused
    try:
        game = games.daily_game(
            current_player(request, create=True),
            _date(date),
            _difficulty(difficulty),
            preferences_for(request),
        )
    except games.NotFound as error:
        raise Http404(str(error)) from None
    except games.Unavailable as error:
        response = render(request, "puzzles/unavailable.html", {"message": error}, status=503)
        response["Retry-After"] = "30"
        return response
    return redirect("puzzles:game", pk=game.pk)


@require_safe
def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The board."""
    player = current_player(request)
    game = player.all_games().select_related("puzzle", "daily").filter(pk=pk).first()
    if game is None:
        # A guest game that gave way to the account's own at log-in: go to that one.
        yielded = request.session.get(YIELDED_KEY, {}).get(str(pk))
        if yielded is not None:
            return redirect("puzzles:game", pk=yielded)
        raise Http404("No such game.")
    live = player.games().filter(puzzle=game.puzzle_id).first() if game.set_aside else None
    prefs = preferences_for(request)
    state = games.state(game, prefs)
    return render(
        request,
        "puzzles/game.html",
        {
            "game": game,
            "state": state,
            "prefs": prefs,
            "cells": _cells(game),
            "peers": [sorted(peers) for peers in engine.PEERS],  # the board's geometry
            "live": live,
            # Tier and score; the hardest technique (name, plain, slug) once it is over.
            "grade": learn.grade_of(game.puzzle, over=game.status != Game.Status.PLAYING),
            "share_url": request.build_absolute_uri(state["share_url"]),
            "practice": state.get("practice"),
        },
    )


def _cells(game: Game) -> list[dict]:
    notes = games.board_of(game).notes()
    return [
        {
            "index": i,
            "row": i // 9 + 1,
            "col": i % 9 + 1,
            "value": int(game.values[i]),
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
            "guide": learn.GUIDE,
        },
    )


@require_safe
def statistics_page(request: HttpRequest) -> HttpResponse:
    """Per difficulty: played, solved, best, average and median time; streaks; a chart."""
    player = current_player(request)
    current, best = stats.streaks(player)
    skills, practise_next = learn.skills(player)
    return render(
        request,
        "puzzles/stats.html",
        {
            "skills": skills,
            "practise_next": practise_next,
            "rows": stats.by_difficulty(player),
            "streak": current,
            "best_streak": best,
            "chart": stats.solve_time_chart(player),
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
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
            games.mark_games_in_progress(current_player(request))
        messages.success(request, "Settings saved.")
        return redirect(reverse("puzzles:settings"))
    return render(request, "puzzles/settings.html", {"form": form})


def server_error(request: HttpRequest) -> HttpResponse:
    """A 500, except that a database that does not answer is a 503 to retry shortly."""
    error = sys.exc_info()[1]
    unavailable = isinstance(error, (OperationalError, InterfaceError))
    status = 503 if unavailable else 500
    if request.path.startswith("/api/"):
        message = (
            "The database is not answering; try again in a few seconds."
            if unavailable
            else "Something went wrong on our side; your game is saved."
        )
        response = JsonResponse({"error": message}, status=status)
    else:
        page = "503.html" if unavailable else "500.html"
        response = HttpResponse(loader.get_template(page).render(), status=status)
    if unavailable:
        response["Retry-After"] = "5"
    return response


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    """Keep crawlers out of the API and the admin."""
    lines = ["User-agent: *", "Disallow: /api/", "Disallow: /admin/", "Disallow: /games/"]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain")


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Database, broker and fresh stock per difficulty; 200 while the database answers."""
    broker = "ok" if broker_is_up() else "down"
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        pools = fresh_counts()
    except DatabaseError:
        return JsonResponse({"database": "down", "broker": broker, "pools": {}}, status=503)
    return JsonResponse({"database": "ok", "broker": broker, "pools": pools})
