"""Pages for sharing: a player's own puzzle typed in, and a puzzle's share link."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from ..accounts import limits
from ..accounts.players import current_player, preferences_for
from ..learn.guide import grade_of
from ..models import Game
from . import help, sharing, starting
from .days import player_today
from .stats import clock

CHANGED_COPY = _(
    "This puzzle is a changed copy of one here (a given taken out, a digit added, or the "
    "same solution): you are playing ours. A changed copy could tell whether a digit is "
    "right, so typing it counts as help on this puzzle, as a check does."
)
TOO_MANY_PUZZLES = _(
    "Too many puzzles typed in from here in a short time. Your games are saved; wait a few "
    "minutes before sending another."
)


@require_http_methods(["GET", "HEAD", "POST"])
def custom(request: HttpRequest) -> HttpResponse:
    """A puzzle of the player's own: the form, and on POST a new game on it, or the form
    again with a 400 and what is wrong."""
    if request.method != "POST":
        return render(request, "puzzles/custom.html", {"text": ""})
    refused = limits.start_refused(
        request, limits.CUSTOM_PER_CLIENT, limits.CUSTOM_PER_ACCOUNT, TOO_MANY_PUZZLES
    )
    if refused is not None:
        return refused
    text = request.POST.get("puzzle", "")
    try:
        accepted = sharing.take_puzzle(text)
    except sharing.Refused as refusal:
        return render(
            request,
            "puzzles/custom.html",
            {
                "text": text[: sharing.MAX_TEXT],
                "error": str(refusal),
                "board": differ_board(refusal) if refusal.differ else None,
                "differ": [_place(c) for c in refusal.differ],
            },
            status=400,
        )
    game = starting.game_on(
        current_player(request, create=True),
        accepted.puzzle,
        preferences_for(request),
        day=player_today(request),
    )
    if accepted.changed:
        help.count_copy_as_help(game)
        messages.info(request, CHANGED_COPY)
    elif not accepted.created and not accepted.same_layout:
        messages.info(
            request,
            _(
                "This puzzle is here already, in another arrangement (its digits relabelled, "
                "or rows and columns swapped): you are playing our copy. It is the same puzzle."
            ),
        )
    return redirect("puzzles:game", pk=game.pk)


def _place(cell: int) -> str:
    return _("row %(row)d, column %(column)d") % {"row": cell // 9 + 1, "column": cell % 9 + 1}


def differ_board(refusal: sharing.Refused) -> list[list[dict]]:
    """The puzzle typed as nine rows of cells, the blanks where two solutions differ
    marked: where a given is missing, with no digit of either solution."""
    differ = set(refusal.differ)
    return [
        [
            {"digit": refusal.puzzle[r * 9 + c].replace("0", ""), "differ": r * 9 + c in differ}
            for c in range(9)
        ]
        for r in range(9)
    ]


def _shared(request: HttpRequest, code: str):
    puzzle = sharing.puzzle_for_code(code, player_today(request))
    if puzzle is None:
        raise Http404(_("No such puzzle."))
    return puzzle


@require_http_methods(["GET", "HEAD", "POST"])
def share(request: HttpRequest, code: str) -> HttpResponse:
    """GET: a shared puzzle's grade, its givens and clean solves, and a button; POST: the
    visitor's own game on it (started, or the one they have)."""
    puzzle = _shared(request, code)
    player = current_player(request)
    if request.method == "POST":
        mine = player.games().filter(puzzle=puzzle).first()
        if mine is None:
            refused = limits.start_refused(request)
            if refused is not None:
                return refused
            mine = starting.game_on(
                current_player(request, create=True),
                puzzle,
                preferences_for(request),
                day=player_today(request),
            )
        return redirect("puzzles:game", pk=mine.pk)
    solves = (
        Game.objects.ranked()
        .filter(puzzle=puzzle)
        .select_related("user")
        .order_by("ranked_seconds", "finished_at", "pk")[:20]
    )
    grade = grade_of(puzzle, over=False)
    givens = [
        {
            "index": i,
            "row": i // 9 + 1,
            "col": i % 9 + 1,
            "value": int(puzzle.givens[i]),
            "given": puzzle.givens[i] != "0",
            "notes": [],
        }
        for i in range(81)
    ]
    return render(
        request,
        "puzzles/share.html",
        {
            "puzzle": puzzle,
            "code": code,
            "grade": grade,
            "cells": givens,
            "solves": solves,
            "mine": player.games().filter(puzzle=puzzle).first(),
            "share_url": request.build_absolute_uri(),
        }
        | _card(request, puzzle, grade, solves),
    )


def _card(request: HttpRequest, puzzle, grade: dict, solves) -> dict:
    """The link's card in chat apps: its title, a line of what it is, and an image (the
    site's icon: no picture of the board is drawn)."""
    tier = grade["tier"]
    title = f"{'An' if tier[0] in 'aeiou' else 'A'} {tier} Sudoku, rated {grade['score']:.1f}"
    fastest = solves[0] if solves else None
    best = f" The fastest clean solve: {clock(fastest.ranked_seconds)}." if fastest else ""
    return {
        "card_title": title,
        "card_description": f"{puzzle.clue_count} givens. Play it, then compare times.{best}",
        "card_image": request.build_absolute_uri(static("img/icon-512.png")),
    }
