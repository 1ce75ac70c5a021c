"""Claiming, storing and daily picks against the database (SQLite or PostgreSQL)."""

from __future__ import annotations

import datetime
import random
import threading
import time
import tracemalloc

import pytest
from django.db import connection, connections, transaction
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import engine
from puzzles.models import DailyPuzzle, Difficulty, PoolTarget, Puzzle, SeedJob, TechniqueExample
from puzzles.pools import daily, imports, seeding
from puzzles.pools.stock import (
    claim_fresh_puzzle,
    fresh_counts,
    insert_new,
    puzzle_row,
    store_for_pool,
)

from ...engine.helpers import load
from ..helpers import sample_of, stock

pytestmark = pytest.mark.django_db


def test_claim_takes_fresh_puzzles_in_order_until_the_pool_is_empty():
    made = stock("easy", 3)
    claimed = [claim_fresh_puzzle("easy") for _ in range(3)]
    assert [p.pk for p in claimed] == sorted(p.pk for p in made)
    assert all(p.served_at for p in claimed)
    assert claim_fresh_puzzle("easy") is None
    assert fresh_counts() == dict.fromkeys(Difficulty.values, 0)


@pytest.mark.django_db(transaction=True)
def test_a_claim_is_one_statement_that_skips_technique_examples():
    """A surge of new games claims from the pool at every join: one round trip, no
    transaction of its own to begin and commit."""
    first, second = stock("easy", 2)
    TechniqueExample.objects.create(
        slug="naked-single", puzzle=first, step_index=0, values=first.givens, candidates=[], hint={}
    )
    with CaptureQueriesContext(connection) as queries:
        claimed = claim_fresh_puzzle("easy")
    assert len(queries.captured_queries) == 1, queries.captured_queries
    assert claimed.pk == second.pk and claimed.givens == second.givens
    assert claimed.served_at is not None
    assert Puzzle.objects.get(pk=second.pk).served_at == claimed.served_at
    assert claim_fresh_puzzle("easy") is None


def test_store_for_pool_trims_a_batch_to_the_high_water_mark():
    PoolTarget.objects.update_or_create(
        difficulty="medium", defaults={"low": 2, "high": 5, "batch_size": 4}
    )
    rng = random.Random(1)
    batch = [engine.make_puzzle("medium", seed=rng) for _ in range(4)]
    assert store_for_pool("medium", batch).count == 4
    batch = [engine.make_puzzle("medium", seed=rng) for _ in range(4)]
    assert store_for_pool("medium", batch).count == 1
    assert Puzzle.objects.fresh("medium").count() == 5


def test_the_same_puzzle_in_disguise_is_stored_once():
    made = engine.make_puzzle("hard", seed=3)
    disguised = engine.Generated(engine.canonical(made.puzzle), "", made.grade)
    disguised.solution = engine.solve(disguised.puzzle)
    assert len(insert_new([puzzle_row(made), puzzle_row(disguised)])) == 1
    assert len(insert_new([puzzle_row(disguised)])) == 1
    assert Puzzle.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_threads_claiming_at_once_never_get_the_same_puzzle():
    stock("easy", 30, seed=4)
    barrier = threading.Barrier(20)
    claimed: list[int | None] = []
    errors: list[BaseException] = []

    def claim() -> None:
        try:
            barrier.wait()
            puzzle = claim_fresh_puzzle("easy")
            claimed.append(puzzle.pk if puzzle else None)
        except BaseException as error:  # reported below with the vendor's name
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=claim) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, (connection.vendor, errors)
    assert None not in claimed
    assert len(set(claimed)) == 20
    assert Puzzle.objects.fresh("easy").count() == 10


def test_daily_puzzles_are_picked_once_and_never_from_served_ones():
    stock("easy", 2)
    stock("medium", 1, seed=5)
    date = daily.today()
    first = daily.dailies_of(date)
    again = daily.dailies_of(date)
    assert {d: p.puzzle_id for d, p in first.items()} == {d: p.puzzle_id for d, p in again.items()}
    assert DailyPuzzle.objects.filter(date=date).count() == 4
    for picked in first.values():
        assert picked.puzzle.served_at is not None
    assert Puzzle.objects.fresh("easy").count() == 1
    # hard and expert had no stock: made on the spot rather than failing
    assert first["hard"].puzzle.difficulty == "hard"
    assert first["expert"].puzzle.difficulty == "expert"
    # master and extreme are never made while a request waits: picked once the workers made one
    assert "master" not in first and "extreme" not in first
    insert_new([puzzle_row(sample_of("master"))])
    assert daily.dailies_of(date)["master"].puzzle.difficulty == "master"
    assert "extreme" not in daily.dailies_of(date)


