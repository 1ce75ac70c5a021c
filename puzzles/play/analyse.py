"""The analysis of any position (/analyse/): a puzzle, or a position with the player's own
pencil marks, read from text; whether it has one solution; its grade; and the logical path
step by step, each step with the board it was found on.

Pencil marks are read and written in the grid HoDoKu and sudokuwiki use: nine rows of nine
fields, a field of one digit a placed digit (or a given), of several a cell's candidates;
`|` between boxes, and lines of `-`, `+`, `.`, `:`, `'` or `*` between bands, which are
skipped. A position so written keeps the eliminations its marks made.

A stored puzzle, or a near copy of one (found as a typed-in puzzle is, by
puzzles/play/sharing.py), is analysed only as help on the player's game of it: the view
asks first, and the help marks the game (puzzles/play/help.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine

from ..learn import examples, guide
from ..models import Game, Puzzle
from .board import PlayBoard
from .sharing import Refused, check_unique, parse_puzzle, stored_near

# The longest text taken: a pencil-mark grid with every candidate, borders and padding is
# under 1,100 characters.
MAX_TEXT = 2500
# The engine's time for one analysis: a position that needs longer is refused, so that no
# text can hold a worker (checked between steps; Easter Monster needs a fraction of it).
SECONDS = 1.5
# Steps drawn with their board on a page: every step is listed, a page of them drawn.
DRAWN = 12
BORDER = set("-+.:'*=")


@dataclass(frozen=True)
class Position:
    """Digits placed (81 characters, 0 for empty) and, with pencil marks, each cell's
    candidates (None: every candidate the placed digits allow)."""

    grid: str
    candidates: list[list[int]] | None = None

    def marks(self) -> list[list[int]]:
        """Each empty cell's candidates: the marks, narrowed to what the digits allow."""
        allowed = engine.candidates(self.grid)
        if self.candidates is None:
            return allowed
        return [[d for d in allowed[c] if d in self.candidates[c]] for c in range(81)]


def read(text: str) -> Position:
    """The position a text gives, or Refused saying what is wrong with the text."""
    if len(text) > MAX_TEXT:
        raise Refused(
            _("That is far too long for a position: 81 cells, or nine rows of pencil marks.")
        )
    rows = _mark_rows(text)
    if rows is None:
        return Position(parse_puzzle(text))
    fields = [field for row in rows for field in row]
    grid = "".join(field if len(field) == 1 else "0" for field in fields)
    grid = parse_puzzle(grid)  # two equal digits in a unit, or a full grid
    candidates = [sorted({int(d) for d in field}) if len(field) > 1 else [] for field in fields]
    position = Position(grid, candidates)
    for cell, digits in enumerate(position.marks()):
        if grid[cell] == "0" and not digits:
            raise Refused(
                _(
                    # Translators: %(place)s is a cell, "row 2, column 5" or "r2c5".
                    "The pencil marks leave %(place)s no candidate its row, column and box "
                    "allow: this position has no solution."
                )
                % {"place": engine.place(cell)}
            )
    return position


def _mark_rows(text: str) -> list[list[str]] | None:
    """The nine rows of nine fields of a pencil-mark grid, or None for another text."""
    rows = []
    for line in text.splitlines():
        tokens = line.replace("|", " ").split()
        if all(set(token) <= BORDER for token in tokens):
            continue  # a blank line, or a border between bands
        rows.append(tokens)
    shaped = len(rows) == 9 and all(len(row) == 9 for row in rows)
    if not shaped:
        return None
    if not all(t.isascii() and t.isdigit() and "0" not in t for row in rows for t in row):
        return None
    return rows


def pencil_marks(position: Position) -> str:
    """The position as a pencil-mark grid, columns padded as HoDoKu writes it."""
    marks = position.marks()
    fields = [
        position.grid[c] if position.grid[c] != "0" else "".join(map(str, marks[c]))
        for c in range(81)
    ]
    widths = [max(len(fields[r * 9 + c]) for r in range(9)) for c in range(9)]
    lines = []
    for r in range(9):
        stacks = [
            " ".join(fields[r * 9 + c].ljust(widths[c]) for c in range(s * 3, s * 3 + 3))
            for s in range(3)
        ]
        lines.append("| " + " | ".join(stacks) + " |")
    rule = "".join("|" if ch == "|" else "-" for ch in lines[0])
    top, middle, bottom = (
        rule.replace("|", "."),
        rule.replace("|", "+"),
        rule.replace("|", "'"),
    )
    middle = ":" + middle[1:-1] + ":"
    return "\n".join([top, *lines[0:3], middle, *lines[3:6], middle, *lines[6:9], bottom])


