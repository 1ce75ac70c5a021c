"""Claiming, storing and daily picks against the database (SQLite or PostgreSQL)."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection, connections

import engine
from puzzles import daily, pool
from puzzles.models import DailyPuzzle, PoolTarget, Puzzle

pytestmark = pytest.mark.django_db


def stock(difficulty: str, n: int, seed: int = 0) -> list[Puzzle]:
    rng = random.Random(seed)
    rows = [pool.puzzle_row(engine.make_puzzle(difficulty, seed=rng)) for _ in range(n)]
    pool.insert_new(rows)
    return list(Puzzle.objects.filter(difficulty=difficulty))


def test_claim_takes_fresh_puzzles_in_order_until_the_pool_is_empty():
    made = stock("easy", 3)
    claimed = [pool.claim_fresh_puzzle("easy") for _ in range(3)]
    assert [p.pk for p in claimed] == sorted(p.pk for p in made)
    assert all(p.served_at for p in claimed)
    assert pool.claim_fresh_puzzle("easy") is None
    assert pool.fresh_counts() == {"easy": 0, "medium": 0, "hard": 0, "expert": 0}


def test_store_for_pool_trims_a_batch_to_the_high_water_mark():
    PoolTarget.objects.update_or_create(
        difficulty="medium", defaults={"low": 2, "high": 5, "batch_size": 4}
    )
    rng = random.Random(1)
    batch = [engine.make_puzzle("medium", seed=rng) for _ in range(4)]
    assert pool.store_for_pool("medium", batch) == 4
    batch = [engine.make_puzzle("medium", seed=rng) for _ in range(4)]
    assert pool.store_for_pool("medium", batch) == 1
    assert Puzzle.objects.fresh("medium").count() == 5


def test_the_same_puzzle_in_disguise_is_stored_once():
    made = engine.make_puzzle("hard", seed=3)
    disguised = engine.Generated(engine.canonical(made.puzzle), "", made.grade)
    disguised.solution = engine.solve(disguised.puzzle)
    assert len(pool.insert_new([pool.puzzle_row(made), pool.puzzle_row(disguised)])) == 1
    assert len(pool.insert_new([pool.puzzle_row(disguised)])) == 1
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
            puzzle = pool.claim_fresh_puzzle("easy")
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
    first = daily.ensure_daily(date)
    again = daily.ensure_daily(date)
    assert {d: p.puzzle_id for d, p in first.items()} == {d: p.puzzle_id for d, p in again.items()}
    assert DailyPuzzle.objects.filter(date=date).count() == 4
    for picked in first.values():
        assert picked.puzzle.served_at is not None
    assert Puzzle.objects.fresh("easy").count() == 1
    # hard and expert had no stock: made on the spot rather than failing
    assert first["hard"].puzzle.difficulty == "hard"
    assert first["expert"].puzzle.difficulty == "expert"


def test_a_new_game_that_takes_the_pool_below_its_low_mark_starts_a_refill(client):
    from django.core.cache import cache

    cache.delete("pool-refill:medium")
    stock("medium", 3, seed=9)
    PoolTarget.objects.update_or_create(
        difficulty="medium", defaults={"low": 3, "high": 9, "batch_size": 3}
    )
    client.post("/play/medium/")  # 2 left: below 3
    assert cache.get("pool-refill:medium") == "1"  # a round is under way: the lock is held
    client.post("/play/medium/")
    assert Puzzle.objects.fresh("medium").count() == 1  # the web itself never generates
