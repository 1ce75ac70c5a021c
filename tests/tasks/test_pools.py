"""Pools kept stocked by real Celery workers on a real Redis."""

from __future__ import annotations

import os
import signal

import pytest
from django.db import connection
from django.utils import timezone

import engine
from puzzles.models import DailyPuzzle, Puzzle
from puzzles.pools import daily, locks, traffic
from puzzles.pools.tasks import refill_pool, refill_pools

from ..harness import HeldWrites, run_together, wait_until, wait_until_idle
from .helpers import broker_url, database_url, fresh, set_targets

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def assert_sound(puzzles) -> None:
    """Every stored puzzle is whole: unique solution, the stored one, a true grade."""
    for p in puzzles:
        assert engine.count_solutions(p.givens) == 1
        assert engine.solve(p.givens) == p.solution
        assert p.clue_count == 81 - p.givens.count("0")
        assert p.canonical_key == engine.canonical(p.givens)
    givens = [p.givens for p in puzzles]
    assert len(set(givens)) == len(givens)


def test_pools_reach_their_targets(start_worker):
    set_targets(easy=(8, 12, 5), medium=(4, 6, 3), hard=(2, 3, 2), expert=(1, 2, 1))
    start_worker()
    refill_pools.delay()
    wanted = {"easy": 12, "medium": 6, "hard": 3, "expert": 2}
    wait_until(lambda: all(fresh(d) == n for d, n in wanted.items()), what="full pools")
    for difficulty in wanted:
        puzzles = list(Puzzle.objects.filter(difficulty=difficulty))
        assert_sound(puzzles)
        assert {engine.grade(p.givens).difficulty for p in puzzles} == {difficulty}


def test_master_and_extreme_pools_are_climbed_to_by_the_workers_and_give_their_dailies(
    start_worker,
):
    set_targets(master=(1, 1, 1), extreme=(1, 1, 1))
    start_worker()
    assert set(refill_pools()) == {"master", "extreme"}
    wait_until(lambda: fresh("master") == fresh("extreme") == 1, what="master and extreme made")
    for difficulty in ("master", "extreme"):
        puzzles = list(Puzzle.objects.filter(difficulty=difficulty))
        assert_sound(puzzles)
        assert {engine.grade(p.givens).difficulty for p in puzzles} == {difficulty}
    # Without stock no request made them; with it, the day's picks take them.
    picked = daily.dailies_of(daily.today())
    assert picked["master"].puzzle.difficulty == "master"
    assert picked["extreme"].puzzle.difficulty == "extreme"


def test_refills_start_below_the_low_mark_only_and_once(start_worker, settings):
    settings.REFILL_QUIET_REQUESTS_PER_MINUTE = 0  # no top-up in quiet time
    set_targets(easy=(2, 10, 5))
    start_worker()
    assert refill_pools() == {"easy": 10}
    assert refill_pools() == {}  # the round under way holds the lock
    wait_until(lambda: fresh("easy") == 10, what="easy pool full")
    Puzzle.objects.filter(pk__in=Puzzle.objects.fresh("easy").values("pk")[:7]).delete()
    assert refill_pools() == {}  # 3 left: not below the low mark of 2
    Puzzle.objects.filter(pk__in=Puzzle.objects.fresh("easy").values("pk")[:2]).delete()
    assert refill_pools() == {"easy": 9}
    wait_until(lambda: fresh("easy") == 10, what="easy pool refilled")


def test_a_quiet_site_has_its_pools_topped_up_and_a_busy_one_has_the_refill_wait(
    start_worker,
):
    set_targets(easy=(2, 10, 5))
    worker = start_worker()
    assert refill_pools() == {"easy": 10}
    wait_until(lambda: fresh("easy") == 10, what="easy pool full")
    Puzzle.objects.filter(pk__in=Puzzle.objects.fresh("easy").values("pk")[:5]).delete()
    traffic.add(100_000)  # a surge: busy for the worker too
    assert refill_pools() == {}  # 5 left: above the low mark, the refill waits
    refill_pool.delay("easy")  # a batch sent all the same stops before its first puzzle
    worker.wait_for_log("easy refill yields after 0 puzzles: the site is busy")
    assert fresh("easy") == 5
    assert locks.holder("easy") is None
    locks.client().delete(*locks.client().keys("site-requests:*"))  # quiet again
    assert refill_pools() == {"easy": 5}  # topped up above the low mark
    wait_until(lambda: fresh("easy") == 10, what="easy pool topped up")


