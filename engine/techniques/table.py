"""Every technique's name, tier and rating, in the order the solver tries them.

The names, plain names and summaries are kept in English, the identities stored and
compared; an `Entry` says them in the current language with `said_name`, `said_plain`,
`said_label` and `said_summary`.

This table is the one place they are written: the ladder is built from it, and each finder
gives its steps the name and rating listed here under the finder's own name.

Ratings follow Sudoku Explainer's scale where it has the technique. X-Wing is rated 3.5
instead of SE's 3.2 because it belongs to the hard tier here, and a harder tier must never
score below an easier one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..board import Step
from ..i18n import N_, _


def _standard(name: str) -> str:
    """A standard name inside a sentence: ordinary words in lower case, letters kept:
    'hidden single', 'XY-wing', 'two-string kite'."""
    return re.sub(r"[A-Za-z]+", lambda m: m[0] if m[0].isupper() else m[0].lower(), name)


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
    form_of: str = ""  # for one form of a technique (see FORMS): the technique's name

    @property
    def label(self) -> str:
        """The one name a player sees for it, in hints, walkthrough, end panel and guide:
        the plain name with the standard one beside it, 'Only place in a box (hidden
        single)'."""
        if not self.plain or self.plain.lower() == self.name.lower():
            return self.plain or self.name
        return f"{self.plain} ({_standard(self.name)})"

    @property
    def said_name(self) -> str:
        """The formal name in the current language: 'Hidden Single'."""
        return _(self.name) if self.name else ""

    @property
    def said_plain(self) -> str:
        """The plain name in the current language: 'Only place in a box'."""
        return _(self.plain) if self.plain else ""

    @property
    def said_summary(self) -> str:
        """The one-line summary in the current language."""
        return _(self.summary) if self.summary else ""

    @property
    def said_label(self) -> str:
        """The label (see `label`) in the current language: 'Only place in a box (hidden
        single)'. A formal name the language keeps in English is written as in an English
        sentence ('hidden single'); a translated one as its translation has it."""
        if not self.plain or self.plain.lower() == self.name.lower():
            return self.said_plain or self.said_name
        name = self.said_name
        standard = _standard(self.name) if name == self.name else name
        # Translators: a technique's label: its plain name, then its formal name in brackets,
        # "Only place in a box (hidden single)".
        return _("{plain} ({name})").format(plain=self.said_plain, name=standard)

    @property
    def slug(self) -> str:
        """The formal name for URLs: 'hidden-single'."""
        return re.sub(r"[^a-z0-9]+", "-", (self.form_of or self.name).lower()).strip("-")


