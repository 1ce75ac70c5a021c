"""The human solving techniques, from easiest to hardest, with their tiers and ratings.

Ratings follow Sudoku Explainer's scale where it has the technique. X-Wing is rated 3.5
instead of SE's 3.2 because it belongs to the hard tier here, and a harder tier must never
score below an easier one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..board import Board, Step
from . import (
    chains,
    fish,
    forcing,
    intersections,
    single_digit,
    singles,
    subsets,
    wings,
)

DIFFICULTIES = ("easy", "medium", "hard", "expert")


@dataclass(frozen=True)
class Technique:
    """A named way of finding a step, with its tier and rating."""

    name: str
    tier: str
    rating: float
    find: Callable[[Board], Step | None]


LADDER = (
    Technique("Full House", "easy", 1.0, singles.full_house),
    Technique("Hidden Single", "easy", 1.2, singles.hidden_single_box),
    Technique("Hidden Single", "easy", 1.5, singles.hidden_single_line),
    Technique("Naked Single", "easy", 2.3, singles.naked_single),
    Technique("Pointing", "medium", 2.6, intersections.pointing),
    Technique("Claiming", "medium", 2.8, intersections.claiming),
    Technique("Naked Pair", "medium", 3.0, subsets.naked_pair),
    Technique("Hidden Pair", "medium", 3.4, subsets.hidden_pair),
    Technique("X-Wing", "hard", 3.5, fish.x_wing),
    Technique("Naked Triple", "hard", 3.6, subsets.naked_triple),
    Technique("Swordfish", "hard", 3.8, fish.swordfish),
    Technique("Hidden Triple", "hard", 4.0, subsets.hidden_triple),
    Technique("Skyscraper", "hard", 4.1, single_digit.skyscraper),
    Technique("Two-String Kite", "hard", 4.1, single_digit.two_string_kite),
    Technique("XY-Wing", "hard", 4.2, wings.xy_wing),
    Technique("W-Wing", "hard", 4.3, wings.w_wing),
    Technique("XYZ-Wing", "hard", 4.4, wings.xyz_wing),
    Technique("Simple Colouring", "hard", 4.5, single_digit.simple_colouring),
    Technique("Naked Quad", "hard", 5.0, subsets.naked_quad),
    Technique("Jellyfish", "hard", 5.2, fish.jellyfish),
    Technique("Hidden Quad", "hard", 5.4, subsets.hidden_quad),
    Technique("X-Chain", "expert", 6.5, chains.x_chain),
    Technique("XY-Chain", "expert", 6.6, chains.xy_chain),
    Technique("Alternating Inference Chain", "expert", 7.0, chains.alternating_inference_chain),
    Technique("Forcing Chain", "expert", 8.0, forcing.forcing_chain),
    Technique("Dynamic Forcing Chain", "expert", 9.0, forcing.dynamic_forcing_chain),
    Technique("Trial and Error", "expert", 10.0, forcing.trial_and_error),
)

TIER_OF = {t.name: t.tier for t in LADDER}
TIER_RANK = {tier: rank for rank, tier in enumerate(DIFFICULTIES)}


def find_step(board: Board, max_tier: str = "expert") -> Step | None:
    """The easiest step available in the position, trying techniques up to max_tier."""
    limit = TIER_RANK[max_tier]
    for technique in LADDER:
        if TIER_RANK[technique.tier] > limit:
            return None
        step = technique.find(board)
        if step is not None:
            return step
    return None
