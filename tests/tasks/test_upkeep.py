"""The nightly upkeep (puzzles/play/upkeep.py), run by a real Celery worker."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

import engine
from puzzles.accounts.players import Player
from puzzles.models import ChangeReceipt, Game, Puzzle
from puzzles.play import starting, upkeep
from puzzles.play.tasks import prune
from puzzles.pools import stock

from ..harness import wait_until
from .helpers import set_targets

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def a_puzzle(seed: int) -> Puzzle:
    stock.insert_new([stock.puzzle_row(engine.make_puzzle("easy", seed=seed))])
    return Puzzle.objects.order_by("-pk").first()


def receipts(game: Game, count: int) -> None:
    ChangeReceipt.objects.bulk_create(
        ChangeReceipt(game=game, client_id=f"c{n}", device="phone-0001", kind="move", version=n)
        for n in range(count)
    )


def a_session(expired: bool) -> str:
    store = SessionStore()
    store["guest_id"] = "someone"
    store.create()
    if expired:
        past = timezone.now() - datetime.timedelta(days=1)
        Session.objects.filter(session_key=store.session_key).update(expire_date=past)
    return store.session_key


def test_the_nightly_upkeep_removes_expired_sessions_and_receipts_of_games_over(
    start_worker, monkeypatch
):
    set_targets()
    monkeypatch.setattr(upkeep, "SLICE", 3)  # in this process only; the worker slices by 5,000
    playing = starting.game_on(Player(guest_id="a"), a_puzzle(1))
    solved = starting.game_on(Player(guest_id="b"), a_puzzle(2))
    gave_up = starting.game_on(Player(guest_id="c"), a_puzzle(3))
    for game in (playing, solved, gave_up):
        receipts(game, 4)
    Game.objects.filter(pk=solved.pk).update(status=Game.Status.SOLVED)
    Game.objects.filter(pk=gave_up.pk).update(status=Game.Status.GAVE_UP)
    live, gone = a_session(expired=False), [a_session(expired=True) for _ in range(7)]

    start_worker()
    prune.delay()
    wait_until(lambda: Session.objects.count() == 1, what="the expired sessions removed")
    wait_until(lambda: ChangeReceipt.objects.count() == 4, what="the receipts removed")

    assert set(Session.objects.values_list("session_key", flat=True)) == {live}
    assert set(ChangeReceipt.objects.values_list("game", flat=True)) == {playing.pk}
    assert ChangeReceipt.objects.count() == 4
    # Run again, here and in slices smaller than what there is: nothing more to remove.
    assert upkeep.prune() == {"sessions": 0, "receipts": 0}
    receipts(solved, 7)
    a_session(expired=True)
    assert upkeep.prune() == {"sessions": 1, "receipts": 7}
    assert not set(gone) & set(Session.objects.values_list("session_key", flat=True))
