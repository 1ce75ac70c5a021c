"""The skill profile: per technique, what the player practised and found."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..accounts.players import Player
from .examples import slugs_with_examples
from .guide import GUIDE, SLUGS, Technique


@dataclass
class Skill:
    technique: Technique
    practised: int
    found: int
    unaided: int
    has_example: bool


def skills(player: Player) -> tuple[list[Skill], Technique | None]:
    """Per technique: practice games played, steps found, found unaided (no hint, check or
    reveal in that game); and the technique to practise next: the easiest not yet found
    unaided (among those with an example, when any has one)."""
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
    result = [Skill(GUIDE[s], practised[s], found[s], unaided[s], s in available) for s in SLUGS]
    todo = [s for s in result if not s.unaided]
    todo = [s for s in todo if s.has_example] or ([] if available else todo)
    return result, (todo[0].technique if todo else None)
