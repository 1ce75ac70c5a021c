"""The technique guide: a page per technique of the grader's table, by slug, and the grade
shown in the open.

The pages follow engine/techniques/table.py: the two hidden singles (in a box, in a row or
column) share the page "hidden-single", as they share the slug a hint gives.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext_lazy as _

import engine
from engine import TECHNIQUES, Entry, entry_for

from ..models import Puzzle


@dataclass
class Technique:
    """A page of the guide: one slug, with the table's entries under it."""

    slug: str
    name: str
    tier: str
    entries: list[Entry] = field(default_factory=list)

    @property
    def plain(self) -> str:
        """The plain name in the current language."""
        return self.entries[0].said_plain

    @property
    def said_name(self) -> str:
        """The formal name in the current language: 'Hidden Single'."""
        return self.entries[0].said_name

    @property
    def label(self) -> str:
        """The name players see, as in hints, in the current language: 'Only place in a
        box, row or column (hidden single)' for the page the two hidden singles share."""
        first = self.entries[0]
        if len(self.entries) == 1:
            return first.said_label
        standard = first.said_label[len(first.said_plain) :]
        if translation.get_language() != settings.LANGUAGE_CODE:
            return " / ".join(self.plain_names) + standard
        words = [plain.split() for plain in self.plain_names]
        shared = 0
        while all(len(w) > shared + 1 and w[shared] == words[0][shared] for w in words):
            shared += 1
        rest = ", ".join(" ".join(w[shared:]) for w in words)
        return " ".join([*words[0][:shared], rest]) + standard

    @property
    def plain_names(self) -> list[str]:
        return [e.said_plain for e in self.entries]

    @property
    def summaries(self) -> list[str]:
        return [e.said_summary for e in self.entries]

    @property
    def rating(self) -> float:
        return self.entries[0].rating

    @property
    def ratings(self) -> str:
        """1.2-1.5, or 3.5."""
        low, high = self.entries[0].rating, self.entries[-1].rating
        return f"{low:.1f}" if low == high else f"{low:.1f}-{high:.1f}"

    @property
    def more(self) -> str:
        return HOW_TO_LOOK.get(self.slug, "")


def _guide() -> dict[str, Technique]:
    pages: dict[str, Technique] = {}
    for entry in TECHNIQUES:
        page = pages.setdefault(entry.slug, Technique(entry.slug, entry.name, entry.tier))
        page.entries.append(entry)
    return pages


GUIDE = _guide()
SLUGS = tuple(GUIDE)  # easiest first, the order the solver tries them


