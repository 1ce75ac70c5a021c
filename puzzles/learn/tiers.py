"""The tiers said in words: a word or two for the cards, a line for the how-to-play page,
and the example board that page draws. The tiers are the engine's (docs/engine.md)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from ..models import Difficulty


@dataclass(frozen=True)
class Tier:
    """One difficulty: its name, what it needs in a word or two, and in a line."""

    value: str
    name: str
    short: str
    line: str


TIERS = {
    tier.value: tier
    for tier in (
        Tier(
            "easy",
            _("Easy"),
            _("Singles only"),
            _(
                "Every step is a single: a cell with one digit left, or a digit with one place "
                "left in its row, column or box."
            ),
        ),
        Tier(
            "medium",
            _("Medium"),
            _("Pairs and pointing"),
            _(
                "Adds pairs (two cells that share the same two digits) and a digit of a box "
                "that points along one row or column."
            ),
        ),
        Tier(
            "hard",
            _("Hard"),
            _("Wings and fish"),
            _(
                "Adds triples, X-Wing, Swordfish and XY-Wing: patterns across several rows, "
                "columns and boxes."
            ),
        ),
        Tier(
            "expert",
            _("Expert"),
            _("Chains"),
            _("Needs chains: links from note to note that rule a digit out."),
        ),
        Tier(
            "master",
            _("Master"),
            _("Forcing chains"),
            _("Needs forcing chains: every choice in a cell leads to the same digit."),
        ),
        Tier(
            "extreme",
            _("Extreme"),
            _("Nested forcing"),
            _("Needs forcing chains within forcing chains: the hardest puzzles there are."),
        ),
    )
}
assert list(TIERS) == list(Difficulty.values)

# The how-to-play page's board: an easy puzzle whose first row lacks one digit (a 4).
EXAMPLE = "530678912600195300098000060800060003400803001700020006060000280000419005000080079"
EXAMPLE_ROW = 0  # the row shaded: it lacks only the digit of its empty cell


def example_cells() -> list[dict]:
    """The example as the board partial draws it: the first row shaded as where to look,
    its one empty cell marked as the cell that changes."""
    cells = []
    for index, digit in enumerate(EXAMPLE):
        row, col = divmod(index, 9)
        cell = {"index": index, "row": row + 1, "col": col + 1, "notes": []}
        cell |= {"value": int(digit), "given": digit != "0"}
        if row == EXAMPLE_ROW:
            cell["hint"] = "target" if digit == "0" else "region"
        cells.append(cell)
    return cells


def tier_name(code: str) -> str:
    """A difficulty by its code as the page's language names it: in English the code
    itself ("easy", as sentences and badges have it), else the translated name
    ("Leicht"); an unknown code as it is."""
    if translation.get_language() == settings.LANGUAGE_CODE:
        return code
    try:
        return str(Difficulty(code).label)
    except ValueError:
        return code
