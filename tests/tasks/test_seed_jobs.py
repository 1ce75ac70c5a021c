"""Seed jobs and daily picks run by a real worker."""

from __future__ import annotations

import datetime
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

import engine
from puzzles.models import DailyPuzzle, Puzzle, SeedJob
from puzzles.pools import seeding
from puzzles.pools.daily import living_dates
from puzzles.pools.tasks import ensure_daily, resume_stalled_seed_jobs, run_seed_job

from ..engine.helpers import load
from ..harness import HeldWrites, wait_until, wait_until_idle
from .helpers import broker_url, database_url, set_targets

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def job_state(job_id: int) -> str:
    return SeedJob.objects.get(pk=job_id).state


def test_a_generate_job_makes_what_was_asked_and_reports_progress(start_worker):
    set_targets()
    job = seeding.create_generate_job("expert", 25)  # slow enough for its progress to be seen
    start_worker()
    run_seed_job.delay(job.pk)
    seen = set()
    wait_until(lambda: seen.add(SeedJob.objects.get(pk=job.pk).done) or job_state(job.pk) == "done")
    job.refresh_from_db()
    assert (job.done, job.rejected, job.state) == (25, 0, "done")
    assert len(seen - {0, 25}) >= 1  # progress was visible in between
    assert Puzzle.objects.filter(difficulty="expert").count() == 25
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
    assert seeding.run_chunk(job.pk)  # the first chunk, stored: the job half done
    done_at_kill = SeedJob.objects.get(pk=job.pk).done
    assert 0 < done_at_kill < 40
    worker = start_worker()
    with HeldWrites(database_url()) as held:  # the next chunk cannot commit until released
        run_seed_job.delay(job.pk)
        worker.wait_for_log("run_seed_job[")
        if held.pid:  # PostgreSQL tells when the chunk waits to store its puzzles
            held.wait_for_waiter()
        worker.kill()
    assert SeedJob.objects.get(pk=job.pk).done == done_at_kill
    assert Puzzle.objects.count() == done_at_kill  # a chunk is stored whole or not at all
    start_worker()
    wait_until(lambda: job_state(job.pk) == "done", what="job finished after redelivery")
    job.refresh_from_db()
    assert job.done == 40 == Puzzle.objects.count()


def test_ensure_daily_picks_one_puzzle_per_difficulty_once(start_worker):
    set_targets(easy=(1, 1, 1), medium=(1, 1, 1), hard=(1, 1, 1), expert=(1, 1, 1))
    start_worker()
    # Every date some time zone is living, and the day after the latest.
    expected = 4 * (len(living_dates()) + 1)
    for _ in range(3):
        ensure_daily.delay(days_ahead=1)
    wait_until(lambda: DailyPuzzle.objects.count() == expected, what="the days' dailies")
    wait_until_idle(broker_url())  # every pick ran: none picked a second puzzle
    assert DailyPuzzle.objects.count() == expected
    assert Puzzle.objects.filter(dailies__isnull=False, served_at__isnull=True).count() == 0


def disguise(puzzle: str, rng: random.Random) -> str:
    """The same puzzle transformed: digits relabelled, rows moved within bands, transposed."""
    relabel = str.maketrans("123456789", "".join(rng.sample("123456789", 9)))
    rows = [puzzle[r * 9 : r * 9 + 9] for r in range(9)]
    order = [band * 3 + r for band in rng.sample(range(3), 3) for r in rng.sample(range(3), 3)]
    return "".join("".join(rows[r][c] for r in order) for c in range(9)).translate(relabel)


def unsolvable(puzzle: str, solution: str) -> str | None:
    """The puzzle with a blank filled by a digit no given forbids, but not the solution's."""
    for cell in range(81):
        if puzzle[cell] != "0":
            continue
        allowed = set("123456789") - {puzzle[i] for i in engine.PEERS[cell]} - {solution[cell]}
        if allowed:
            return puzzle[:cell] + min(allowed) + puzzle[cell + 1 :]
    return None