@pytest.mark.parametrize("difficulty", ["master", "extreme"])
def test_an_empty_master_or_extreme_pool_falls_back_at_once_and_starts_a_refill(
    client, monkeypatch, difficulty
):
    from puzzles.pools import locks

    locks.client().delete(locks.key(difficulty))
    stock("expert", 1, seed=6)
    made = []
    real = engine.make_puzzle

    def make_puzzle(tier, **options):
        made.append(tier)
        return real(tier, **options)

    monkeypatch.setattr(engine, "make_puzzle", make_puzzle)
    response = client.post(f"/play/{difficulty}/", follow=True)
    assert response.status_code == 200
    game = response.context["game"]
    assert game.puzzle.difficulty == "expert"
    assert f"No {difficulty} puzzle is ready just now, so here is an expert one" in (
        response.content.decode()
    )
    assert locks.holder(difficulty)  # the workers were asked for more
    assert "master" not in made and "extreme" not in made
    # Once the workers made one, the tier asked for is what a new game gets.
    insert_new([puzzle_row(sample_of(difficulty))])
    response = client.post(f"/play/{difficulty}/", follow=True)
    assert response.context["game"].puzzle.difficulty == difficulty
    assert "is ready just now" not in response.content.decode()


def test_a_pick_that_loses_the_race_leaves_its_puzzle_in_the_pool():
    first, *_ = stock("easy", 3)
    date = daily.today()
    Puzzle.objects.filter(pk=first.pk).update(served_at=timezone.now())
    # Another process recorded the day's easy puzzle after this one looked, before it wrote.
    theirs = DailyPuzzle.objects.create(date=date, difficulty="easy", puzzle=first)
    assert daily._pick(date, "easy") == theirs
    assert Puzzle.objects.fresh("easy").count() == 2  # the puzzle it claimed went back
    assert DailyPuzzle.objects.filter(date=date).count() == 1


def test_a_new_game_that_takes_the_pool_below_its_low_mark_starts_a_refill(client):
    from puzzles.pools import locks

    locks.client().delete(locks.key("medium"))
    stock("medium", 3, seed=9)
    PoolTarget.objects.update_or_create(
        difficulty="medium", defaults={"low": 3, "high": 9, "batch_size": 3}
    )
    client.post("/play/medium/")  # 2 left: below 3
    assert locks.holder("medium")  # a round is under way: the lock is held
    client.post("/play/medium/")
    assert Puzzle.objects.fresh("medium").count() == 1  # the web itself never generates


@pytest.mark.django_db(transaction=True)
def test_puzzles_lost_to_a_concurrent_insert_are_not_counted_as_stored():
    rng = random.Random(11)
    made = [engine.make_puzzle("easy", seed=rng) for _ in range(3)]
    inserted, errors = threading.Event(), []

    def insert_first_and_commit_later() -> None:
        try:
            with transaction.atomic():
                puzzle_row(made[0]).save()
                inserted.set()
                time.sleep(0.5)  # holds the row uncommitted while insert_new runs
        except BaseException as error:
            errors.append(error)
        finally:
            inserted.set()
            connections.close_all()

    other = threading.Thread(target=insert_first_and_commit_later)
    other.start()
    inserted.wait()
    # insert_new does not see the uncommitted row, and waits on it at insert time.
    left_out = insert_new([puzzle_row(m) for m in made])
    other.join()
    assert not errors, (connection.vendor, errors)
    assert [row.givens for row in left_out] == [made[0].puzzle]
    assert Puzzle.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_chunk_saved_first_by_another_run_stops_the_late_run():
    job = seeding.create_generate_job("easy", 30)
    assert seeding.run_chunk(job.pk) is True  # under way: 10 of 30
    barrier, results, errors = threading.Barrier(2), [], []

    def run() -> None:
        try:
            barrier.wait()
            results.append(seeding.run_chunk(job.pk))
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    runs = [threading.Thread(target=run) for _ in range(2)]
    with transaction.atomic():
        # Held until both runs have read the job: neither saves its chunk before then.
        SeedJob.objects.select_for_update().get(pk=job.pk)
        for thread in runs:
            thread.start()
        time.sleep(0.5)
    for thread in runs:
        thread.join()
    assert not errors, (connection.vendor, errors)
    job.refresh_from_db()
    assert (job.done, Puzzle.objects.count()) == (20, 20)  # one chunk saved, not two
    assert sorted(results) == [False, True]  # the run that lost stops; the winner goes on
    assert seeding.run_chunk(job.pk) is False
    job.refresh_from_db()
    assert (job.state, job.done) == ("done", 30)