def test_a_worker_started_with_start_checks_fills_pools_and_picks_dailies(start_worker):
    set_targets(easy=(3, 3, 3))
    start_worker(start_checks=True)
    # The dailies of every date some time zone is living.
    dailies = 4 * len(daily.living_dates())
    wait_until(
        lambda: fresh("easy") == 3 and DailyPuzzle.objects.count() == dailies,
        what="startup work",
    )
    # Master and extreme have no stock here and are never made while a pick waits.
    assert set(DailyPuzzle.objects.values_list("difficulty", flat=True)) == {
        "easy",
        "medium",
        "hard",
        "expert",
    }


def test_sigkill_mid_batch_loses_nothing_and_duplicates_nothing(start_worker):
    set_targets(hard=(20, 20, 20))
    worker = start_worker()
    with HeldWrites(database_url()) as held:  # the batch cannot commit until released
        refill_pool.delay("hard")
        worker.wait_for_log("making 20 hard puzzles")
        if held.pid:  # PostgreSQL tells when the batch waits to store its puzzles
            held.wait_for_waiter()
        worker.kill()
    assert "stored" not in worker.output()
    assert fresh("hard") == 0  # nothing half-stored
    start_worker()  # picks the unacknowledged batch up once the visibility timeout passes
    wait_until(lambda: fresh("hard") == 20, what="the batch redone")
    assert_sound(list(Puzzle.objects.all()))
    assert Puzzle.objects.count() == 20


def test_a_worker_killed_after_its_batch_committed_but_before_the_ack(start_worker):
    set_targets(hard=(20, 20, 20))
    worker = start_worker()
    with HeldWrites(database_url()):  # the batch cannot commit until released
        batch = refill_pool.delay("hard").id
        worker.wait_for_log("making 20 hard puzzles")
        # With late acknowledgement the worker's main process acknowledges a task when its
        # pool process reports it done: stopped, it cannot, while the pool process commits.
        os.kill(worker.process.pid, signal.SIGSTOP)
    worker.wait_for_log("stored 20 hard puzzles")
    worker.kill()
    assert fresh("hard") == 20
    # Players take the whole batch before it comes back, so that the batch delivered again
    # has room to store its puzzles a second time, were the canonical key not there.
    Puzzle.objects.update(served_at=timezone.now())
    second = start_worker()
    wait_until(lambda: fresh("hard") == 20, what="the pool refilled")
    assert f"refill_pool[{batch}] received" in second.output()  # the same task, again
    assert "stored 0 hard puzzles" in second.output()  # the same 20 puzzles, refused
    assert Puzzle.objects.count() == 40
    assert_sound(list(Puzzle.objects.all()))


def test_two_workers_refilling_at_once_never_pass_the_high_water_mark(start_worker):
    set_targets(medium=(40, 40, 15))
    start_worker()
    start_worker()
    for _ in range(4):  # several rounds at once, past the lock: only the trim stops them
        refill_pool.delay("medium")
    wait_until(lambda: fresh("medium") >= 40, what="medium pool full")
    wait_until_idle(broker_url())  # every batch ran: none may have stored past the mark
    assert fresh("medium") == 40
    assert_sound(list(Puzzle.objects.all()))


def test_two_beats_and_two_workers_start_one_round_per_pool(start_worker):
    set_targets(easy=(10, 30, 10), medium=(5, 12, 4))
    start_worker()
    start_worker()
    rounds: list[dict] = []

    def beat() -> None:
        try:
            rounds.append(refill_pools())
        finally:
            connection.close()  # this thread's own connection

    run_together(beat, beat)
    started = [difficulty for r in rounds for difficulty in r]
    assert sorted(started) == ["easy", "medium"]  # each pool's lock let one round start
    wait_until(lambda: fresh("easy") == 30 and fresh("medium") == 12, what="both pools full")
    wait_until_idle(broker_url())
    assert (fresh("easy"), fresh("medium")) == (30, 12)
    assert_sound(list(Puzzle.objects.all()))