def stored_for(position: Position) -> Puzzle | None:
    """The stored puzzle the position is a copy of (the same, transformed, or near), or
    None: matched as a typed-in puzzle is."""
    key = engine.canonical(position.grid)
    found = Puzzle.objects.filter(canonical_key=key).first()
    return found if found is not None else stored_near(position.grid)


@dataclass
class Analysis:
    position: Position
    tier: str
    score: float
    techniques: list[tuple[str, int]]  # each technique's label and its steps, in order met
    steps: list[dict]


def analyse(position: Position) -> Analysis:
    """The logical path from the position, or Refused: no solution, several (and where two
    differ), marks that took out a solution's digit, or a position too long to work out."""
    check_unique(position.grid)
    solution = engine.solve(position.grid)
    marks = position.marks()
    lost = [c for c in range(81) if position.grid[c] == "0" and int(solution[c]) not in marks[c]]
    if lost:
        named = "; ".join(engine.place(c) for c in lost[:4]) + ("; …" if len(lost) > 4 else "")
        raise Refused(
            ngettext(
                # Translators: %(places)s lists up to four cells, "row 2, column 5; row 3,
                # column 1".
                "The pencil marks take out the right digit in %(count)d cell (%(places)s): no "
                "logic can solve it from here. Put the candidates back, or analyse the puzzle "
                "without marks.",
                "The pencil marks take out the right digit in %(count)d cells (%(places)s): no "
                "logic can solve it from here. Put the candidates back, or analyse the puzzle "
                "without marks.",
                len(lost),
            )
            % {"count": len(lost), "places": named}
        )
    try:
        path = engine.solution_path(position.grid, marks, seconds=SECONDS)
    except TimeoutError:
        raise Refused(
            _(
                "This position takes longer to work out than an analysis here may take. Try "
                "it with fewer candidates, or as a plain puzzle."
            )
        ) from None
    steps, counted = [], {}
    for index, entry in enumerate(path):
        told = engine.tell(entry.step, 3)
        named = engine.told_entry(entry.step)
        counted[named.said_label] = counted.get(named.said_label, 0) + 1
        steps.append(
            {
                "index": index,
                "number": index + 1,
                "slug": named.slug,
                "label": named.said_label,
                "page": guide.technique(named.slug) is not None,
                "board_label": _("Board before step %(number)d") % {"number": index + 1},
                "tier": engine.entry_for(entry.step).tier,
                "text": told["text"],
                "told": told,
                "values": entry.values,
                "candidates": entry.candidates,
            }
        )
    ranks = engine.DIFFICULTIES
    tier = max((s["tier"] for s in steps if s["tier"] in ranks), key=ranks.index, default="easy")
    score = max((p.step.rating for p in path), default=0.0)
    return Analysis(position, tier, score, list(counted.items()), steps)


def draw(analysis: Analysis, page: int) -> tuple[list[dict], int]:
    """The steps of a page (0 on), each with its board as the board template draws it,
    and the number of pages."""
    pages = max(1, -(-len(analysis.steps) // DRAWN))
    page = min(max(page, 0), pages - 1)
    givens = analysis.position.grid
    drawn = []
    for step in analysis.steps[page * DRAWN : (page + 1) * DRAWN]:
        cells = examples.step_cells(step["values"], step["candidates"], givens, step["told"])
        drawn.append(step | {"cells": cells, "links": step["told"].get("links")})
    return drawn, pages


def game_position(game: Game) -> Position:
    """A game's board as the player has it: their digits, and the notes of the cells where
    the notes are a complete candidate list (the others: all their peers allow)."""
    board = PlayBoard.of(game)
    notes = board.notes()
    candidates = [notes[c] if board.complete[c] else list(range(1, 10)) for c in range(81)]
    return Position(board.grid(), candidates)
