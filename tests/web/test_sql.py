"""The statements written once (puzzles/sql.py, puzzles/play/rows.py, the session store and
a user's preferences) give what the ORM gives for the same rows, on either database."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from puzzles.accounts.players import Player, preferences_for
from puzzles.accounts.sessions import SessionStore
from puzzles.models import ChangeReceipt, Game, Move, Preferences
from puzzles.play import games, rows
from puzzles.pools.daily import dailies_of, today
from puzzles.sql import insert

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def orm_game(pk: int) -> Game:
    return Game.objects.select_related("puzzle", "daily").get(pk=pk)


def played(game: Game) -> Game:
    """A game with something in every kind of field: notes, touched cells, a clock."""
    games.move(game, game.puzzle.givens.index("0"), 4, "note", game.version, Preferences())
    games.move(game, game.puzzle.givens.index("0"), 5, "value", game.version, Preferences())
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("lock", [False, True])
def test_a_game_read_is_the_orms_with_its_puzzle_and_daily(stocked, alice, lock):
    daily = dailies_of(today())["easy"]
    guest = played(games.daily_game(Player(guest_id="g-1"), today(), "easy"))
    users = played(games.new_game(Player(user=alice), "medium"))
    with transaction.atomic():
        read = rows.read_game(guest.pk, user_id=None, guest_id="g-1", lock=lock)
        mine = rows.read_game(users.pk, user_id=alice.pk, guest_id=None, lock=lock)
    assert fields(read) == fields(orm_game(guest.pk)) and read.notes and read.touched
    assert fields(read.puzzle) == fields(guest.puzzle) and fields(read.daily) == fields(daily)
    assert fields(mine) == fields(orm_game(users.pk)) and mine.daily is None
    assert fields(mine.puzzle) == fields(users.puzzle)
    # Anyone else's game, or nobody's, is not read.
    assert rows.read_game(guest.pk, user_id=alice.pk, guest_id=None, lock=lock) is None
    assert rows.read_game(users.pk, user_id=None, guest_id="g-1", lock=lock) is None
    assert rows.read_game(users.pk, user_id=None, guest_id=None, lock=lock) is None
    # An id past what the database can hold is no game either, not an error.
    assert rows.read_game(10**30, user_id=None, guest_id="g-1", lock=lock) is None


def test_a_locked_read_locks_the_games_row_where_the_database_locks_rows(stocked):
    game = games.new_game(Player(guest_id="g-1"), "easy")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        rows.read_game(game.pk, user_id=None, guest_id="g-1", lock=True)
    (sql,) = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    if connection.features.has_select_for_update_of:
        assert sql.endswith("FOR UPDATE OF g")
    else:
        assert "FOR UPDATE" not in sql


def test_an_insert_stores_what_bulk_create_stores(stocked):
    game = games.new_game(Player(guest_id="g-1"), "easy")
    now = timezone.now()
    made = [
        Move(
            game=game,
            number=n,
            kind="value",
            cell=n,
            digit=n % 9 + 1,
            created_at=now,
            changes=[{"cell": n, "digit": n % 9 + 1, "was": 0}],
        )
        for n in range(1, 4)
    ]
    insert(made[:2])
    Move.objects.bulk_create(made[2:])
    stored = [fields(m) for m in Move.objects.filter(game=game).order_by("number")]
    for row, move in zip(stored, made, strict=True):
        assert {k: v for k, v in row.items() if k != "id"} == {
            k: v for k, v in fields(move).items() if k != "id"
        }
    insert([ChangeReceipt(game=game, client_id="c1", device="phone-01", kind="move")])
    assert rows.receipts(game, ["c1", "c2"]).keys() == {"c1"}
    assert rows.receipts(game, []) == {}


def test_an_update_saves_only_a_running_game_at_the_version_seen(stocked, alice):
    game = games.new_game(Player(user=alice), "easy")  # only users' games are set aside
    later = timezone.now() + datetime.timedelta(minutes=3)
    change = {"notes": [[1, 2]] + [[]] * 80, "touched": {"7": [3, "phone"]}, "seen_at": later}
    assert not rows.update_running(game, game.version + 1, change)
    assert rows.update_running(game, game.version, change)
    saved = Game.objects.get(pk=game.pk)
    assert (saved.notes, saved.touched, saved.seen_at) == tuple(change.values())
    Game.objects.filter(pk=game.pk).update(set_aside_at=later)
    assert not rows.update_running(game, game.version, {"seen_at": timezone.now()})
    Game.objects.filter(pk=game.pk).update(set_aside_at=None, status=Game.Status.SOLVED)
    assert not rows.update_running(game, game.version, {"seen_at": timezone.now()})
    assert Game.objects.get(pk=game.pk).seen_at == later


def test_a_session_is_read_until_it_expires_and_then_forgotten():
    store = SessionStore()
    store["guest_id"] = "g-1"
    store.create()
    assert SessionStore(store.session_key)["guest_id"] == "g-1"
    past = timezone.now() - datetime.timedelta(seconds=1)
    Session.objects.filter(session_key=store.session_key).update(expire_date=past)
    expired = SessionStore(store.session_key)
    assert expired.get("guest_id") is None and expired.session_key is None
    assert SessionStore(None).load() == {} and SessionStore("no-such-key").load() == {}


def test_a_users_preferences_are_the_saved_ones_made_the_first_time(rf, alice):
    request = rf.get("/")
    request.user = alice
    first = preferences_for(request)
    assert first.pk is not None and Preferences.objects.filter(user=alice).count() == 1
    Preferences.objects.filter(user=alice).update(mark_mistakes=True, theme="dark")
    again = preferences_for(request)
    assert fields(again) == fields(Preferences.objects.get(user=alice))
    assert again.mark_mistakes and again.user is alice


def test_an_id_too_large_for_the_database_is_no_such_game(client, stocked):
    games.new_game(Player(guest_id="g-1"), "easy")
    response = client.get(f"/api/games/{10**30}")
    assert response.status_code == 404 and response.json()["error"] == "No such game."
