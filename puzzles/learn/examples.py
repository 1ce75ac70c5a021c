"""Examples for the guide and for practice: a position of a stored puzzle's logical solve
where a technique is the next step with complete notes.

Examples are found ahead of time by a task (refresh_examples), from the puzzles whose grade
says their solve uses the technique; a request only reads them. A technique that no stored
puzzle gives an example of is sought (engine/seek.py): a puzzle whose solve needs it is
made, stored out of every pool and scanned at once, so a fresh site's guide has every
example within its first minutes.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections import Counter

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

import engine

from ..models import Puzzle, TechniqueExample
from ..pools.stock import insert_new, puzzle_row
from .guide import GUIDE, SLUGS, slug_of

log = logging.getLogger(__name__)


# Examples kept per technique: the guide shows the first, practice picks among them.
EXAMPLES_PER_TECHNIQUE = 3
# Puzzles solved per run of the task: a run stays short, the next run goes on.
SCANS_PER_RUN = 40
# Seconds a run may spend seeking puzzles for techniques with no example; one search each.
SEEK_SECONDS = 90.0


def _claimed(puzzle: Puzzle) -> bool:
    """Take a puzzle out of the pool to scan it: nothing hands it out from now on. False
    when a game or a daily took it first."""
    taken = Puzzle.objects.for_examples().filter(pk=puzzle.pk).update(served_at=timezone.now())
    return bool(taken)


def _release(puzzle: Puzzle) -> None:
    """A puzzle that gave no example goes back to the pool, if nobody took it meanwhile."""
    Puzzle.objects.without_examples().filter(
        pk=puzzle.pk, games__isnull=True, dailies__isnull=True
    ).update(served_at=None)


def refresh_examples(scans: int = SCANS_PER_RUN) -> dict[str, int]:
    """Find examples for the techniques that have fewer than EXAMPLES_PER_TECHNIQUE, from
    puzzles whose solve uses them (their grade lists the technique), solving at most
    `scans` puzzles. Only puzzles nobody has played are scanned, each taken out of the
    pool first; one that gives an example never goes back, so no game, daily or share
    link is ever on a puzzle whose position the guide shows. Returns the examples added
    per slug."""
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
        # The pools' oldest puzzles that nobody has played (Puzzle.objects.for_examples).
        candidates = (
            Puzzle.objects.for_examples()
            .filter(techniques__has_key=name)
            .exclude(pk__in=done)
            .order_by("id")
        )
        for puzzle in candidates[: min(missing, scans)]:
            scans -= 1
            done.add(puzzle.pk)
            if not _claimed(puzzle):
                continue
            wanted = {s for s in SLUGS if have[s] < EXAMPLES_PER_TECHNIQUE}
            found_here = scan(puzzle, wanted)
            if not found_here:
                _release(puzzle)
            for found in found_here:
                have[found] += 1
                added[found] += 1
    if added:
        log.info("technique examples added: %s", dict(added))
    return dict(added)


class _StoredKeys:
    """The canonical keys of the stored puzzles, looked up one at a time."""

    def __contains__(self, key: object) -> bool:
        return Puzzle.objects.filter(canonical_key=key).exists()


def missing_slugs() -> list[str]:
    """The guide's techniques with no example yet, easiest first; not those no puzzle is
    sought for (engine.UNSOUGHT: no puzzle made is known to need them)."""
    have = slugs_with_examples()
    return [s for s in SLUGS if s not in have and GUIDE[s].name not in engine.UNSOUGHT]


def seek_examples(seconds: float = SEEK_SECONDS, seed: int | None = None) -> dict[str, int]:
    """For each technique with no example, once, while time is left: a puzzle whose solve
    needs it (engine/seek.py), new to the site, stored as handed out already (no pool,
    daily or game ever takes it) and scanned for every technique still missing. Returns
    the examples added per slug; a puzzle that gave none is not kept."""
    rng, added, began = random.Random(seed), Counter(), time.monotonic()
    for slug in missing_slugs():
        if time.monotonic() - began > seconds:
            break
        wanted = set(missing_slugs())
        if slug not in wanted:  # found in an earlier technique's puzzle
            continue
        made = engine.seek(GUIDE[slug].name, rng, known=_StoredKeys())
        if made is None:
            log.info("no puzzle found for %s this time", slug)
            continue
        row = puzzle_row(made)
        row.served_at = timezone.now()
        if insert_new([row]):  # stored meanwhile by another run
            continue
        puzzle = Puzzle.objects.get(canonical_key=row.canonical_key)
        found = scan(puzzle, wanted)
        if not found:
            puzzle.delete()
        added.update(found)
    if added:
        log.info("technique examples sought: %s", dict(added))
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
    hint["told"] = TOLD
    return TechniqueExample(
        slug=slug,
        puzzle=puzzle,
        step_index=index,
        values=values,
        candidates=candidates,
        hint=hint,
    )


# How an example's step is told: an example stored by an older telling is told again the
# first time its page is shown (2: a chain's links, candidates on and off, its notation;
# 3: a nested chain's too, its inner chains in brackets).
TOLD = 3


def example_for(slug: str) -> TechniqueExample | None:
    """The guide's example of a technique: the first found, told as the engine tells it
    now (an example stored before is told again, once)."""
    example = TechniqueExample.objects.filter(slug=slug).select_related("puzzle").first()
    if example is not None and example.hint.get("told") != TOLD:
        fresh = example_at(
            example.puzzle, example.step_index, example.values, example.candidates, slug
        )
        # One that is no longer the technique's step keeps its words, and is not tried again.
        example.hint = fresh.hint if fresh is not None else example.hint | {"told": TOLD}
        TechniqueExample.objects.filter(pk=example.pk).update(hint=example.hint)
    if example is not None and translation.get_language() != settings.LANGUAGE_CODE:
        example.hint = _told_in(example, translation.get_language())
    return example


def _told_in(example: TechniqueExample, language: str) -> dict:
    """The example's step told in a language other than English (the one stored), from
    the cache or told again; the stored words when the step is no longer found."""
    key = f"example-told:{TOLD}:{example.pk}:{example.puzzle_id}:{language}"
    try:
        hint = cache.get(key)
    except Exception:  # the cache is down: tell it every time
        hint = None
    if hint is None:
        fresh = example_at(
            example.puzzle, example.step_index, example.values, example.candidates, example.slug
        )
        hint = fresh.hint if fresh is not None else example.hint
        with contextlib.suppress(Exception):
            cache.set(key, hint, 24 * 3600)
    return hint


def slugs_with_examples() -> set[str]:
    return set(TechniqueExample.objects.values_list("slug", flat=True).distinct())


def _by_cell(pairs: list | None) -> dict[int, list[int]]:
    """[cell, digit] pairs as each cell's digits."""
    found: dict[int, list[int]] = {}
    for cell, digit in pairs or []:
        found.setdefault(cell, []).append(digit)
    return found


def example_cells(example: TechniqueExample) -> list[dict]:
    """The example's board as the board template draws it, with each cell's part in the
    step as a hint's last level shows it: target, cause or region."""
    return step_cells(example.values, example.candidates, example.puzzle.givens, example.hint)


def step_cells(values: str, candidates: list[list[int]], givens: str, hint: dict) -> list[dict]:
    """A position's board as the board template draws it (the guide's example, a step of an
    analysis), each cell's part in the step told by `hint` (engine.tell at level 3) marked:
    target, cause or region, and a chain's candidates on and off."""
    region, cause, target = set(hint["region"]), set(hint["cause"]), set(hint["target"])
    on, off = _by_cell(hint.get("on")), _by_cell(hint.get("off"))
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
                "value": int(values[i]),
                "given": givens[i] != "0",
                "notes": candidates[i] if values[i] == "0" else [],
                "hint": part,
                "on": on.get(i, []),
                "off": off.get(i, []),
            }
        )
    return cells