TABLE = (
    Entry(
        "full_house",
        N_("Full House"),
        "easy",
        1.0,
        N_("Last empty cell"),
        N_("A row, column or box with one empty cell left: it takes the one digit missing."),
    ),
    Entry(
        "hidden_single_box",
        N_("Hidden Single"),
        "easy",
        1.2,
        N_("Only place in a box"),
        N_("A digit that can go in only one cell of a box goes there."),
    ),
    Entry(
        "hidden_single_line",
        N_("Hidden Single"),
        "easy",
        1.5,
        N_("Only place in a row or column"),
        N_("A digit that can go in only one cell of a row or column goes there."),
    ),
    Entry(
        "naked_single",
        N_("Naked Single"),
        "easy",
        2.3,
        N_("Only digit that fits"),
        N_("A cell whose row, column and box rule out all digits but one holds that one."),
    ),
    Entry(
        "pointing",
        N_("Pointing"),
        "medium",
        2.6,
        N_("A box points along a line"),
        N_(
            "When a digit's places in a box all lie on one row or column, it leaves the rest of "
            "that line."
        ),
    ),
    Entry(
        "claiming",
        N_("Claiming"),
        "medium",
        2.8,
        N_("A line claims a box"),
        N_(
            "When a digit's places in a row or column all lie in one box, it leaves the rest of "
            "that box."
        ),
    ),
    Entry(
        "naked_pair",
        N_("Naked Pair"),
        "medium",
        3.0,
        N_("Two cells, two digits"),
        N_(
            "Two cells of a unit that can hold only the same two digits take them both: the rest "
            "of the unit cannot."
        ),
    ),
    Entry(
        "hidden_pair",
        N_("Hidden Pair"),
        "medium",
        3.4,
        N_("Two digits, two places"),
        N_(
            "Two digits that fit in only the same two cells of a unit fill those cells: nothing "
            "else can go there."
        ),
    ),
    Entry(
        "x_wing",
        N_("X-Wing"),
        "hard",
        3.5,
        N_("A digit's rectangle"),
        N_(
            "A digit with the same two places in two rows (or columns) fills those columns (rows) "
            "there, and leaves the rest of them."
        ),
    ),
    Entry(
        "naked_triple",
        N_("Naked Triple"),
        "hard",
        3.6,
        N_("Three cells, three digits"),
        N_(
            "Three cells of a unit that hold only three digits between them take those digits: "
            "the rest of the unit cannot."
        ),
    ),
    Entry(
        "swordfish",
        N_("Swordfish"),
        "hard",
        3.8,
        N_("A digit across three lines"),
        N_(
            "A digit whose places in three rows (or columns) lie in three columns (rows) fills "
            "them there, and leaves the rest of those lines."
        ),
    ),
    Entry(
        "hidden_triple",
        N_("Hidden Triple"),
        "hard",
        4.0,
        N_("Three digits, three places"),
        N_(
            "Three digits that fit in only three cells of a unit fill those cells: nothing else "
            "can go there."
        ),
    ),
    Entry(
        "skyscraper",
        N_("Skyscraper"),
        "hard",
        4.1,
        N_("Two lines with a shared end"),
        N_(
            "Two rows (or columns) where a digit has two places each, one end of each on a shared "
            "line: one of the other ends holds the digit."
        ),
    ),
    Entry(
        "two_string_kite",
        N_("Two-String Kite"),
        "hard",
        4.1,
        N_("A row and a column tied in a box"),
        N_(
            "A row and a column where a digit has two places each, one end of each in a shared "
            "box: one of the far ends holds the digit."
        ),
    ),
    Entry(
        "empty_rectangle",
        N_("Empty Rectangle"),
        "hard",
        4.1,
        N_("A box's cross and a linked pair"),
        N_(
            "A digit whose places in a box lie on one row and one column of it, and a line where "
            "the "
            "digit has two places, one on that row (or column): the far end's crossing loses it."
        ),
    ),
    Entry(
        "finned_x_wing",
        N_("Finned X-Wing"),
        "hard",
        4.1,
        N_("An X-Wing with a fin"),
        N_(
            "An X-Wing with extra places (fins) in one box: either a fin holds the digit or the "
            "X-Wing "
            "does, so the cells of the X-Wing's columns in that box lose it."
        ),
    ),
    Entry(
        "xy_wing",
        N_("XY-Wing"),
        "hard",
        4.2,
        N_("A pivot and two pincers"),
        N_(
            "A two-digit cell sees two others that share one digit: whichever the pivot is, one "
            "pincer holds that digit."
        ),
    ),
    Entry(
        "w_wing",
        N_("W-Wing"),
        "hard",
        4.3,
        N_("Two twin cells tied by a digit"),
        N_(
            "Two cells with the same two digits, tied by a digit with two places: one of them "
            "holds the other digit."
        ),
    ),
    Entry(
        "sashimi_x_wing",
        N_("Sashimi X-Wing"),
        "hard",
        4.3,
        N_("An X-Wing missing a corner"),
        N_(
            "A finned X-Wing one of whose corners is gone: still, either a fin holds the digit or "
            "the "
            "X-Wing does."
        ),
    ),
    Entry(
        "xyz_wing",
        N_("XYZ-Wing"),
        "hard",
        4.4,
        N_("A three-digit pivot and two pincers"),
        N_(
            "A cell of three digits sees two cells of two: one of the three holds their shared "
            "digit."
        ),
    ),
    Entry(
        "simple_colouring",
        N_("Simple Colouring"),
        "hard",
        4.5,
        N_("Colouring one digit"),
        N_(
            "Colour a digit's places linked in pairs in two colours: one colour is right, so a "
            "colour that clashes is wrong, and a cell seeing both colours loses the digit."
        ),
    ),
    Entry(
        "unique_rectangle_1",
        N_("Unique Rectangle Type 1"),
        "hard",
        4.5,
        N_("A rectangle that must not be"),
        N_(
            "Four cells on two rows, columns and boxes cannot hold only the same two digits (the "
            "puzzle would have two solutions): if three hold only those two, the fourth holds "
            "another."
        ),
    ),
    Entry(
        "unique_rectangle_2",
        N_("Unique Rectangle Type 2"),
        "hard",
        4.5,
        N_("A rectangle with one extra digit"),
        N_(
            "A rectangle of two-digit cells where two corners carry the same third digit: one of "
            "them holds it, so cells that see both cannot."
        ),
    ),
    Entry(
        "unique_rectangle_4",
        N_("Unique Rectangle Type 4"),
        "hard",
        4.5,
        N_("A rectangle with a locked digit"),
        N_(
            "A rectangle's two extra corners share a unit where one of the pair's digits can go "
            "only in them: neither can be the other digit."
        ),
    ),
    Entry(
        "unique_rectangle_3",
        N_("Unique Rectangle Type 3"),
        "hard",
        4.6,
        N_("A rectangle joining a subset"),
        N_(
            "A rectangle's two extra corners act as one cell holding their extra digits, and "
            "form a naked subset with other cells of a unit they share."
        ),
    ),
    Entry(
        "naked_quad",
        N_("Naked Quad"),
        "hard",
        5.0,
        N_("Four cells, four digits"),
        N_(
            "Four cells of a unit that hold only four digits between them take those digits: the "
            "rest of the unit cannot."
        ),
    ),
    Entry(
        "jellyfish",
        N_("Jellyfish"),
        "hard",
        5.2,
        N_("A digit across four lines"),
        N_(
            "A digit whose places in four rows (or columns) lie in four columns (rows) fills them "
            "there, and leaves the rest of those lines."
        ),
    ),
    Entry(
        "hidden_quad",
        N_("Hidden Quad"),
        "hard",
        5.4,
        N_("Four digits, four places"),
        N_(
            "Four digits that fit in only four cells of a unit fill those cells: nothing else can "
            "go there."
        ),
    ),
    Entry(
        "bug_plus_1",
        N_("BUG+1"),
        "hard",
        5.6,
        N_("One cell with three digits"),
        N_(
            "When every empty cell but one has two candidates, the board could be solved two ways "
            "unless that cell holds the digit with three places in its row, column and box."
        ),
    ),
    Entry(
        "finned_swordfish",
        N_("Finned Swordfish"),
        "expert",
        6.0,
        N_("A swordfish with a fin"),
        N_(
            "A swordfish with extra places (fins) in one box: either a fin holds the digit or the "
            "swordfish does, so the cells of its columns in that box lose it."
        ),
    ),
    Entry(
        "sashimi_swordfish",
        N_("Sashimi Swordfish"),
        "expert",
        6.2,
        N_("A swordfish missing a corner"),
        N_(
            "A finned swordfish with a line left one place outside its fins: still, either a fin "
            "holds the digit or the swordfish does."
        ),
    ),
    Entry(
        "finned_jellyfish",
        N_("Finned Jellyfish"),
        "expert",
        6.3,
        N_("A jellyfish with a fin"),
        N_(
            "A jellyfish with extra places (fins) in one box: either a fin holds the digit or the "
            "jellyfish does, so the cells of its columns in that box lose it."
        ),
    ),
    Entry(
        "sue_de_coq",
        N_("Sue de Coq"),
        "expert",
        6.3,
        N_("A box and a line sharing digits"),
        N_(
            "Cells where a box meets a line, with cells of the line and of the box, hold as many "
            "digits as cells: each part keeps its digits, and the rest of the line and the box "
            "lose them."
        ),
    ),
    Entry(
        "sashimi_jellyfish",
        N_("Sashimi Jellyfish"),
        "expert",
        6.4,
        N_("A jellyfish missing a corner"),
        N_(
            "A finned jellyfish with a line left one place outside its fins: still, either a fin "
            "holds the digit or the jellyfish does."
        ),
    ),
    Entry(
        "x_chain",
        N_("X-Chain"),
        "expert",
        6.5,
        N_("A chain of one digit"),
        N_("Follow a digit's places linked in pairs: the ends of the chain cannot both be wrong."),
    ),
    Entry(
        "xy_chain",
        N_("XY-Chain"),
        "expert",
        6.6,
        N_("A chain of two-digit cells"),
        N_(
            "Follow two-digit cells, each sharing a digit with the next: the ends of the chain "
            "cannot both be wrong."
        ),
    ),
    Entry(
        "alternating_inference_chain",
        N_("Alternating Inference Chain"),
        "expert",
        7.0,
        N_("A chain of links"),
        N_("Follow links between places and digits: the ends of the chain cannot both be wrong."),
    ),
    Entry(
        "als_xz",
        N_("ALS-XZ"),
        "expert",
        7.1,
        N_("Two almost-full groups"),
        N_(
            "Two groups of cells, each with one digit more than cells, tied by a digit that "
            "cannot be "
            "in both: one group is locked, so a digit both hold leaves the cells that see all of "
            "its places."
        ),
    ),
    Entry(
        "als_xy_wing",
        N_("ALS-XY-Wing"),
        "expert",
        7.2,
        N_("Three almost-full groups"),
        N_(
            "Two groups tied to a third by different digits: the third cannot lose both, so one of "
            "the two is locked, and a digit both hold leaves the cells that see all of its places."
        ),
    ),
    Entry(
        "forcing_chain",
        N_("Forcing Chain"),
        "master",
        8.0,
        N_("Follow a guess to its end"),
        N_(
            "Follow what a guess forces: a guess that breaks the grid is false, and what every "
            "choice of a cell or a unit forces is true."
        ),
    ),
    Entry(
        "dynamic_forcing_chain",
        N_("Dynamic Forcing Chain"),
        "extreme",
        9.0,
        N_("Follow a guess further"),
        N_("A forcing chain that follows locked candidates and pairs as well as singles."),
    ),
    Entry(
        "nested_forcing_chain",
        N_("Nested Forcing Chain"),
        "extreme",
        9.5,
        N_("Choices inside choices"),
        N_(
            "Try each choice and follow what it forces, trying on the way each digit to see "
            "whether "
            "its own singles lead to a dead end: what follows from all choices is true."
        ),
    ),
    Entry(
        "nested_forcing_chain_2",
        N_("Nested Forcing Chain (level 2)"),
        "extreme",
        10.5,
        N_("Choices inside choices, followed further"),
        N_(
            "The same, each digit tried on the way followed through singles, locked candidates and "
            "pairs."
        ),
    ),
    Entry(
        "trial_and_error",
        N_("Trial and Error"),
        "extreme",
        12.0,
        N_("Trying each digit"),
        N_(
            "No pattern helps: try the digits of a cell one by one and see which lead to a dead "
            "end."
        ),
    ),
)

