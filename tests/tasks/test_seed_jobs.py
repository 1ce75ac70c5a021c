"""Seed jobs and daily picks run by a real worker."""

from __future__ import annotations

import time

import pytest

import engine
from puzzles import seeding
from puzzles.models import DailyPuzzle, Puzzle, SeedJob
from puzzles.tasks import pick_dailies, run_seed_job

from ..engine.conftest import load
from .conftest import set_targets, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def job_state(job_id: int) -> str:
    return SeedJob.objects.get(pk=job_id).state


def test_a_generate_job_makes_what_was_asked_and_reports_progress(start_worker):
    set_targets()
    job = seeding.create_generate_job("hard", 25)
    start_worker()
    run_seed_job.delay(job.pk)
    seen = set()
    wait_until(lambda: seen.add(SeedJob.objects.get(pk=job.pk).done) or job_state(job.pk) == "done")
    job.refresh_from_db()
    assert (job.done, job.rejected, job.state) == (25, 0, "done")
    assert len(seen - {0, 25}) >= 1  # progress was visible in between
    assert Puzzle.objects.filter(difficulty="hard").count() == 25
    assert job.started_at <= job.finished_at


def test_an_import_job_stores_the_good_lines_and_gives_reasons_for_the_rest(start_worker):
    set_targets()
    good = load("top95")[:150]
    isomorph = engine.canonical(good[0])  # the same puzzle in disguise
    lines = [*good, "123", "x" * 81, load("multi_solution_200")[0], "1" * 81, good[1], isomorph]
    job = seeding.create_import_job("\n".join(lines), "mixed.txt")
    start_worker()
    run_seed_job.delay(job.pk)
    wait_until(lambda: job_state(job.pk) == "done", what="import done")
    job.refresh_from_db()
    distinct = len({engine.canonical(p) for p in good})
    assert job.done == distinct == Puzzle.objects.filter(source="imported").count()
    reasons = dict(job.reasons)
    n = len(good)
    assert "81 cells" in reasons[n + 1]
    assert "character 'x'" in reasons[n + 2]
    assert "more than one solution" in reasons[n + 3]
    assert "twice" in reasons[n + 4]
    assert "already stored" in reasons[n + 5]
    assert "already stored" in reasons[n + 6]
    assert job.rejected == len(lines) - distinct


def test_a_seed_job_survives_its_worker_being_killed(start_worker):
    set_targets()
    job = seeding.create_generate_job("expert", 40)
    worker = start_worker()
    run_seed_job.delay(job.pk)
    worker.wait_for_log("Task puzzles.tasks.run_seed_job")
    time.sleep(0.4)
    worker.kill()
    start_worker()
    wait_until(lambda: job_state(job.pk) == "done", what="job finished after redelivery")
    job.refresh_from_db()
    assert job.done == 40 == Puzzle.objects.count()


def test_pick_dailies_picks_one_puzzle_per_difficulty_once(start_worker):
    set_targets(easy=(1, 1, 1), medium=(1, 1, 1), hard=(1, 1, 1), expert=(1, 1, 1))
    start_worker()
    for _ in range(3):
        pick_dailies.delay(days_ahead=1)
    wait_until(lambda: DailyPuzzle.objects.count() == 8, what="two days of dailies")
    time.sleep(1)
    assert DailyPuzzle.objects.count() == 8
    assert Puzzle.objects.filter(dailies__isnull=False, served_at__isnull=True).count() == 0
