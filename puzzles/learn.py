"""Learning: the technique guide, its examples, practice games and the skill profile.

The guide has a page per technique of the grader's table (engine/techniques/table.py), by
slug: the two hidden singles (in a box, in a row or column) share the page "hidden-single",
as they share the slug a hint gives. Each page shows an example: a position of a stored
puzzle's logical solve where that technique is the next step with complete notes. Examples
are found ahead of time by a task (refresh_examples), from the puzzles whose grade says
their solve uses the technique; a request only reads them. A practice game starts at such
a position and is found once the player makes the step's placement or its eliminations.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

import engine
from engine.techniques.table import TABLE, Entry, entry_for

from .models import Game, Puzzle, TechniqueExample
from .players import Player

log = logging.getLogger(__name__)

# Examples kept per technique: the guide shows the first, practice picks among them.
EXAMPLES_PER_TECHNIQUE = 3
# Puzzles solved per run of the task: a run stays short, the next run goes on.
SCANS_PER_RUN = 40


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


# The grade in the open -------------------------------------------------------------------


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


# Finding examples (the task's work) ------------------------------------------------------


def _eligible() -> object:
    """Puzzles examples may come from: the pools' and imports' (a player's own puzzle is
    theirs), never a daily (an example gives half of it away)."""
    return Puzzle.objects.exclude(source=Puzzle.Source.PLAYER).filter(dailies__isnull=True)


def refresh_examples(scans: int = SCANS_PER_RUN) -> dict[str, int]:
    """Find examples for the techniques that have fewer than EXAMPLES_PER_TECHNIQUE, from
    puzzles whose solve uses them (their grade lists the technique), solving at most
    `scans` puzzles. A puzzle that gives an example leaves the pool: a fresh game must not
    be one whose position the guide shows. Returns the examples added per slug."""
    have = Counter(TechniqueExample.objects.values_list("slug", flat=True))
    added: Counter[str] = Counter()
    done: set[int] = set(TechniqueExample.objects.values_list("puzzle_id", flat=True))
    for slug in SLUGS:
        if scans <= 0:
            break
        missing = EXAMPLES_PER_TECHNIQUE - have[slug]
        if missing <= 0:
            continue
        name = GUIDE[slug].name
        # Puzzles already handed out first, then the pools' oldest.
        candidates = (
            _eligible()
            .filter(techniques__has_key=name)
            .exclude(pk__in=done)
            .order_by(F("served_at").asc(nulls_last=True), "id")
        )
        for puzzle in candidates[: min(missing, scans)]:
            scans -= 1
            done.add(puzzle.pk)
            for found in scan(puzzle, {s for s in SLUGS if have[s] < EXAMPLES_PER_TECHNIQUE}):
                have[found] += 1
                added[found] += 1
    if added:
        log.info("technique examples added: %s", dict(added))
    return dict(added)


def scan(puzzle: Puzzle, wanted: set[str]) -> list[str]:
    """Store the first position of each wanted technique in the puzzle's logical solve;
    the slugs stored."""
    try:
        path = engine.solution_path(puzzle.givens)
    except engine.InvalidPuzzle:
        log.warning("puzzle %s cannot be solved for examples", puzzle.pk)
        return []
    stored, seen = [], set()
    for index, entry in enumerate(path):
        slug = slug_of(entry.step)
        if slug in seen or slug not in wanted:
            continue
        seen.add(slug)
        example = example_at(puzzle, index, entry.values, entry.candidates, slug)
        if example is None:
            continue
        try:
            with transaction.atomic():
                example.save()
        except IntegrityError:  # another run stored it meanwhile
            continue
        stored.append(slug)
    if stored and puzzle.served_at is None:
        Puzzle.objects.filter(pk=puzzle.pk, served_at__isnull=True).update(served_at=timezone.now())
    return stored


def complete_flags(values: str) -> list[bool]:
    """Every empty cell's notes are a complete candidate list."""
    return [v == "0" for v in values]


def example_at(
    puzzle: Puzzle, index: int, values: str, candidates: list[list[int]], slug: str
) -> TechniqueExample | None:
    """The example, unsaved, if a player's hint on this position with complete notes is
    the technique's step (it is, as the solver took that step there; checked all the
    same, so that a change to the engine never shows a wrong example)."""
    step = engine.next_step(
        values, candidates, puzzle=puzzle.givens, complete=complete_flags(values)
    )
    if step is None or slug_of(step) != slug:
        log.warning("puzzle %s step %d is not %s for a player", puzzle.pk, index, slug)
        return None
    hint = engine.tell(step, 3)
    hint["reason"] = engine.tell(step, 2)["text"]
    return TechniqueExample(
        slug=slug,
        puzzle=puzzle,
        step_index=index,
        values=values,
        candidates=candidates,
        hint=hint,
    )