# What a hint points out before any technique: these are not solving techniques.
CHECKS = (
    Entry(
        "conflict",
        N_("Conflict"),
        "",
        0.0,
        N_("Same digit twice"),
        N_("A row, column or box can hold each digit only once."),
    ),
    Entry(
        "mistake",
        N_("Mistake"),
        "",
        0.0,
        N_("A digit that does not belong"),
        N_("A digit placed where the puzzle cannot be finished with it."),
    ),
    Entry(
        "missing_candidate",
        N_("Missing Candidate"),
        "",
        0.0,
        N_("Notes that lost their answer"),
        N_("Digits were taken out of a cell's notes, the digit that belongs there among them."),
    ),
    Entry(
        "impossible_note",
        N_("Impossible Note"),
        "",
        0.0,
        N_("A note that cannot be right"),
        N_("A note of a digit that the cell's row, column or box already holds."),
    ),
)

# The forms of a technique that players know by their own names (Sudoku Explainer's and
# HoDoKu's): (finder, a step's kind) -> (name, plain name, summary). A form keeps its
# technique's page (slug) and its place in grades.
FORMS = {
    ("forcing_chain", "contradiction"): (
        N_("Contradiction Forcing Chain"),
        N_("A guess that breaks the grid"),
        N_(
            "Suppose a candidate is true and follow the singles it forces: if some cell is left "
            "with no candidate, or some digit with no place in a unit, the candidate is false."
        ),
    ),
    ("forcing_chain", "cell"): (
        N_("Cell Forcing Chain"),
        N_("Every digit of a cell leads the same way"),
        N_(
            "Try each candidate of a cell in turn and follow the singles it forces: what follows "
            "from all of them is true."
        ),
    ),
    ("forcing_chain", "unit"): (
        N_("Unit Forcing Chain"),
        N_("Every place of a digit leads the same way"),
        N_(
            "Try each place of a digit in a row, column or box in turn and follow the singles it "
            "forces: what follows from all of them is true."
        ),
    ),
    ("dynamic_forcing_chain", "contradiction"): (
        N_("Dynamic Contradiction Forcing Chain"),
        N_("A guess that breaks the grid, followed further"),
        N_(
            "Suppose a candidate is true and follow singles, locked candidates and pairs: if the "
            "grid breaks, the candidate is false."
        ),
    ),
    ("dynamic_forcing_chain", "cell"): (
        N_("Dynamic Cell Forcing Chain"),
        N_("Every digit of a cell, followed further"),
        N_(
            "Try each candidate of a cell and follow singles, locked candidates and pairs: what "
            "follows from all of them is true."
        ),
    ),
    ("dynamic_forcing_chain", "unit"): (
        N_("Dynamic Unit Forcing Chain"),
        N_("Every place of a digit, followed further"),
        N_(
            "Try each place of a digit in a unit and follow singles, locked candidates and pairs: "
            "what follows from all of them is true."
        ),
    ),
}

