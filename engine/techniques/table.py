"""Every technique's name, tier and rating, in the order the solver tries them.

This table is the one place they are written: the ladder is built from it, and each finder
gives its steps the name and rating listed here under the finder's own name.

Ratings follow Sudoku Explainer's scale where it has the technique. X-Wing is rated 3.5
instead of SE's 3.2 because it belongs to the hard tier here, and a harder tier must never
score below an easier one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..board import Step


@dataclass(frozen=True)
class Entry:
    """A technique as the grader knows it, found by the function named `finder`: its
    formal `name` (as in HoDoKu and Sudoku Explainer), and for players a `plain` name and
    a one-line `summary` of what it means."""

    finder: str
    name: str
    tier: str
    rating: float
    plain: str = ""
    summary: str = ""

    @property
    def slug(self) -> str:
        """The formal name for URLs: 'hidden-single'."""
        return self.name.lower().replace(" ", "-")


TABLE = (
    Entry(
        "full_house",
        "Full House",
        "easy",
        1.0,
        "Last empty cell",
        "A row, column or box with one empty cell left: it takes the one digit missing.",
    ),
    Entry(
        "hidden_single_box",
        "Hidden Single",
        "easy",
        1.2,
        "Only place in a box",
        "A digit that can go in only one cell of a box goes there.",
    ),
    Entry(
        "hidden_single_line",
        "Hidden Single",
        "easy",
        1.5,
        "Only place in a row or column",
        "A digit that can go in only one cell of a row or column goes there.",
    ),
    Entry(
        "naked_single",
        "Naked Single",
        "easy",
        2.3,
        "Only digit that fits",
        "A cell whose row, column and box rule out all digits but one holds that one.",
    ),
    Entry(
        "pointing",
        "Pointing",
        "medium",
        2.6,
        "A box points along a line",
        "When a digit's places in a box all lie on one row or column, it leaves the rest of "
        "that line.",
    ),
    Entry(
        "claiming",
        "Claiming",
        "medium",
        2.8,
        "A line claims a box",
        "When a digit's places in a row or column all lie in one box, it leaves the rest of "
        "that box.",
    ),
    Entry(
        "naked_pair",
        "Naked Pair",
        "medium",
        3.0,
        "Two cells, two digits",
        "Two cells of a unit that can hold only the same two digits take them both: the rest "
        "of the unit cannot.",
    ),
    Entry(
        "hidden_pair",
        "Hidden Pair",
        "medium",
        3.4,
        "Two digits, two places",
        "Two digits that fit in only the same two cells of a unit fill those cells: nothing "
        "else can go there.",
    ),
    Entry(
        "x_wing",
        "X-Wing",
        "hard",
        3.5,
        "A digit's rectangle",
        "A digit with the same two places in two rows (or columns) fills those columns (rows) "
        "there, and leaves the rest of them.",
    ),
    Entry(
        "naked_triple",
        "Naked Triple",
        "hard",
        3.6,
        "Three cells, three digits",
        "Three cells of a unit that hold only three digits between them take those digits: "
        "the rest of the unit cannot.",
    ),
    Entry(
        "swordfish",
        "Swordfish",
        "hard",
        3.8,
        "A digit across three lines",
        "A digit whose places in three rows (or columns) lie in three columns (rows) fills "
        "them there, and leaves the rest of those lines.",
    ),
    Entry(
        "hidden_triple",
        "Hidden Triple",
        "hard",
        4.0,
        "Three digits, three places",
        "Three digits that fit in only three cells of a unit fill those cells: nothing else "
        "can go there.",
    ),
    Entry(
        "skyscraper",
        "Skyscraper",
        "hard",
        4.1,
        "Two lines with a shared end",
        "Two rows (or columns) where a digit has two places each, one end of each on a shared "
        "line: one of the other ends holds the digit.",
    ),
    Entry(
        "two_string_kite",
        "Two-String Kite",
        "hard",
        4.1,
        "A row and a column tied in a box",
        "A row and a column where a digit has two places each, one end of each in a shared "
        "box: one of the far ends holds the digit.",
    ),
    Entry(
        "xy_wing",
        "XY-Wing",
        "hard",
        4.2,
        "A pivot and two pincers",
        "A two-digit cell sees two others that share one digit: whichever the pivot is, one "
        "pincer holds that digit.",
    ),
    Entry(
        "w_wing",
        "W-Wing",
        "hard",
        4.3,
        "Two twin cells tied by a digit",
        "Two cells with the same two digits, tied by a digit with two places: one of them "
        "holds the other digit.",
    ),
    Entry(
        "xyz_wing",
        "XYZ-Wing",
        "hard",
        4.4,
        "A three-digit pivot and two pincers",
        "A three-digit cell sees two two-digit cells: one of the three holds their shared digit.",
    ),
    Entry(
        "simple_colouring",
        "Simple Colouring",
        "hard",
        4.5,
        "Colouring one digit",
        "Colour a digit's places linked in pairs in two colours: one colour is right, so a "
        "colour that clashes is wrong, and a cell seeing both colours loses the digit.",
    ),
    Entry(
        "naked_quad",
        "Naked Quad",
        "hard",
        5.0,
        "Four cells, four digits",
        "Four cells of a unit that hold only four digits between them take those digits: the "
        "rest of the unit cannot.",
    ),
    Entry(
        "jellyfish",
        "Jellyfish",
        "hard",
        5.2,
        "A digit across four lines",
        "A digit whose places in four rows (or columns) lie in four columns (rows) fills them "
        "there, and leaves the rest of those lines.",
    ),
    Entry(
        "hidden_quad",
        "Hidden Quad",
        "hard",
        5.4,
        "Four digits, four places",
        "Four digits that fit in only four cells of a unit fill those cells: nothing else can "
        "go there.",
    ),
    Entry(
        "x_chain",
        "X-Chain",
        "expert",
        6.5,
        "A chain of one digit",
        "Follow a digit's places linked in pairs: the ends of the chain cannot both be wrong.",
    ),
    Entry(
        "xy_chain",
        "XY-Chain",
        "expert",
        6.6,
        "A chain of two-digit cells",
        "Follow two-digit cells, each sharing a digit with the next: the ends of the chain "
        "cannot both be wrong.",
    ),
    Entry(
        "alternating_inference_chain",
        "Alternating Inference Chain",
        "expert",
        7.0,
        "A chain of links",
        "Follow links between places and digits: the ends of the chain cannot both be wrong.",
    ),
    Entry(
        "forcing_chain",
        "Forcing Chain",
        "expert",
        8.0,
        "Every choice leads the same way",
        "Try each choice of a cell or a place in turn: what follows from all of them is true.",
    ),
    Entry(
        "dynamic_forcing_chain",
        "Dynamic Forcing Chain",
        "expert",
        9.0,
        "Every choice, followed further",
        "Try each choice and follow everything it forces: what follows from all of them is true.",
    ),
    Entry(
        "trial_and_error",
        "Trial and Error",
        "expert",
        10.0,
        "Trying each digit",
        "No pattern helps: try the digits of a cell one by one and see which lead to a dead end.",
    ),
)

# What a hint points out before any technique: these are not solving techniques.
CHECKS = (
    Entry(
        "conflict",
        "Conflict",
        "",
        0.0,
        "Same digit twice",
        "A row, column or box can hold each digit only once.",
    ),
    Entry(
        "mistake",
        "Mistake",
        "",
        0.0,
        "A digit that does not belong",
        "A digit placed where the puzzle cannot be finished with it.",
    ),
    Entry(
        "missing_candidate",
        "Missing Candidate",
        "",
        0.0,
        "Notes that lost their answer",
        "Digits were taken out of a cell's notes, the digit that belongs there among them.",
    ),
)

_BY_FINDER = {entry.finder: entry for entry in TABLE + CHECKS}
_BY_NAME: dict[str, Entry] = {}
for _entry in TABLE + CHECKS:
    _BY_NAME.setdefault(_entry.name, _entry)


def entry_for(step: Step) -> Entry:
    """The table's entry of a step's technique (a hidden single: by the unit it is in)."""
    if step.technique == "Hidden Single" and step.units and step.units[0] < 18:
        return _BY_FINDER["hidden_single_line"]
    return _BY_NAME.get(step.technique) or Entry("", step.technique, "", step.rating)


def step(
    finder: str,
    *,
    placements: list[tuple[int, int]] | None = None,
    eliminations: list[tuple[int, int]] | None = None,
    cells: list[int] | None = None,
    units: list[int] | None = None,
    tell: Callable[[], dict[str, Any]] | None = None,
    **words: Any,
) -> Step:
    """A step the named finder found, with the technique's name and rating from the table,
    told by words or by tell() (see Step)."""
    entry = _BY_FINDER[finder]
    return Step(
        entry.name,
        entry.rating,
        placements=placements,
        eliminations=eliminations,
        cells=cells,
        units=units,
        tell=tell,
        **words,
    )
