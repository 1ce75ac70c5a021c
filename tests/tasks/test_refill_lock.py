"""The refill lock on the test Redis: one owner, a short life, owner-only renewal and
release; a batch delivered again keeps its round's lock."""

from __future__ import annotations

import pytest

from puzzles.pools import locks
from puzzles.pools.locks import RefillLock
from puzzles.pools.tasks import refill_pool

from .helpers import fresh, set_targets


@pytest.fixture(autouse=True)
def _no_lock():
    locks.client().delete(locks.key("easy"))
    yield
    locks.client().delete(locks.key("easy"))


def test_only_the_owner_renews_or_releases_the_lock(settings):
    settings.REFILL_LOCK_SECONDS = 30
    mine, theirs = RefillLock("easy"), RefillLock("easy")
    assert mine.acquire() and not theirs.acquire()
    assert 0 < locks.client().pttl(locks.key("easy")) <= 30_000  # it dies by itself
    assert not theirs.renew() and not theirs.release() and not theirs.claim()
    assert locks.holder("easy") == mine.token
    assert mine.renew() and mine.release()
    assert locks.holder("easy") is None
    assert theirs.claim() and locks.holder("easy") == theirs.token  # free: taken


def test_an_owner_whose_lock_expired_takes_it_again_if_nobody_else_did():
    mine = RefillLock("easy")
    assert mine.acquire()
    locks.client().delete(locks.key("easy"))  # expired
    assert not mine.renew()
    assert mine.claim() and locks.holder("easy") == mine.token


@pytest.mark.django_db(transaction=True)
def test_a_batch_delivered_again_goes_on_with_its_own_rounds_lock(monkeypatch):
    sent = []
    monkeypatch.setattr(
        "puzzles.pools.broker.enqueue", lambda task, *args: sent.append(args) or True
    )
    set_targets(easy=(2, 3, 1))
    # The first delivery of batch "b-1" took the lock with its task id, then its worker died.
    assert RefillLock("easy", "b-1").acquire()
    assert refill_pool.apply(args=("easy",), task_id="b-1").get() == 1
    assert fresh("easy") == 1
    assert locks.holder("easy") == "b-1"
    assert sent == [("easy", "b-1")]  # the round goes on
    # A batch of another round while that one holds the lock stores, and stops there.
    assert refill_pool.apply(args=("easy", "other"), task_id="b-2").get() == 1
    assert locks.holder("easy") == "b-1"
    assert sent == [("easy", "b-1")]