def ten_thousand_lines() -> list[tuple[str, int | None, str]]:
    """(line, the original it is a copy of or None, the reason expected if rejected):
    1,000 distinct puzzles, 300 of them again in disguise, 200 again as they are, and 8,500
    bad lines of every kind, shuffled."""
    puzzles = load("easy_kaggle_1000")
    solutions = load("easy_kaggle_1000_solutions")
    several = load("multi_solution_200")
    rng = random.Random(7)
    good = [(p.replace("0", ".") if i % 2 else p, i, "") for i, p in enumerate(puzzles)]
    good += [(disguise(puzzles[i], rng), i, "") for i in range(300)]
    good += [(puzzles[i], i, "") for i in range(300, 500)]
    no_solution = [u for p, s in zip(puzzles, solutions, strict=True) if (u := unsolvable(p, s))]
    kinds = [
        lambda k: (puzzles[k][:80], "a puzzle has 81 cells, this one has 80"),
        lambda k: (puzzles[k][:40] + "x" + puzzles[k][41:], "character 'x' at position 41"),
        lambda k: ("55" + "0" * 79, "row 1 has the digit 5 twice"),
        lambda k: (several[k % 200], "more than one solution"),
        lambda k: (no_solution[k % len(no_solution)], "the puzzle has no solution"),
        lambda k: (solutions[k], "the grid is complete"),
        lambda k: ("7" * 401, "the line is too long (401 characters)"),
        lambda k: ("1,2,3", "separated by one comma"),
        lambda k: (
            f"{puzzles[k]},{solutions[k].translate(str.maketrans('12', '21'))}",
            "the solution given is not the puzzle's solution",
        ),
    ]
    bad = [(line, None, reason) for k in range(8500) for line, reason in [kinds[k % 9](k % 1000)]]
    lines = good + bad
    rng.shuffle(lines)
    return lines


def test_a_ten_thousand_line_upload_is_imported_by_the_worker_with_a_reason_for_each_refusal(
    start_worker, client, staff
):
    set_targets()
    lines = ten_thousand_lines()
    text = "# puzzles from the Kaggle set, some in disguise, some twice, and bad lines\n"
    text += "\n".join(line for line, _, _ in lines) + "\n"
    client.force_login(staff)
    upload = SimpleUploadedFile("ten-thousand.txt", text.encode())
    response = client.post("/admin/pool/", {"import": "1", "import-file": upload})
    assert response.status_code == 302
    job = SeedJob.objects.get()
    assert (job.requested, job.done) == (10_000, 0)
    start_worker()
    wait_until(lambda: job_state(job.pk) == "done", seconds=600, what="10,000 lines imported")
    job.refresh_from_db()
    assert (job.done, job.rejected) == (1000, 9000)
    assert (job.position, job.offset) == (10_000, len(text))
    # The first line of each puzzle in the file is stored; every later one, a copy or a
    # disguise, is refused as already stored; each bad line is refused for its own fault.
    expected, stored = {}, set()
    for number, (_, original, reason) in enumerate(lines, 2):
        if original is None:
            expected[number] = reason
        elif original in stored:
            expected[number] = "already stored, or a transformation of a stored puzzle"
        stored.add(original)
    assert len(job.reasons) == seeding.MAX_REASONS  # the first ones are kept
    for number, reason in job.reasons:
        assert expected[number] in reason, (number, lines[number - 2], reason)
    assert {expected[n] for n, _ in job.reasons} == set(expected.values())  # every kind seen
    firsts = {original: line for line, original, _ in reversed(lines) if original is not None}
    imported = Puzzle.objects.filter(source="imported").values_list("givens", flat=True)
    assert set(imported) == {line.replace(".", "0") for line in firsts.values()}


def test_a_job_whose_task_was_never_sent_is_resumed_by_its_task(start_worker):
    set_targets()
    job = seeding.create_generate_job("easy", 12)  # saved while the broker was down
    SeedJob.objects.filter(pk=job.pk).update(
        touched_at=timezone.now() - datetime.timedelta(minutes=5)
    )
    start_worker()
    resume_stalled_seed_jobs.delay()
    wait_until(lambda: job_state(job.pk) == "done", what="the job resumed and finished")
    assert SeedJob.objects.get(pk=job.pk).done == 12 == Puzzle.objects.count()
