"""Pages for learning: the technique guide and practice."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ..accounts import limits
from ..accounts.players import current_player
from . import examples, guide, tiers
from . import practice as practising


def _technique(slug: str) -> guide.Technique:
    page = guide.technique(slug)
    if page is None:
        raise Http404(_("No such technique."))
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
        # Translators: %(technique)s is a technique's name, "X-Wing".
        message = _("There is no position to practise %(technique)s on yet; try again later.") % {
            "technique": page.plain
        }
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
