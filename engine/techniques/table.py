"""Every technique's name, tier and rating, in the order the solver tries them.

This table is the one place they are written: the ladder is built from it, and each finder
gives its steps the name and rating listed here under the finder's own name.

Ratings follow Sudoku Explainer's scale where it has the technique. X-Wing is rated 3.5
instead of SE's 3.2 because it belongs to the hard tier here, and a harder tier must never
score below an easier one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Step


@dataclass(frozen=True)
class Entry:
    """A technique as the grader knows it, found by the function named `finder`."""

    finder: str
    name: str
    tier: str
    rating: float


TABLE = (
    Entry("full_house", "Full House", "easy", 1.0),
    Entry("hidden_single_box", "Hidden Single", "easy", 1.2),
    Entry("hidden_single_line", "Hidden Single", "easy", 1.5),
    Entry("naked_single", "Naked Single", "easy", 2.3),
    Entry("pointing", "Pointing", "medium", 2.6),
    Entry("claiming", "Claiming", "medium", 2.8),
    Entry("naked_pair", "Naked Pair", "medium", 3.0),
    Entry("hidden_pair", "Hidden Pair", "medium", 3.4),
    Entry("x_wing", "X-Wing", "hard", 3.5),
    Entry("naked_triple", "Naked Triple", "hard", 3.6),
    Entry("swordfish", "Swordfish", "hard", 3.8),
    Entry("hidden_triple", "Hidden Triple", "hard", 4.0),
    Entry("skyscraper", "Skyscraper", "hard", 4.1),
    Entry("two_string_kite", "Two-String Kite", "hard", 4.1),
    Entry("xy_wing", "XY-Wing", "hard", 4.2),
    Entry("w_wing", "W-Wing", "hard", 4.3),
    Entry("xyz_wing", "XYZ-Wing", "hard", 4.4),
    Entry("simple_colouring", "Simple Colouring", "hard", 4.5),
    Entry("naked_quad", "Naked Quad", "hard", 5.0),
    Entry("jellyfish", "Jellyfish", "hard", 5.2),
    Entry("hidden_quad", "Hidden Quad", "hard", 5.4),
    Entry("x_chain", "X-Chain", "expert", 6.5),
    Entry("xy_chain", "XY-Chain", "expert", 6.6),
    Entry("alternating_inference_chain", "Alternating Inference Chain", "expert", 7.0),
    Entry("forcing_chain", "Forcing Chain", "expert", 8.0),
    Entry("dynamic_forcing_chain", "Dynamic Forcing Chain", "expert", 9.0),
    Entry("trial_and_error", "Trial and Error", "expert", 10.0),
)

_BY_FINDER = {entry.finder: entry for entry in TABLE}


def step(
    finder: str,
    *,
    placements: list[tuple[int, int]] | None = None,
    eliminations: list[tuple[int, int]] | None = None,
    cells: list[int] | None = None,
    region: str = "",
    explanation: str = "",
) -> Step:
    """A step the named finder found, with the technique's name and rating from the table."""
    entry = _BY_FINDER[finder]
    return Step(
        entry.name,
        entry.rating,
        placements=placements or [],
        eliminations=eliminations or [],
        cells=cells or [],
        explanation=explanation,
        region=region,
    )