# A few plain sentences per technique on how to spot it: the table's summary says what it
# means, these say where to look.
HOW_TO_LOOK = {
    "full-house": _(
        "Scan for a row, column or box with eight digits in it. Whatever digit is "
        "missing goes in the empty cell."
    ),
    "hidden-single": _(
        "Pick a digit and a box (or a row, or a column). Cross out every cell "
        "that the digit already sees in its row, column or box. If one cell is left, the digit "
        "goes there, whatever else that cell could hold."
    ),
    "naked-single": _(
        "Look at one empty cell and list the digits its row, column and box "
        "already hold. When eight of the nine are taken, the ninth is the answer."
    ),
    "pointing": _(
        "In a box, find a digit whose possible cells all sit in one row (or one "
        "column). The digit must go in that box's part of the line, so it can go nowhere else "
        "on that line."
    ),
    "claiming": _(
        "In a row or column, find a digit whose possible cells all sit inside one "
        "box. The line needs the digit there, so the other cells of that box cannot have it."
    ),
    "naked-pair": _(
        "Look for two cells in a unit whose notes are the same two digits. Those "
        "two digits are used up by the pair: take them out of the notes of the rest of the unit."
    ),
    "hidden-pair": _(
        "Look for two digits that appear in the notes of only the same two cells "
        "of a unit. Those cells must hold them, so any other notes in the two cells can go."
    ),
    "x-wing": _(
        "Pick a digit. Find two rows where it has exactly two places, in the same two "
        "columns. The digit fills those columns in one of two ways, so the rest of both columns "
        "loses it. The same works with rows and columns swapped."
    ),
    "naked-triple": _(
        "Three cells of a unit whose notes use only three digits between them "
        "(not every cell needs all three) hold exactly those digits: the rest of the unit loses "
        "them."
    ),
    "swordfish": _(
        "An X-Wing on three lines: a digit whose places in three rows all fall in "
        "the same three columns. Those columns lose the digit everywhere else."
    ),
    "hidden-triple": _(
        "Three digits that appear in only three cells of a unit fill those "
        "cells: every other note in the three cells can go."
    ),
    "skyscraper": _(
        "A digit with two places in each of two rows, one end of each in the same "
        "column. One of the two other ends holds the digit, so cells that see both of them lose "
        "it."
    ),
    "two-string-kite": _(
        "A digit with two places in a row and two in a column, one end of "
        "each in the same box. One of the far ends holds the digit, so a cell that sees both "
        "far ends loses it."
    ),
    "empty-rectangle": _(
        "Pick a digit and a box where its places all lie on one row and one "
        "column of the box (the rest of the box cannot hold it). Find a line outside the box where "
        "the digit has two places, one of them on that row (or column). Where the other end's line "
        "crosses the box's column (row), the digit cannot be."
    ),
    "finned-x-wing": _(
        "Look for an X-Wing that almost works: two rows where a digit sits in two "
        "shared columns, but one row has an extra place or two (the fin) in a box of its own. If "
        "the fin is not the digit, the X-Wing holds; either way the cells of the X-Wing's columns "
        "in the fin's box, which see the fin, lose the digit."
    ),
    "xy-wing": _(
        "A cell with two digits, XY (the pivot), sees a cell XZ and a cell YZ (the "
        "pincers). Whichever digit the pivot takes, one pincer is Z: a cell that sees both "
        "pincers cannot be Z."
    ),
    "w-wing": _(
        "Two cells with the same two notes, XY, that do not see each other, and a "
        "digit X with only two places in a unit, each seen by one of them. One of the two cells "
        "is Y: cells that see both lose Y."
    ),
    "sashimi-x-wing": _(
        "A finned X-Wing where a corner of the X-Wing is missing: one row has "
        "only one place in the two columns besides its fin. The reasoning is the same: the fin or "
        "the X-Wing holds the digit, and the cells in the fin's box that see both lose it."
    ),
    "xyz-wing": _(
        "A pivot with three digits XYZ sees a cell XZ and a cell YZ. One of the "
        "three holds Z: a cell that sees all three cannot be Z."
    ),
    "simple-colouring": _(
        "Follow one digit through units where it has exactly two places, "
        "colouring the places in turn with two colours. One colour is the truth: if a colour "
        "meets itself in a unit it is false, and a cell that sees both colours loses the digit."
    ),
    "unique-rectangle-type-1": _(
        "Find four cells at the corners of a rectangle, on two rows, "
        "two columns and two boxes, three of them with the same two notes. A proper puzzle has one "
        "solution, and four cells holding only those two digits could swap them: so the fourth "
        "corner holds one of its other notes, and loses the two."
    ),
    "unique-rectangle-type-2": _(
        "A rectangle on two boxes where two corners side by side hold "
        "only the pair, and the other two hold the pair plus the same third digit. Without that "
        "digit the rectangle could swap its pair, so one of the two is the third digit: cells that "
        "see both lose it."
    ),
    "unique-rectangle-type-4": _(
        "A rectangle on two boxes where two corners side by side hold "
        "only the pair XY. If the other two corners share a row, column or box where X can go only "
        "in them, one of them is X; the other being Y would make the deadly pattern, so both lose "
        "Y."
    ),
    "unique-rectangle-type-3": _(
        "A rectangle on two boxes where two corners side by side hold "
        "only the pair. One of the other two corners holds an extra digit: treat their extras as "
        "one cell, and look for a naked pair or triple it makes with other cells of their row, "
        "column or box."
    ),
    "naked-quad": _(
        "Four cells of a unit whose notes use only four digits between them hold "
        "exactly those digits: the rest of the unit loses them."
    ),
    "jellyfish": _(
        "The fish on four lines: a digit whose places in four rows fall in the same "
        "four columns. Those columns lose the digit everywhere else."
    ),
    "hidden-quad": _(
        "Four digits that appear in only four cells of a unit fill those cells: "
        "every other note in the four cells can go."
    ),
    "bug-1": _(
        "Late in a puzzle, when every empty cell has two notes but one cell has three, "
        "look at that cell. Were it either of the two digits that already have two places in its "
        "row, column and box, the board could be finished two ways; the digit with three places "
        "there is the answer."
    ),
    "finned-swordfish": _(
        "A swordfish (three rows whose places for a digit lie in three "
        "columns) but for a fin: extra places in one box. The fin or the swordfish holds the "
        "digit, so the cells of the three columns inside the fin's box lose it."
    ),
    "sashimi-swordfish": _(
        "A finned swordfish where one row has only one place in the columns "
        "besides its fin. Either way round, the cells of the columns inside the fin's box lose the "
        "digit."
    ),
    "finned-jellyfish": _(
        "The finned fish on four lines: four rows whose places for a digit lie "
        "in four columns but for a fin in one box. The cells of the columns inside that box lose "
        "the digit."
    ),
    "sue-de-coq": _(
        "Where a box meets a row (or column), find two or three empty cells whose "
        "notes hold at least two digits more than there are cells. Add cells of the row and cells "
        "of the box, with no digit in common between those two groups, until the cells hold as "
        "many digits as there are cells: the row's digits leave the rest of the row, the box's "
        "the rest of the box."
    ),
    "sashimi-jellyfish": _(
        "A finned jellyfish where one row has only one place in the columns "
        "besides its fin. The cells of the columns inside the fin's box still lose the digit."
    ),
    "x-chain": _(
        "Link a digit's places that are the only two in a unit. Along the chain the "
        "places are alternately on and off; if the two ends cannot both be off, a cell that sees "
        "both ends loses the digit."
    ),
    "xy-chain": _(
        "Chain two-digit cells, each sharing a digit with the next. If the first "
        "cell is not Z, the chain forces the last to be Z: a cell that sees both ends cannot "
        "be Z."
    ),
    "alternating-inference-chain": _(
        "Mix links of places and of digits in a cell, strong and "
        "weak in turn. The two ends cannot both be false, so whatever sees both loses it."
    ),
    "als-xz": _(
        "An almost locked set is a group of cells in one unit with one digit more than "
        "cells (a two-digit cell is the smallest). Find two that share a digit X whose places in "
        "the one all see its places in the other: X is in one set at most, so the other is locked. "
        "A digit Z both sets hold is then in one of them: cells that see all its places lose it."
    ),
    "als-xy-wing": _(
        "Three almost locked sets: a pivot tied to one set by X and to another by "
        "Y (each time every place of the digit in one sees every place in the other). The pivot "
        "cannot lose both X and Y, so one of the two sets is locked: a digit Z they both hold "
        "leaves the cells that see all its places."
    ),
    "forcing-chain": _(
        "Three forms, told link by link. A contradiction forcing chain supposes "
        "one candidate and follows the singles it forces until some cell has no candidate left, "
        "or some digit no place in a unit: the candidate is false. A cell forcing chain tries "
        "each candidate of a cell, a unit forcing chain each place of a digit in a row, column or "
        "box: whatever every choice leads to is true."
    ),
    "dynamic-forcing-chain": _(
        "Like a forcing chain, but following everything each choice "
        "forces, eliminations included, further through the grid."
    ),
    "trial-and-error": _(
        "When no pattern helps, try a digit in a cell and follow it: a dead "
        "end shows the digit is wrong."
    ),
}


