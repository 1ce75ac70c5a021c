"""The statements written as SQL (puzzles/sql.py: the game read, receipts, the game's
UPDATE, inserts, the session and a user's preferences) give what the ORM gives for the same
rows, on either database, for every type of field they read or write."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from puzzles import sql
from puzzles.accounts.players import Player, preferences_for
from puzzles.accounts.sessions import SessionStore
from puzzles.models import ChangeReceipt, Game, Move, Preferences
from puzzles.play import changes, starting
from puzzles.pools.daily import dailies_of, today

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def orm_game(pk: int) -> Game:
    return Game.objects.select_related("puzzle", "daily").get(pk=pk)


def played(game: Game) -> Game:
    """A game with something in every kind of field: notes, touched cells, a clock."""
    changes.move(game, game.puzzle.givens.index("0"), 4, "note", game.version, Preferences())
    changes.move(game, game.puzzle.givens.index("0"), 5, "value", game.version, Preferences())
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("lock", [False, True])
def test_a_game_read_is_the_orms_with_its_puzzle_and_daily(stocked, alice, lock):
    daily = dailies_of(today())["easy"]
    guest = played(starting.daily_game(Player(guest_id="g-1"), today(), "easy"))
    users = played(starting.new_game(Player(user=alice), "medium"))
    with transaction.atomic():
        read = sql.read_game(guest.pk, user_id=None, guest_id="g-1", lock=lock)
        mine = sql.read_game(users.pk, user_id=alice.pk, guest_id=None, lock=lock)
    assert fields(read) == fields(orm_game(guest.pk)) and read.notes and read.touched
    assert fields(read.puzzle) == fields(guest.puzzle) and fields(read.daily) == fields(daily)
    assert fields(mine) == fields(orm_game(users.pk)) and mine.daily is None
    assert fields(mine.puzzle) == fields(users.puzzle)
    # Anyone else's game, or nobody's, is not read.
    assert sql.read_game(guest.pk, user_id=alice.pk, guest_id=None, lock=lock) is None
    assert sql.read_game(users.pk, user_id=None, guest_id="g-1", lock=lock) is None
    assert sql.read_game(users.pk, user_id=None, guest_id=None, lock=lock) is None
    # An id past what the database can hold is no game either, not an error.
    assert sql.read_game(10**30, user_id=None, guest_id="g-1", lock=lock) is None


def test_a_locked_read_locks_the_games_row_where_the_database_locks_rows(stocked):
    game = starting.new_game(Player(guest_id="g-1"), "easy")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        sql.read_game(game.pk, user_id=None, guest_id="g-1", lock=True)
    (read,) = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    if connection.features.has_select_for_update_of:
        assert read.endswith("FOR UPDATE OF g")
    else:
        assert "FOR UPDATE" not in read


def test_an_insert_stores_what_bulk_create_stores(stocked):
    game = starting.new_game(Player(guest_id="g-1"), "easy")
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
    sql.insert(made[:2])
    Move.objects.bulk_create(made[2:])
    stored = [fields(m) for m in Move.objects.filter(game=game).order_by("number")]
    for row, move in zip(stored, made, strict=True):
        assert {k: v for k, v in row.items() if k != "id"} == {
            k: v for k, v in fields(move).items() if k != "id"
        }
    sql.insert([ChangeReceipt(game=game, client_id="c1", device="phone-01", kind="move")])
    assert sql.receipts(game, ["c1", "c2"]).keys() == {"c1"}
    assert sql.receipts(game, []) == {}


def test_an_update_saves_only_a_running_game_at_the_version_seen(stocked, alice):
    game = starting.new_game(Player(user=alice), "easy")  # only users' games are set aside
    later = timezone.now() + datetime.timedelta(minutes=3)
    change = {"notes": [[1, 2]] + [[]] * 80, "touched": {"7": [3, "phone"]}, "seen_at": later}
    assert not sql.update_running(game, change, version=game.version + 1)
    assert sql.update_running(game, change, version=game.version)
    saved = Game.objects.get(pk=game.pk)
    assert (saved.notes, saved.touched, saved.seen_at) == tuple(change.values())
    Game.objects.filter(pk=game.pk).update(set_aside_at=later)
    assert not sql.update_running(game, {"seen_at": timezone.now()}, version=None)
    Game.objects.filter(pk=game.pk).update(set_aside_at=None, status=Game.Status.SOLVED)
    assert not sql.update_running(game, {"seen_at": timezone.now()}, version=None)
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
    assert preferences_for(request) is first  # read once a request
    request = rf.get("/")  # the next request reads the saved row
    request.user = alice
    again = preferences_for(request)
    assert fields(again) == fields(Preferences.objects.get(user=alice))
    assert again.mark_mistakes and again.user is alice


def test_an_id_too_large_for_the_database_is_no_such_game(client, stocked):
    starting.new_game(Player(guest_id="g-1"), "easy")
    response = client.get(f"/api/games/{10**30}")
    assert response.status_code == 404 and response.json()["error"] == "No such game."


# Every type of field the statements read or write, each with a value unlike its default.
SAMPLE = {
    "CharField": lambda f: (
        "x" * min(f.max_length or 8, 8) if f.name not in ("values", "complete") else "1" * 81
    ),
    "TextField": lambda f: "some text",
    "JSONField": lambda f: {"7": [3, "phone"], "k": [1.5, None, True]},
    "DateTimeField": lambda f: timezone.now().replace(microsecond=123456),
    "DateField": lambda f: datetime.date(2026, 2, 28),
    "FloatField": lambda f: 12.75,
    "BooleanField": lambda f: True,
    "PositiveIntegerField": lambda f: 7,
    "PositiveSmallIntegerField": lambda f: 3,
    "IntegerField": lambda f: -4,
}
RUNNING = {"id", "user", "guest_id", "puzzle", "daily", "status", "set_aside_at"}


def test_the_update_writes_and_the_read_reads_every_type_of_a_games_field(stocked, alice):
    """Each of the game's fields written by the UPDATE and read back by the game's read
    as the ORM reads it: a field of a new type that the statements mishandle fails here."""
    game = starting.new_game(Player(user=alice), "easy")
    writable = [f for f in Game._meta.concrete_fields if f.name not in RUNNING]
    kinds = {f.get_internal_type() for f in writable}
    assert kinds <= set(SAMPLE), kinds - set(SAMPLE)  # a new type of field: sample it here
    values = {f.name: SAMPLE[f.get_internal_type()](f) for f in writable}
    values["status"] = Game.Status.PLAYING
    assert sql.update_running(game, values, version=game.version)
    with transaction.atomic():
        read = sql.read_game(game.pk, user_id=alice.pk, guest_id=None, lock=True)
    assert fields(read) == fields(orm_game(game.pk))
    for name, value in values.items():
        assert getattr(read, name) == value, name
    # A field compared as it was read (a hint told): the row's JSON, equal or not.
    assert sql.update_running(game, {"mistakes": 1}, version=None, same={"hint": values["hint"]})
    assert not sql.update_running(game, {"mistakes": 2}, version=None, same={"hint": {}})
    assert Game.objects.get(pk=game.pk).mistakes == 1


def test_the_reads_cover_every_type_of_field_of_what_they_read():
    """The game read builds a game, its puzzle and daily; the receipts, a session and the
    preferences: every type of field among them is one the tests above hold to the ORM."""
    from puzzles.models import DailyPuzzle, Puzzle

    read = {
        f.get_internal_type()
        for model in (Game, Puzzle, DailyPuzzle, ChangeReceipt, Session, Preferences, Move)
        for f in model._meta.concrete_fields
    }
    assert read <= set(SAMPLE) | {"AutoField", "BigAutoField", "ForeignKey", "OneToOneField"}
