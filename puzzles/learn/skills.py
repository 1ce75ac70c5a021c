"""The skill profile: per technique the player has met, what they practised and found, and
what to practise next, past what their own solves show they already use."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..accounts.players import Player
from ..models import Game
from .examples import slugs_with_examples
from .guide import GUIDE, SLUGS, Technique, slug_of_name


@dataclass
class Skill:
    technique: Technique
    practised: int
    found: int
    unaided: int
    has_example: bool
    solved: int = 0  # puzzles solved with no hint or reveal that needed it


def _solved_with(player: Player) -> tuple[Counter, set[str]]:
    """Per technique, the puzzles the player solved with no hint or reveal that needed it;
    and every technique met in a finished game, helped or not."""
    solved, met = Counter(), set()
    finished = player.all_games().exclude(status=Game.Status.PLAYING).filter(practice="")
    for status, hints, reveals, techniques in finished.values_list(
        "status", "hints", "reveals", "puzzle__techniques"
    ):
        slugs = {slug_of_name(name) for name in techniques or {}} - {""}
        met |= slugs
        if status == Game.Status.SOLVED and not hints and not reveals:
            solved.update(slugs)
    return solved, met


def skills(player: Player) -> tuple[list[Skill], Technique | None]:
    """The techniques the player has met (in a finished game or a practice game), each
    with its practice games played, steps found, found unaided (no hint, check or reveal
    in that game) and puzzles solved alone that needed it; and the technique to practise
    next: the easiest neither found unaided nor used in a solve of their own (among those
    with an example, when any has one)."""
    rows = (
        player.all_games()
        .practice_games()
        .values_list("practice", "practice_found_at", "practice_unaided")
    )
    practised, found, unaided = Counter(), Counter(), Counter()
    for slug, found_at, alone in rows:
        practised[slug] += 1
        if found_at is not None:
            found[slug] += 1
            if alone:
                unaided[slug] += 1
    available = slugs_with_examples()
    solved, met = _solved_with(player)
    every = [
        Skill(GUIDE[s], practised[s], found[s], unaided[s], s in available, solved[s])
        for s in SLUGS
    ]
    todo = [s for s in every if not s.unaided and not s.solved]
    todo = [s for s in todo if s.has_example] or ([] if available else todo)
    shown = [s for s in every if s.practised or s.technique.slug in met]
    return shown, (todo[0].technique if todo else None)
