"""Pages of the analysis of a position (/analyse/, puzzles/play/analyse.py): the form and
the analysis, the question asked first where it counts as help, and "Analyse this
position" from a game."""

from __future__ import annotations

from urllib.parse import urlencode

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

import engine

from ..accounts import limits
from ..accounts.players import current_player, preferences_for
from ..models import Game
from . import analyse as analysing
from . import help, sharing_views, starting
from .days import player_today
from .errors import Conflict
from .sharing import Refused

TOO_MANY_ANALYSES = _(
    "Too many analyses asked for from here in a short time; wait a few minutes and ask again."
)
NOT_OUT = _("This puzzle cannot be analysed here yet. Try it again after the day it is played.")


@require_http_methods(["GET", "HEAD", "POST"])
def analyse(request: HttpRequest) -> HttpResponse:
    """GET: the form, and with `puzzle` (81 characters or a pencil-mark grid) its analysis
    (`page` for the steps drawn); a 400 with what is wrong for a text that cannot be
    analysed. A stored puzzle (or a near copy) is analysed only as help on the player's
    game of it: the page asks first, and a POST with confirm=help marks the game helped
    (started if the player has none) and shows the analysis."""
    source = request.POST if request.method == "POST" else request.GET
    text = source.get("puzzle")
    if text is None:
        return render(request, "puzzles/analyse.html", {"text": ""})
    refused = limits.start_refused(
        request, limits.COSTLY_READ_PER_CLIENT, limits.COSTLY_READ_PER_ACCOUNT, TOO_MANY_ANALYSES
    )
    if refused is not None:
        return refused
    context: dict = {"text": text[: analysing.MAX_TEXT]}
    try:
        position = analysing.read(text)
        stored = analysing.stored_for(position)
        if stored is not None:
            day = player_today(request)
            if stored.dailies.filter(date__gt=day).exists():
                raise Refused(NOT_OUT)
            game = current_player(request).games().filter(puzzle=stored).first()
            if not _helped(game):
                if request.method != "POST" or request.POST.get("confirm") != "help":
                    return render(request, "puzzles/analyse.html", context | {"ask": stored})
                game = game or starting.game_on(
                    current_player(request, create=True), stored, preferences_for(request), day=day
                )
                help.count_copy_as_help(game)
                return redirect(_analysis_url(text))
            context["helped_game"] = game if game.status == Game.Status.PLAYING else None
        analysis = analysing.analyse(position)
    except Refused as refusal:
        return render(request, "puzzles/analyse.html", context | _refusal(refusal), status=400)
    drawn, pages = analysing.draw(analysis, _page(request))
    page = drawn[0]["index"] // analysing.DRAWN if drawn else 0
    return render(
        request,
        "puzzles/analyse.html",
        context
        | {
            "analysis": analysis,
            "drawn": {step["index"]: step for step in drawn},
            "page": page,
            "pages": [
                {
                    "steps": _steps_of_page(n, len(analysis.steps)),
                    "url": _analysis_url(text, n),
                    "current": n == page,
                }
                for n in range(pages)
            ]
            if pages > 1
            else [],
            "export": analysing.pencil_marks(analysis.position),
        },
    )


def _helped(game: Game | None) -> bool:
    """Whether the analysis can no longer take a clean solve from the player: their game
    on the puzzle is over, or helped already."""
    if game is None:
        return False
    return game.status != Game.Status.PLAYING or game.helped_at is not None


def _steps_of_page(page: int, steps: int) -> str:
    first, last = page * analysing.DRAWN + 1, min((page + 1) * analysing.DRAWN, steps)
    return f"{first}–{last}" if last > first else str(first)


def _page(request: HttpRequest) -> int:
    raw = request.GET.get("page", "")
    return int(raw) - 1 if raw.isascii() and raw.isdigit() and len(raw) < 4 else 0


def _analysis_url(text: str, page: int = 0) -> str:
    query = {"puzzle": text} | ({"page": page + 1} if page else {})
    return f"{reverse('puzzles:analyse')}?{urlencode(query)}#steps"


def _refusal(refusal: Refused) -> dict:
    return {
        "error": str(refusal),
        "board": sharing_views.differ_board(refusal) if refusal.differ else None,
        "differ": [engine.place(c) for c in refusal.differ],
    }


@require_http_methods(["GET", "HEAD", "POST"])
def analyse_game(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Analyse this position" from a game: over, the analysis of its puzzle; in play, the
    page says first that it counts as help, and its POST counts it (as a hint is) and
    shows the analysis of the player's board, their complete notes as pencil marks."""
    game = get_object_or_404(current_player(request).games(), pk=pk)
    if game.status != Game.Status.PLAYING:
        return redirect(_analysis_url(game.puzzle.givens))
    if request.method != "POST":
        return render(request, "puzzles/analyse_game.html", {"game": game})
    try:
        with transaction.atomic():  # the game read locked, as the API's help reads it
            game = current_player(request).games().select_for_update().get(pk=game.pk)
            help.count_analysis_as_help(game)
    except (Conflict, Game.DoesNotExist):  # it ended (or went) meanwhile
        return redirect(_analysis_url(game.puzzle.givens))
    position = analysing.game_position(game)
    return redirect(_analysis_url(analysing.pencil_marks(position)))
