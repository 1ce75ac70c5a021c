"""regrade: puzzles stored before the grader's ratings changed take their new score and
techniques; a puzzle whose tier would change is named and left as it is (its games and
leaderboards were played at that tier)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

import engine
from puzzles.models import Puzzle
from puzzles.pools.stock import puzzle_row

from ...engine.test_chain_ratings import DYNAMIC

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("regrade", *args, stdout=out)
    return out.getvalue()


def stored(puzzle: str, **stale) -> Puzzle:
    row = puzzle_row(engine.Generated(puzzle, engine.solve(puzzle), engine.grade(puzzle)))
    for name, value in stale.items():
        setattr(row, name, value)
    row.save()
    return row


def test_a_puzzle_rated_by_the_old_grader_takes_its_new_score_and_techniques():
    old = stored(DYNAMIC[0], score=9.0, techniques={"Dynamic Forcing Chain": 1})
    current = stored(DYNAMIC[1])
    out = run("--difficulty", "extreme")
    graded = engine.grade(DYNAMIC[0])
    old.refresh_from_db()
    assert old.score == graded.score > 9.0
    assert old.techniques == graded.techniques
    assert "2 looked at, 1 re-rated, 0 left" in out
    assert f"#{old.pk}: 9.0 -> {graded.score}" in out
    before = Puzzle.objects.get(pk=current.pk)
    assert (before.score, before.techniques) == (current.score, current.techniques)
    assert "0 re-rated" in run("--difficulty", "extreme")  # a second run has nothing to do


def test_a_puzzle_whose_tier_would_change_is_named_and_left_as_it_is():
    moved = stored(DYNAMIC[2], difficulty="master", score=8.9)
    out = run()
    moved.refresh_from_db()
    assert (moved.difficulty, moved.score) == ("master", 8.9)
    assert f"#{moved.pk}: graded extreme now, left master" in out
    assert "1 left" in out


def test_dry_run_changes_nothing_and_a_bad_tier_is_refused():
    old = stored(DYNAMIC[3], score=9.0)
    assert "1 would be re-rated" in run("--dry-run")
    old.refresh_from_db()
    assert old.score == 9.0
    with pytest.raises(CommandError, match="difficulty"):
        run("--difficulty", "impossible")