def test_an_import_reads_its_file_a_window_at_a_time_with_the_line_numbers_of_the_file(
    monkeypatch,
):
    monkeypatch.setattr(seeding, "IMPORT_WINDOW", 7)  # every line crosses a window's edge
    monkeypatch.setattr(seeding, "IMPORT_CHUNK", 2)
    good = load("top95")[:3]
    text = "\r\n".join(
        ["quizzes,solutions", good[0], "", "# a comment", "x" * 500, good[1], "12345"]
    )
    text += "\n\n\u2028" + good[2] + "\r\n" + good[0] + "\r"
    job = seeding.create_import_job(text, "windows.csv")
    assert job.requested == 6
    offsets = []
    while seeding.run_chunk(job.pk):
        job.refresh_from_db()
        offsets.append(job.offset)
    job.refresh_from_db()
    assert len(offsets) >= 3 and offsets == sorted(offsets)
    assert (job.state, job.offset, job.position, job.done) == ("done", len(text), 6, 3)
    assert job.reasons == [
        [5, "the line is too long (500 characters)"],
        [7, "a puzzle has 81 cells, this one has 5"],
        [11, "already stored, or a transformation of a stored puzzle"],
    ]
    assert [line.number for line in imports.lines_of(text)] == [2, 5, 6, 7, 10, 11]


def test_an_import_chunk_reads_its_own_lines_not_the_whole_file():
    junk = "not a puzzle, just some words\n" * 100_000  # 3 MB: under both limits
    job = seeding.create_import_job(junk, "junk.txt")
    tracemalloc.start()
    seeding.run_chunk(job.pk)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    job.refresh_from_db()
    assert (job.position, job.rejected, job.offset) == (100, 100, 100 * 30)
    # The file alone is 3 MB; its lines as objects ten times that.
    assert peak < 1024 * 1024, peak


def test_a_file_of_too_many_lines_makes_no_job():
    with pytest.raises(imports.TooManyLines, match="more than 100,000 lines"):
        seeding.create_import_job("1\n" * 100_001, "ones.txt")
    assert seeding.create_import_job("1\n" * 100_000, "ones.txt").requested == 100_000


def test_the_seed_job_queries_have_an_index():
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # a few rows: make the planner show the index
            cursor.execute("SET LOCAL enable_seqscan = off")
    now = timezone.now()
    queries = {
        "seedjob_created_idx": SeedJob.objects.defer("payload")[:15],  # the pool page
        "seedjob_state_touched_idx": SeedJob.objects.filter(  # seeding.claim_stalled_jobs
            Q(state="queued", touched_at__lt=now) | Q(state="running", touched_at__lt=now)
        ),
    }
    for index, query in queries.items():
        plan = query.explain()
        assert index in plan, plan


def test_stalled_seed_jobs_are_claimed_once_each():
    long_ago = timezone.now() - datetime.timedelta(hours=2)
    never_sent = seeding.create_generate_job("easy", 5)
    lost = seeding.create_generate_job("easy", 5)
    fresh_job = seeding.create_generate_job("easy", 5)
    done = seeding.create_generate_job("easy", 5)
    SeedJob.objects.filter(pk=never_sent.pk).update(touched_at=long_ago)
    SeedJob.objects.filter(pk=lost.pk).update(state=SeedJob.State.RUNNING, touched_at=long_ago)
    SeedJob.objects.filter(pk=done.pk).update(state=SeedJob.State.DONE, touched_at=long_ago)
    assert sorted(seeding.claim_stalled_jobs()) == sorted([never_sent.pk, lost.pk])
    assert seeding.claim_stalled_jobs() == []  # each claimed job is left alone a while
    assert fresh_job.pk not in seeding.claim_stalled_jobs()
