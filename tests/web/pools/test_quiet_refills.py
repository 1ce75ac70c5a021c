"""The site's traffic as the refills read it (requests counted in the broker's Redis), the
top-up of every pool to its high mark while the site is quiet, and a refill batch that
yields while the site is busy. Real Redis and database; the batch runs in this process."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache

from puzzles.models import PoolTarget, Puzzle
from puzzles.pools import locks, stock, traffic
from puzzles.pools.locks import RefillLock
from puzzles.pools.tasks import refill_pool

from ..helpers import stock as stock_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet_redis(settings):
    settings.REFILL_QUIET_REQUESTS_PER_MINUTE = 100
    settings.REFILL_QUIET_MINUTES = 5
    settings.REFILL_BUSY_REQUESTS_PER_MINUTE = 1000
    traffic.flush()  # what this process counted before the test
    cache.clear()  # the broker shares this Redis database: no count, no lock left
    yield
    cache.clear()


def target(difficulty: str, low: int, high: int, batch: int) -> None:
    PoolTarget.objects.update_or_create(
        difficulty=difficulty, defaults={"low": low, "high": high, "batch_size": batch}
    )
    for other in PoolTarget.objects.exclude(difficulty=difficulty):
        other.low = other.high = 0
        other.save()


def ordinary_traffic() -> None:
    """Between quiet and busy: 300 requests a minute over the last minute and five."""
    traffic.add(1500, at=time.time() - 150)


def busy_traffic() -> None:
    traffic.add(5000)


def test_the_web_counts_its_requests_for_the_workers_but_not_the_monitors(client, monkeypatch):
    monkeypatch.setattr(traffic, "FLUSH_SECONDS", 0.0)  # every request sends its count
    for _ in range(3):
        client.get("/")
    client.get("/healthz")
    assert traffic.counted(60) == 3


def test_a_web_process_sends_its_count_at_most_every_few_seconds(client, monkeypatch):
    monkeypatch.setattr(traffic, "FLUSH_SECONDS", 3600.0)
    traffic.flush()
    client.get("/")  # the first since the flush: held with the next ones
    client.get("/")
    assert traffic.counted(60) == 0
    traffic.flush()
    assert traffic.counted(60) == 2


def test_quiet_and_busy_follow_the_requests_a_minute():
    assert traffic.site_is_quiet() and not traffic.site_is_busy()  # nobody
    ordinary_traffic()
    assert not traffic.site_is_quiet() and not traffic.site_is_busy()
    busy_traffic()
    assert not traffic.site_is_quiet() and traffic.site_is_busy()


def test_a_count_older_than_the_window_is_not_read():
    traffic.add(50_000, at=time.time() - 20 * 60)
    assert traffic.counted(5 * 60) == 0
    assert traffic.site_is_quiet()


def test_a_surge_is_busy_before_it_has_filled_a_minute():
    """600 requests in the last seconds: 1,200 a minute or more over the last 20 s, though
    under 1,000 over the last minute."""
    traffic.add(600)
    assert traffic.per_minute(60) < 1000 <= traffic.per_minute(20)
    assert traffic.site_is_busy()


def test_thresholds_of_zero_turn_the_top_up_and_the_yielding_off(settings):
    settings.REFILL_QUIET_REQUESTS_PER_MINUTE = 0
    settings.REFILL_BUSY_REQUESTS_PER_MINUTE = 0
    busy_traffic()
    assert not traffic.site_is_quiet() and not traffic.site_is_busy()


def test_with_redis_unreachable_the_site_is_neither_quiet_nor_busy(settings, monkeypatch):
    monkeypatch.setattr(traffic, "_down_until", 0.0)  # put back after
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"  # nothing listens there
    traffic.add(10)  # never raises: the web goes on without its count
    assert traffic.counted(60) is None
    assert not traffic.site_is_quiet() and not traffic.site_is_busy()


def test_a_quiet_site_tops_every_pool_up_to_its_high_mark():
    target("easy", 2, 10, 5)
    stock_of("easy", 4, seed=1)
    assert stock.start_refills() == {"easy": 6}  # above its low mark of 2
    assert locks.holder("easy")


@pytest.mark.parametrize("traffic_now", [ordinary_traffic, busy_traffic])
def test_past_quiet_only_pools_below_their_low_mark_are_refilled(traffic_now):
    """Ordinary traffic and a busy site alike: a pool above its low mark waits, one that
    fell below it (about to run dry) is refilled to its high mark."""
    target("easy", 2, 10, 5)
    stock_of("easy", 4, seed=1)
    traffic_now()
    assert stock.start_refills() == {}
    Puzzle.objects.filter(pk__in=Puzzle.objects.fresh("easy").values("pk")[:3]).delete()
    assert stock.start_refills() == {"easy": 9}


@pytest.fixture
def sent(monkeypatch) -> list[tuple]:
    """The batches a round sends on, recorded instead of queued."""
    batches: list[tuple] = []
    monkeypatch.setattr(
        "puzzles.pools.broker.enqueue", lambda task, *args: batches.append(args) or True
    )
    return batches


@pytest.fixture
def busy_after(monkeypatch):
    """The site turns busy once the batch has made that many puzzles."""

    def after(puzzles: int) -> None:
        if puzzles == 0:
            busy_traffic()
            return
        real, made = stock.make, []

        def make(difficulty, rng):
            puzzle = real(difficulty, rng)
            made.append(puzzle)
            if len(made) == puzzles:
                busy_traffic()
            return puzzle

        monkeypatch.setattr(stock, "make", make)

    return after


@pytest.mark.django_db(transaction=True)
def test_a_batch_above_the_low_mark_stops_between_puzzles_when_the_site_turns_busy(
    sent, busy_after
):
    target("easy", 2, 20, 6)
    stock_of("easy", 4, seed=1)
    busy_after(2)
    assert RefillLock("easy", "round").acquire()
    assert refill_pool.apply(args=("easy", "round"), task_id="b-1").get() == 2
    assert Puzzle.objects.fresh("easy").count() == 6
    assert sent == []  # the round ends: the rest is made at the next quiet moment
    assert locks.holder("easy") is None  # and the next round may start


@pytest.mark.django_db(transaction=True)
def test_a_batch_below_the_low_mark_goes_on_while_the_site_is_busy(sent, busy_after):
    target("easy", 10, 20, 6)
    stock_of("easy", 2, seed=1)
    busy_after(0)
    assert RefillLock("easy", "round").acquire()
    assert refill_pool.apply(args=("easy", "round"), task_id="b-1").get() == 6
    assert sent == [("easy", "round")]  # still below the low mark: the round goes on
    assert locks.holder("easy") == "round"
    # The next batch starts above nothing but stops once the pool passed its low mark.
    assert refill_pool.apply(args=("easy", "round"), task_id="b-2").get() == 2
    assert Puzzle.objects.fresh("easy").count() == 10
    assert sent == [("easy", "round")]
    assert locks.holder("easy") is None


@pytest.mark.django_db(transaction=True)
def test_a_made_ahead_tier_yields_below_its_low_mark_and_its_round_waits_out_its_lock(
    sent, busy_after
):
    """Master and extreme: no new game waits for one (it falls back to one already served),
    and making one takes a core for seconds, so a busy site makes none even with the pool
    empty; the round keeps its lock until it lapses, so that the new games that find the
    pool low meanwhile start no round apiece."""
    target("master", 5, 15, 2)
    busy_after(0)
    assert RefillLock("master", "round").acquire()
    assert refill_pool.apply(args=("master", "round"), task_id="m-1").get() == 0
    assert Puzzle.objects.fresh("master").count() == 0
    assert sent == []
    assert locks.holder("master") == "round"  # held until it lapses
    assert stock.start_refill("master", 0) is False  # a new game starts no round
    assert sent == []
    # Once the lock has lapsed, the next round looks again: still busy, it yields again.
    RefillLock("master", "round").release()
    assert stock.start_refill("master", 0) is True
    assert len(sent) == 1