_BY_FINDER = {entry.finder: entry for entry in TABLE + CHECKS}
_BY_NAME: dict[str, Entry] = {}
for _entry in TABLE + CHECKS:
    _BY_NAME.setdefault(_entry.name, _entry)


def entry_of(finder: str) -> Entry:
    """The table's entry of a finder."""
    return _BY_FINDER[finder]


def entry_for(step: Step) -> Entry:
    """The table's entry of a step's technique (a hidden single: by the unit it is in)."""
    if step.technique == "Hidden Single" and step.units and step.units[0] < 18:
        return _BY_FINDER["hidden_single_line"]
    return _BY_NAME.get(step.technique) or Entry("", step.technique, "", step.rating)


def told_entry(step: Step) -> Entry:
    """The entry a player sees for a step: its technique's, or the form's (a contradiction
    forcing chain), which keeps the technique's page."""
    entry = entry_for(step)
    form = FORMS.get((entry.finder, step.kind)) if step.kind else None
    if form is None:
        return entry
    name, plain, summary = form
    return replace(entry, name=name, plain=plain, summary=summary, form_of=entry.name)


def step(
    finder: str,
    *,
    placements: list[tuple[int, int]] | None = None,
    eliminations: list[tuple[int, int]] | None = None,
    cells: list[int] | None = None,
    units: list[int] | None = None,
    tell: Callable[[], dict[str, Any]] | None = None,
    rating: float | None = None,
    **words: Any,
) -> Step:
    """A step the named finder found, with the technique's name and rating from the table
    (or `rating`, for a technique whose steps are rated by their size or length), told by
    words or by tell() (see Step)."""
    entry = _BY_FINDER[finder]
    return Step(
        entry.name,
        entry.rating if rating is None else rating,
        placements=placements,
        eliminations=eliminations,
        cells=cells,
        units=units,
        tell=tell,
        **words,
    )