def example_for(slug: str) -> TechniqueExample | None:
    """The guide's example of a technique: the first found."""
    return TechniqueExample.objects.filter(slug=slug).select_related("puzzle").first()


def slugs_with_examples() -> set[str]:
    return set(TechniqueExample.objects.values_list("slug", flat=True).distinct())


def example_cells(example: TechniqueExample) -> list[dict]:
    """The example's board as the board template draws it, with each cell's part in the
    step as a level-2 hint shows it: target, cause or region."""
    hint = example.hint
    region, cause, target = set(hint["region"]), set(hint["cause"]), set(hint["target"])
    givens = example.puzzle.givens
    cells = []
    for i in range(81):
        part = (
            "target" if i in target else "cause" if i in cause else "region" if i in region else ""
        )
        cells.append(
            {
                "index": i,
                "row": i // 9 + 1,
                "col": i % 9 + 1,
                "value": int(example.values[i]),
                "given": givens[i] != "0",
                "notes": example.candidates[i] if example.values[i] == "0" else [],
                "hint": part,
            }
        )
    return cells


# Practice --------------------------------------------------------------------------------


class NoExample(Exception):
    """No position to practise the technique on has been found yet."""


def pick_example(player: Player, slug: str) -> TechniqueExample:
    """An example of the technique on a puzzle the player has no game on, if there is one;
    else any of them."""
    examples = list(TechniqueExample.objects.filter(slug=slug).select_related("puzzle"))
    if not examples:
        raise NoExample(f"There is no position to practise {GUIDE[slug].plain} on yet.")
    played = set(player.all_games().values_list("puzzle_id", flat=True))
    fresh = [e for e in examples if e.puzzle_id not in played]
    return random.choice(fresh or examples)


def start_practice(player: Player, slug: str) -> Game:
    """A practice game at an example's position, notes complete: every easier step applied,
    the technique's step to find. Seeing the position is help on that puzzle: a game of
    the player's on it still in play can no longer be a clean solve."""
    example = pick_example(player, slug)
    now = timezone.now()
    hint = example.hint
    notes = [list(c) if example.values[i] == "0" else [] for i, c in enumerate(example.candidates)]
    game = Game.objects.create(
        puzzle=example.puzzle,
        values=example.values,
        notes=notes,
        complete="".join("1" if flag else "0" for flag in complete_flags(example.values)),
        practice=slug,
        practice_goal={
            "placements": hint["placements"],
            "eliminations": hint["eliminations"],
        },
        resumed_at=now,
        seen_at=now,
        started_at=now,
        updated_at=now,
        **player.owner_fields(),
    )
    player.games().filter(puzzle=example.puzzle_id, helped_at__isnull=True).exclude(
        status=Game.Status.SOLVED
    ).update(helped_at=now)
    return game


def makes_goal(goal: dict, board: engine.Board, changes: list[dict], kind: str) -> bool:
    """Whether a move (its logged changes, and the board after it) makes the practised
    step: a value move (or Apply) that places the step's digit; for a step that only
    eliminates, a note move (or Apply) that takes out one of its candidates and leaves
    none of them."""
    touched = {change["cell"]: change for change in changes}
    placements = [tuple(p) for p in goal.get("placements", [])]
    if placements:
        if kind not in ("value", "hint"):
            return False
        return any(
            cell in touched
            and touched[cell]["after"][0] == digit
            and touched[cell]["before"][0] != digit
            for cell, digit in placements
        )
    eliminations = [tuple(e) for e in goal.get("eliminations", [])]
    if not eliminations or kind not in ("note", "hint"):
        return False
    took_one = any(
        cell in touched
        and digit in touched[cell]["before"][1]
        and digit not in touched[cell]["after"][1]
        for cell, digit in eliminations
    )
    gone = all(
        board.values[cell] != digit and digit not in board.digits(cell)
        for cell, digit in eliminations
    )
    return took_one and gone


def practice_state(game: Game) -> dict | None:
    if not game.practice:
        return None
    page = GUIDE.get(game.practice)
    return {
        "technique": page.plain if page else game.practice,
        "name": page.name if page else game.practice,
        "slug": game.practice,
        "found": game.practice_found_at is not None,
        "unaided": game.practice_unaided,
    }


# The skill profile -----------------------------------------------------------------------


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
