"""Stored puzzles graded again after the grader's ratings changed: the score and the
techniques follow the grader of this release; the tier never moves under games already
played, so a puzzle the grader now puts in another tier is only named."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import engine

from ..models import Puzzle


@dataclass(frozen=True)
class Regraded:
    """One stored puzzle looked at: its score before and now, and the tier the grader now
    gives it (the stored one when they agree)."""

    pk: int
    difficulty: str
    tier: str
    before: float
    after: float
    changed: bool

    @property
    def left(self) -> bool:
        return self.tier != self.difficulty


def regrade(difficulties: Iterable[str], *, dry_run: bool = False) -> Iterator[Regraded]:
    """Grade every stored puzzle of the tiers again, oldest first, and store the new score
    and techniques of each whose tier holds (unless `dry_run`); yields each as it goes, so
    that a long run shows its progress and can be stopped and run again."""
    rows = Puzzle.objects.filter(difficulty__in=list(difficulties)).order_by("pk")
    fields = ("pk", "givens", "difficulty", "score", "techniques")
    for puzzle in rows.only(*fields).iterator(chunk_size=100):
        grade = engine.grade(puzzle.givens)
        same = grade.difficulty == puzzle.difficulty
        changed = same and (grade.score, grade.techniques) != (puzzle.score, puzzle.techniques)
        if changed and not dry_run:
            Puzzle.objects.filter(pk=puzzle.pk).update(
                score=grade.score, techniques=grade.techniques
            )
        yield Regraded(
            puzzle.pk, puzzle.difficulty, grade.difficulty, puzzle.score, grade.score, changed
        )
