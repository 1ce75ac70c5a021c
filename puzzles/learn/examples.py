"""Examples for the guide and for practice: a position of a stored puzzle's logical solve
where a technique is the next step with complete notes.

Examples are found ahead of time by a task (refresh_examples), from the puzzles whose grade
says their solve uses the technique; a request only reads them.
"""

from __future__ import annotations

import logging
from collections import Counter

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

import engine

from ..models import Puzzle, TechniqueExample
from .guide import GUIDE, SLUGS, slug_of

log = logging.getLogger(__name__)


# Examples kept per technique: the guide shows the first, practice picks among them.
EXAMPLES_PER_TECHNIQUE = 3
# Puzzles solved per run of the task: a run stays short, the next run goes on.
SCANS_PER_RUN = 40


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
