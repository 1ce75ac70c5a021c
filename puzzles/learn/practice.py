"""Practice games: a game that starts at an example's position, found once the player makes
the step's placement or its eliminations."""

from __future__ import annotations

import random

from django.utils import timezone
from django.utils.translation import gettext as _

import engine

from ..accounts.players import Player
from ..models import Game, TechniqueExample
from .examples import complete_flags
from .guide import GUIDE, neighbours


class NoExample(Exception):
    """No position to practise the technique on has been found yet."""


def pick_example(player: Player, slug: str) -> TechniqueExample:
    """An example of the technique on a puzzle the player has no game on, if there is one;
    else any of them."""
    examples = list(TechniqueExample.objects.filter(slug=slug).select_related("puzzle"))
    if not examples:
        raise NoExample(
            # Translators: %(technique)s is a technique's name, "X-Wing".
            _("There is no position to practise %(technique)s on yet.")
            % {"technique": GUIDE[slug].plain}
        )
    played = set(player.all_games().values_list("puzzle_id", flat=True))
    fresh = [e for e in examples if e.puzzle_id not in played]
    return random.choice(fresh or examples)


def start_practice(player: Player, slug: str) -> Game:
    """A practice game at an example's position, notes complete: every easier step applied,
    the technique's step to find. Seeing the position is help on that puzzle: a game of
    the player's on it still in play can no longer be a clean solve."""
    example = pick_example(player, slug)
    now = timezone.now()
    hint = example.hint
    notes = [list(c) if example.values[i] == "0" else [] for i, c in enumerate(example.candidates)]
    game = Game.objects.create(
        puzzle=example.puzzle,
        values=example.values,
        notes=notes,
        complete="".join("1" if flag else "0" for flag in complete_flags(example.values)),
        practice=slug,
        practice_goal={
            "placements": hint["placements"],
            "eliminations": hint["eliminations"],
        },
        resumed_at=now,
        seen_at=now,
        started_at=now,
        updated_at=now,
        **player.owner_fields(),
    )
    player.games().filter(puzzle=example.puzzle_id, helped_at__isnull=True).exclude(
        status=Game.Status.SOLVED
    ).update(helped_at=now)
    return game


def makes_goal(goal: dict, board: engine.Board, changes: list[dict], kind: str) -> bool:
    """Whether a move (its logged changes, and the board after it) makes the practised
    step: a value move (or Apply) that places the step's digit; for a step that only
    eliminates, a note move (or Apply) that takes out one of its candidates and leaves
    none of them."""
    touched = {change["cell"]: change for change in changes}
    placements = [tuple(p) for p in goal.get("placements", [])]
    if placements:
        if kind not in ("value", "hint"):
            return False
        return any(
            cell in touched
            and touched[cell]["after"][0] == digit
            and touched[cell]["before"][0] != digit
            for cell, digit in placements
        )
    eliminations = [tuple(e) for e in goal.get("eliminations", [])]
    if not eliminations or kind not in ("note", "hint"):
        return False
    took_one = any(
        cell in touched
        and digit in touched[cell]["before"][1]
        and digit not in touched[cell]["after"][1]
        for cell, digit in eliminations
    )
    gone = all(
        board.values[cell] != digit and digit not in board.digits(cell)
        for cell, digit in eliminations
    )
    return took_one and gone


def practice_state(game: Game) -> dict | None:
    if not game.practice:
        return None
    page = GUIDE.get(game.practice)
    return {
        "technique": page.label if page else game.practice,
        "name": page.name if page else game.practice,
        "slug": game.practice,
        "found": game.practice_found_at is not None,
        "unaided": game.practice_unaided,
        "taken_out": _taken_out(game),
        "next": _next_practice(game.practice),
    }


def _next_practice(slug: str) -> dict | None:
    """The technique after this one in the guide, to practise next."""
    if slug not in GUIDE:
        return None
    _, harder = neighbours(slug)
    return {"slug": harder.slug, "technique": harder.label} if harder else None


def _taken_out(game: Game) -> list[list[int]]:
    """The step's eliminations the player has made so far, as [cell, digit]: each is said
    as it is found, before the whole step is."""
    eliminations = game.practice_goal.get("eliminations", []) if game.practice_goal else []
    notes = game.notes if len(game.notes) == 81 else [[] for _ in range(81)]
    return [
        [cell, digit]
        for cell, digit in eliminations
        if game.values[cell] == "0" and digit not in notes[cell]
    ]