def technique(slug: str) -> Technique | None:
    return GUIDE.get(slug)


def neighbours(slug: str) -> tuple[Technique | None, Technique | None]:
    """The easier and the harder technique beside it in the guide."""
    i = SLUGS.index(slug)
    return (GUIDE[SLUGS[i - 1]] if i else None), (
        GUIDE[SLUGS[i + 1]] if i + 1 < len(SLUGS) else None
    )


def label_of(name: str) -> str:
    """The name players see for a technique's formal name (a move log keeps the formal
    one); a name the table does not know is said as it is."""
    page = next((p for p in GUIDE.values() if p.name == name), None)
    return page.label if page else name


def slug_of_name(name: str) -> str:
    """The guide's page for a technique's formal name (as a puzzle's grade lists it)."""
    return next((e.slug for e in TECHNIQUES if e.name == name), "")


def slug_of(step: engine.Step) -> str:
    return entry_for(step).slug


def hardest(puzzle: Puzzle) -> Entry | None:
    """The table's entry of the hardest technique the puzzle's solve needs: the one whose
    step set the puzzle's score. Mostly that is the technique whose rating is the score;
    a step rated by its length or size (chains, forcing chains, unique rectangles of type
    3) scores above its technique's rating, so where none matches, the solve tells, worked
    out once a puzzle and kept."""
    entries = [e for e in TECHNIQUES if e.name in (puzzle.techniques or {})]
    if not entries:
        return None
    exact = [e for e in entries if abs(e.rating - puzzle.score) < 1e-6]
    if exact:
        return exact[-1]
    return _hardest_step(puzzle) or max(entries, key=lambda e: e.rating)


# By the puzzle itself, not its id: the answer belongs to the givens.
HARDEST_KEY = "hardest-step:1:{givens}"


def _hardest_step(puzzle: Puzzle) -> Entry | None:
    """The entry of the solve's highest-rated step (the first of equals), from the cache or
    a solve; None if the puzzle cannot be solved (never for a stored one)."""
    key = HARDEST_KEY.format(givens=puzzle.givens)
    try:
        name = cache.get(key)
    except Exception:  # the cache is down: solve every time
        name = None
    if name is None:
        try:
            steps = engine.grade(puzzle.givens).steps
        except engine.InvalidPuzzle:
            return None
        top = max(steps, key=lambda step: step.rating)
        name = entry_for(top).name
        with contextlib.suppress(Exception):
            cache.set(key, name, None)  # a puzzle's solve never changes
    return next((e for e in TECHNIQUES if e.name == name), None)


def grade_of(puzzle: Puzzle, *, over: bool) -> dict:
    """Tier and score, and once the game is over the hardest technique: name and slug."""
    grade: dict = {"tier": puzzle.difficulty, "score": round(puzzle.score, 1), "hardest": None}
    entry = hardest(puzzle) if over else None
    if entry is not None:
        grade["hardest"] = {
            "name": entry.said_name,
            "plain": entry.said_plain,
            "label": entry.said_label,
            "slug": entry.slug,
        }
    return grade
