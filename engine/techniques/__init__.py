"""The human solving techniques, from easiest to hardest: the ladder the solver climbs.

Each technique's name, tier and rating come from the table in `table.py`; its finder is
the function of the same name in one of the technique modules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..board import Board, Step
from ..i18n import N_
from . import (
    als,
    chains,
    finned_fish,
    fish,
    forcing,
    intersections,
    nested,
    single_digit,
    singles,
    subsets,
    sue_de_coq,
    uniqueness,
    wings,
)
from .table import TABLE

# The tiers' names, kept in English (stored and compared); said with `_` where shown.
DIFFICULTIES = (N_("easy"), N_("medium"), N_("hard"), N_("expert"), N_("master"), N_("extreme"))


@dataclass(frozen=True)
class Technique:
    """A named way of finding a step, with its tier and rating."""

    name: str
    tier: str
    rating: float
    find: Callable[[Board], Step | None]


_MODULES = (
    singles,
    intersections,
    subsets,
    fish,
    single_digit,
    wings,
    uniqueness,
    finned_fish,
    sue_de_coq,
    chains,
    als,
    forcing,
    nested,
)


def _finder(name: str) -> Callable[[Board], Step | None]:
    """The finding function of that name, in whichever technique module defines it."""
    (find,) = [getattr(module, name) for module in _MODULES if hasattr(module, name)]
    return find


LADDER = tuple(Technique(e.name, e.tier, e.rating, _finder(e.finder)) for e in TABLE)

TIER_OF = {t.name: t.tier for t in LADDER}
TIER_RANK = {tier: rank for rank, tier in enumerate(DIFFICULTIES)}


def find_step(board: Board, max_tier: str = "extreme") -> Step | None:
    """The easiest step available in the position, trying techniques up to max_tier."""
    limit = TIER_RANK[max_tier]
    for technique in LADDER:
        if TIER_RANK[technique.tier] > limit:
            return None
        step = technique.find(board)
        if step is not None:
            return step
    return None
