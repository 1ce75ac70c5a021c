"""The technique guide: a page per technique of the grader's table, by slug, and the grade
shown in the open.

The pages follow engine/techniques/table.py: the two hidden singles (in a box, in a row or
column) share the page "hidden-single", as they share the slug a hint gives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import engine
from engine.techniques.table import TABLE, Entry, entry_for

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
        return self.entries[0].plain

    @property
    def plain_names(self) -> list[str]:
        return [e.plain for e in self.entries]

    @property
    def summaries(self) -> list[str]:
        return [e.summary for e in self.entries]

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
    for entry in TABLE:
        page = pages.setdefault(entry.slug, Technique(entry.slug, entry.name, entry.tier))
        page.entries.append(entry)
    return pages


GUIDE = _guide()
SLUGS = tuple(GUIDE)  # easiest first, the order the solver tries them


# A few plain sentences per technique on how to spot it: the table's summary says what it
# means, these say where to look.
HOW_TO_LOOK = {
    "full-house": "Scan for a row, column or box with eight digits in it. Whatever digit is "
    "missing goes in the empty cell.",
    "hidden-single": "Pick a digit and a box (or a row, or a column). Cross out every cell "
    "that the digit already sees in its row, column or box. If one cell is left, the digit "
    "goes there, whatever else that cell could hold.",
    "naked-single": "Look at one empty cell and list the digits its row, column and box "
    "already hold. When eight of the nine are taken, the ninth is the answer.",
    "pointing": "In a box, find a digit whose possible cells all sit in one row (or one "
    "column). The digit must go in that box's part of the line, so it can go nowhere else "
    "on that line.",
    "claiming": "In a row or column, find a digit whose possible cells all sit inside one "
    "box. The line needs the digit there, so the other cells of that box cannot have it.",
    "naked-pair": "Look for two cells in a unit whose notes are the same two digits. Those "
    "two digits are used up by the pair: take them out of the notes of the rest of the unit.",
    "hidden-pair": "Look for two digits that appear in the notes of only the same two cells "
    "of a unit. Those cells must hold them, so any other notes in the two cells can go.",
    "x-wing": "Pick a digit. Find two rows where it has exactly two places, in the same two "
    "columns. The digit fills those columns in one of two ways, so the rest of both columns "
    "loses it. The same works with rows and columns swapped.",
    "naked-triple": "Three cells of a unit whose notes use only three digits between them "
    "(not every cell needs all three) hold exactly those digits: the rest of the unit loses "
    "them.",
    "swordfish": "An X-Wing on three lines: a digit whose places in three rows all fall in "
    "the same three columns. Those columns lose the digit everywhere else.",
    "hidden-triple": "Three digits that appear in only three cells of a unit fill those "
    "cells: every other note in the three cells can go.",
    "skyscraper": "A digit with two places in each of two rows, one end of each in the same "
    "column. One of the two other ends holds the digit, so cells that see both of them lose "
    "it.",
    "two-string-kite": "A digit with two places in a row and two in a column, one end of "
    "each in the same box. One of the far ends holds the digit, so a cell that sees both "
    "far ends loses it.",
    "xy-wing": "A cell with two digits, XY (the pivot), sees a cell XZ and a cell YZ (the "
    "pincers). Whichever digit the pivot takes, one pincer is Z: a cell that sees both "
    "pincers cannot be Z.",
    "w-wing": "Two cells with the same two notes, XY, that do not see each other, and a "
    "digit X with only two places in a unit, each seen by one of them. One of the two cells "
    "is Y: cells that see both lose Y.",
    "xyz-wing": "A pivot with three digits XYZ sees a cell XZ and a cell YZ. One of the "
    "three holds Z: a cell that sees all three cannot be Z.",
    "simple-colouring": "Follow one digit through units where it has exactly two places, "
    "colouring the places in turn with two colours. One colour is the truth: if a colour "
    "meets itself in a unit it is false, and a cell that sees both colours loses the digit.",
    "naked-quad": "Four cells of a unit whose notes use only four digits between them hold "
    "exactly those digits: the rest of the unit loses them.",
    "jellyfish": "The fish on four lines: a digit whose places in four rows fall in the same "
    "four columns. Those columns lose the digit everywhere else.",
    "hidden-quad": "Four digits that appear in only four cells of a unit fill those cells: "
    "every other note in the four cells can go.",
    "x-chain": "Link a digit's places that are the only two in a unit. Along the chain the "
    "places are alternately on and off; if the two ends cannot both be off, a cell that sees "
    "both ends loses the digit.",
    "xy-chain": "Chain two-digit cells, each sharing a digit with the next. If the first "
    "cell is not Z, the chain forces the last to be Z: a cell that sees both ends cannot "
    "be Z.",
    "alternating-inference-chain": "Mix links of places and of digits in a cell, strong and "
    "weak in turn. The two ends cannot both be false, so whatever sees both loses it.",
    "forcing-chain": "Take a cell (or a unit's places for a digit) and try each choice in "
    "turn, following the singles each forces. Whatever every choice leads to is true.",
    "dynamic-forcing-chain": "Like a forcing chain, but following everything each choice "
    "forces, eliminations included, further through the grid.",
    "trial-and-error": "When no pattern helps, try a digit in a cell and follow it: a dead "
    "end shows the digit is wrong.",
}


def technique(slug: str) -> Technique | None:
    return GUIDE.get(slug)


def neighbours(slug: str) -> tuple[Technique | None, Technique | None]:
    """The easier and the harder technique beside it in the guide."""
    i = SLUGS.index(slug)
    return (GUIDE[SLUGS[i - 1]] if i else None), (
        GUIDE[SLUGS[i + 1]] if i + 1 < len(SLUGS) else None
    )


def slug_of(step: engine.Step) -> str:
    return entry_for(step).slug


def hardest(puzzle: Puzzle) -> Entry | None:
    """The table's entry of the hardest technique the puzzle's solve needs: the one whose
    rating is the puzzle's score."""
    entries = [e for e in TABLE if e.name in (puzzle.techniques or {})]
    if not entries:
        return None
    exact = [e for e in entries if abs(e.rating - puzzle.score) < 1e-6]
    return exact[-1] if exact else max(entries, key=lambda e: e.rating)


def grade_of(puzzle: Puzzle, *, over: bool) -> dict:
    """Tier and score, and once the game is over the hardest technique: name and slug."""
    grade: dict = {"tier": puzzle.difficulty, "score": round(puzzle.score, 1), "hardest": None}
    entry = hardest(puzzle) if over else None
    if entry is not None:
        grade["hardest"] = {"name": entry.name, "plain": entry.plain, "slug": entry.slug}
    return grade
