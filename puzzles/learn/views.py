"""Pages for learning: the technique guide and practice."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..accounts import limits
from ..accounts.players import current_player, preferences_for
from ..models import Game
from ..play import help, sharing_views, starting
from ..play.days import player_today
from ..play.errors import Conflict
from ..play.sharing import Refused
from . import analyse as analysing
from . import examples, guide, tiers
from . import practice as practising


def _technique(slug: str) -> guide.Technique:
    page = guide.technique(slug)
    if page is None:
        raise Http404("No such technique.")
    return page


@require_safe
def techniques(request: HttpRequest) -> HttpResponse:
    """Every technique of the grader, easiest first, grouped by tier."""
    available = examples.slugs_with_examples()
    tiers: dict[str, list] = {}
    for page in guide.GUIDE.values():
        tiers.setdefault(page.tier, []).append((page, page.slug in available))
    return render(request, "puzzles/techniques.html", {"tiers": tiers.items()})


@require_safe
def technique_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A technique in plain words, a live example drawn as a hint draws it, Practise."""
    page = _technique(slug)
    example = examples.example_for(slug)
    easier, harder = guide.neighbours(slug)
    return render(
        request,
        "puzzles/technique.html",
        {
            "technique": page,
            "example": example,
            "cells": examples.example_cells(example) if example else None,
            "links": example.hint.get("links") if example else None,
            "easier": easier,
            "harder": harder,
        },
    )


@require_POST
def practice(request: HttpRequest, slug: str) -> HttpResponse:
    """Start a practice game at a position where the technique is the next step."""
    page = _technique(slug)
    if examples.example_for(slug) is None:
        message = f"There is no position to practise {page.plain} on yet; try again later."
        return render(request, "puzzles/unavailable.html", {"message": message}, status=404)
    refused = limits.start_refused(request)
    if refused is not None:
        return refused
    try:
        game = practising.start_practice(current_player(request, create=True), slug)
    except practising.NoExample as error:
        return render(request, "puzzles/unavailable.html", {"message": error}, status=404)
    return redirect("puzzles:game", pk=game.pk)


@require_safe
def how_to_play(request: HttpRequest) -> HttpResponse:
    """The rules in a few lines with a small board, the two ways to enter digits and notes,
    what hints and the check do, and the tiers."""
    context = {"cells": tiers.example_cells(), "tiers": tiers.TIERS.values()}
    return render(request, "puzzles/how_to_play.html", context)


TOO_MANY_ANALYSES = (
    "Too many analyses asked for from here in a short time; wait a few minutes and ask again."
)
NOT_OUT = "This puzzle cannot be analysed here yet. Try it again after the day it is played."


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
        "differ": [analysing.place(c) for c in refusal.differ],
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
        help.count_analysis_as_help(game)
    except Conflict:  # it ended meanwhile
        return redirect(_analysis_url(game.puzzle.givens))
    game.refresh_from_db()
    position = analysing.game_position(game)
    return redirect(_analysis_url(analysing.pencil_marks(position)))
