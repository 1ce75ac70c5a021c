"""Guest games adopted at log-in: no answered move is lost, no ended game is replaced, and
help or a seen solution on a puzzle keeps every later game of the player's on it off the
leaderboards, whichever session it was played in (issue 9)."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.db import IntegrityError, transaction
from django.test import Client

from puzzles.accounts.players import Player
from puzzles.models import Game, Move, Preferences

from ..helpers import play_to_the_end, post, state

pytestmark = pytest.mark.django_db

NOON = datetime.datetime(2026, 6, 15, 12, 0, tzinfo=datetime.UTC)
DAY = "2026-06-15"
PASSWORD = "wonderland-42"


def open_daily(client: Client, difficulty: str) -> Game:
    """The client's game on the day's daily, started or resumed through the site."""
    response = client.post(f"/daily/{DAY}/{difficulty}/")
    assert response.status_code == 302, response
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def log_in(client: Client) -> None:
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302, response


def log_out(client: Client) -> None:
    assert client.post("/accounts/logout/").status_code == 302


def fill(client: Client, game: Game, count: int, *, skip: int = 0) -> dict:
    """Put the right digit in count empty cells (after skipping some), each answered 200."""
    current = state(client, game)
    blanks = [c for c, ch in enumerate(current["values"]) if ch == "0"][skip : skip + count]
    for cell in blanks:
        body = {"cell": cell, "digit": int(game.puzzle.solution[cell]), "mode": "value"}
        response = post(client, game, "moves", body | {"version": current["version"]})
        assert response.status_code == 200, response.json()
        current = response.json()
    return current


def use_help(client: Client, game: Game, kind: str) -> None:
    """One kind of help on a game in play, through the API or the settings page."""
    if kind == "hint":
        assert post(client, game, "hint", {"level": 1}).status_code == 200
    elif kind == "check":
        assert post(client, game, "check").status_code == 200
    elif kind == "reveal":
        cell = state(client, game)["values"].index("0")
        assert post(client, game, "reveal", {"cell": cell}).status_code == 200
    elif kind == "marking":
        client.post("/settings/", {"mark_mistakes": "on", "theme": "system", "show_timer": "on"})
        fill(client, game, 1)
        client.post("/settings/", {"theme": "system", "show_timer": "on"})
    elif kind == "give-up":
        assert post(client, game, "give-up").status_code == 200
    else:
        raise AssertionError(kind)


def moves_of(game: Game) -> int:
    return Move.objects.filter(game=game).count()


def on_the_board(client: Client) -> str:
    """The day's leaderboards as the page shows them ("" when nobody is on them)."""
    page = client.get(f"/daily/{DAY}/").content.decode()
    return page[page.index("Fastest clean solves") :] if "Fastest clean solves" in page else ""


HELP = ["hint", "check", "reveal", "marking", "give-up"]


# The findings of the issue ------------------------------------------------------------


def test_logging_in_beside_an_empty_guest_game_keeps_the_accounts_progress(alice, stocked):
    """Finding 1: the account's game with 20 cells was deleted for an empty guest game."""
    phone, laptop = Client(), Client()
    with time_machine.travel(NOON, tick=True):
        log_in(phone)
        mine = open_daily(phone, "hard")
        fill(phone, mine, 20)
        guest = open_daily(laptop, "hard")  # opened, not played
        log_in(laptop)
        assert Game.objects.filter(pk=mine.pk).exists(), "the account's game was deleted"
        for client in (phone, laptop):
            assert state(client, mine)["values"].count("0") == mine.values.count("0") - 20
        assert moves_of(mine) == 20
        assert not Game.objects.filter(pk=guest.pk).exists()  # it had nothing to keep
        assert open_daily(laptop, "hard").pk == mine.pk
        # The laptop's open page of the guest game leads to the account's game.
        assert laptop.get(f"/games/{guest.pk}/").url == f"/games/{mine.pk}/"
        assert fill(phone, mine, 1)["values"].count("0") == mine.values.count("0") - 21


def test_a_given_up_daily_never_becomes_a_clean_solve_through_a_guest_game(alice, stocked):
    """Finding 2: give up, log out, solve as a guest with the solution, log in again."""
    client = Client()
    with time_machine.travel(NOON, tick=True) as clock:
        log_in(client)
        given_up = open_daily(client, "easy")
        assert post(client, given_up, "give-up").json()["solution"]
        log_out(client)
        clock.shift(60)
        replay = open_daily(client, "easy")
        assert replay.pk != given_up.pk
        play_to_the_end(client, replay)
        log_in(client)
    given_up.refresh_from_db()
    assert given_up.status == Game.Status.GAVE_UP and given_up.user == alice
    assert not Game.objects.clean_solves().filter(user=alice).exists()
    assert "alice" not in on_the_board(client)
    replay.refresh_from_db()  # kept as a record, off the leaderboards
    assert replay.user == alice and replay.set_aside_at is not None and not replay.clean
    assert open_daily(client, "easy").pk == given_up.pk


@pytest.mark.parametrize("kind", ["hint", "check", "reveal", "marking"])
def test_help_on_the_accounts_game_is_not_washed_by_a_clean_guest_solve(alice, stocked, kind):
    """Finding 2, the same with help instead of giving up: the account's game goes on."""
    client = Client()
    with time_machine.travel(NOON, tick=True) as clock:
        log_in(client)
        helped = open_daily(client, "easy")
        fill(client, helped, 2)
        use_help(client, helped, kind)
        log_out(client)
        clock.shift(60)
        replay = open_daily(client, "easy")
        play_to_the_end(client, replay)
        log_in(client)
        assert open_daily(client, "easy").pk == helped.pk
        play_to_the_end(client, helped)
    assert not Game.objects.clean_solves().filter(user=alice).exists()
    assert "alice" not in on_the_board(client)
    assert Game.objects.get(pk=replay.pk).status == Game.Status.SOLVED  # kept, set aside


# The other orders ---------------------------------------------------------------------


def test_guest_moves_and_account_moves_are_both_kept(alice, stocked):
    """Guest first, then the account on another device; both played: the account's game
    stays the one in play and the guest's is kept, set aside, in the history."""
    phone, laptop = Client(), Client()
    with time_machine.travel(NOON, tick=True):
        guest = open_daily(laptop, "medium")
        fill(laptop, guest, 5)
        log_in(phone)
        mine = open_daily(phone, "medium")
        fill(phone, mine, 3, skip=10)
        log_in(laptop)
        guest.refresh_from_db()
        assert guest.user == alice and guest.guest_id is None and guest.set_aside_at
        assert moves_of(guest) == 5 and moves_of(mine) == 3
        assert open_daily(laptop, "medium").pk == mine.pk
        assert state(laptop, guest)["set_aside"] is True
        blank = state(laptop, guest)["values"].index("0")
        move = {"cell": blank, "digit": 1, "mode": "value", "version": guest.version}
        refused = post(laptop, guest, "moves", move)
        assert refused.status_code == 409 and "set aside" in refused.json()["error"]
        assert fill(phone, mine, 1)["version"] == 4
        history = laptop.get("/history/").content.decode()
        assert f"/games/{guest.pk}/" in history and f"/games/{mine.pk}/" in history
        assert Player(user=alice).games().count() == 1  # stats count the puzzle once


def test_an_empty_account_game_yields_to_the_guests_progress(alice, stocked):
    phone, laptop = Client(), Client()
    with time_machine.travel(NOON, tick=True):
        log_in(phone)
        empty = open_daily(phone, "hard")
        guest = open_daily(laptop, "hard")
        fill(laptop, guest, 7)
        log_in(laptop)
    assert not Game.objects.filter(pk=empty.pk).exists()
    guest.refresh_from_db()
    assert guest.user == alice and guest.set_aside_at is None and moves_of(guest) == 7
    assert state(phone, guest)["values"] == guest.values
    assert phone.get(f"/api/games/{empty.pk}").status_code == 404


def test_an_ended_account_game_is_never_replaced(alice, stocked):
    """The account solved it clean; a later guest solve, clean or not, changes nothing."""
    phone, laptop = Client(), Client()
    with time_machine.travel(NOON, tick=True) as clock:
        log_in(phone)
        mine = open_daily(phone, "easy")
        clock.shift(300)
        play_to_the_end(phone, mine)
        guest = open_daily(laptop, "easy")
        play_to_the_end(laptop, guest)  # faster
        log_in(laptop)
    mine.refresh_from_db()
    assert mine.clean and mine.set_aside_at is None
    assert list(Game.objects.clean_solves().filter(user=alice)) == [mine]
    assert Game.objects.get(pk=guest.pk).set_aside_at is not None


@pytest.mark.parametrize("kind", HELP)
def test_help_in_a_guest_game_keeps_the_accounts_game_in_play_off_the_boards(alice, stocked, kind):
    """The other way round: the guest used help or gave up; the account's game in play
    stays the one in play, and its solve is not clean."""
    phone, laptop = Client(), Client()
    with time_machine.travel(NOON, tick=True) as clock:
        log_in(phone)
        mine = open_daily(phone, "easy")
        fill(phone, mine, 2)
        guest = open_daily(laptop, "easy")
        fill(laptop, guest, 1, skip=20)
        use_help(laptop, guest, kind)
        clock.shift(5)
        log_in(laptop)
        assert open_daily(laptop, "easy").pk == mine.pk
        assert Game.objects.get(pk=guest.pk).set_aside_at is not None
        play_to_the_end(phone, mine)
    mine.refresh_from_db()
    assert mine.status == Game.Status.SOLVED and not mine.clean
    assert "clean" in state(phone, mine) and state(phone, mine)["clean"] is False
    assert not Game.objects.clean_solves().filter(user=alice).exists()
    assert "alice" not in on_the_board(phone)


def test_help_with_no_move_in_a_guest_game_still_counts(alice, stocked):
    phone, laptop = Client(), Client()
    with time_machine.travel(NOON, tick=True):
        log_in(phone)
        mine = open_daily(phone, "easy")
        fill(phone, mine, 2)
        guest = open_daily(laptop, "easy")
        use_help(laptop, guest, "hint")  # a hint told, nothing placed
        log_in(laptop)
        play_to_the_end(phone, mine)
    assert not Game.objects.get(pk=mine.pk).clean


def test_a_guest_give_up_before_the_accounts_solve_spoils_it(alice, stocked):
    """The guest saw the solution, then the account solved: once the two are known to be
    the same player, that solve is not clean."""
    phone, laptop = Client(), Client()
    with time_machine.travel(NOON, tick=True) as clock:
        guest = open_daily(laptop, "easy")
        use_help(laptop, guest, "give-up")
        clock.shift(60)
        log_in(phone)
        mine = open_daily(phone, "easy")
        play_to_the_end(phone, mine)
        assert Game.objects.get(pk=mine.pk).clean  # the server cannot know yet
        clock.shift(60)
        log_in(laptop)
    mine.refresh_from_db()
    assert mine.status == Game.Status.SOLVED and not mine.clean
    assert Game.objects.get(pk=guest.pk).status == Game.Status.GAVE_UP


def test_a_guest_game_given_up_moves_to_an_account_with_none(alice, stocked):
    laptop = Client()
    with time_machine.travel(NOON, tick=True):
        guest = open_daily(laptop, "easy")
        use_help(laptop, guest, "give-up")
        log_in(laptop)
        assert open_daily(laptop, "easy").pk == guest.pk
    guest.refresh_from_db()
    assert guest.user == alice and guest.set_aside_at is None
    assert guest.status == Game.Status.GAVE_UP and not guest.clean


def test_the_clean_solve_rule_reads_the_server_side_fact(alice, stocked):
    """A game carries when help was first used on its puzzle; the flags alone don't
    decide."""
    client = Client()
    with time_machine.travel(NOON, tick=True):
        log_in(client)
        game = open_daily(client, "easy")
        use_help(client, game, "hint")
    game.refresh_from_db()
    assert game.helped_at is not None
    Preferences.objects.update_or_create(user=alice, defaults={"mark_mistakes": False})
    Game.objects.filter(pk=game.pk).update(hints=0)  # the counter alone would say clean
    play_to_the_end(client, game)
    assert not Game.objects.get(pk=game.pk).clean
    assert not Game.objects.clean_solves().filter(pk=game.pk).exists()


def test_one_live_game_per_player_and_puzzle_set_aside_ones_beside_it(alice, stocked):
    client = Client()
    client.force_login(alice)
    with time_machine.travel(NOON, tick=True):
        game = open_daily(client, "easy")
    fields = {"user": alice, "puzzle": game.puzzle, "values": game.values}
    Game.objects.create(**fields, set_aside_at=NOON)
    Game.objects.create(**fields, set_aside_at=NOON)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(**fields)


def test_logging_out_and_in_again_keeps_every_move(alice, stocked):
    client = Client()
    with time_machine.travel(NOON, tick=True):
        log_in(client)
        mine = open_daily(client, "medium")
        fill(client, mine, 4)
        log_out(client)
        assert client.get(f"/api/games/{mine.pk}").status_code == 404
        log_in(client)
        assert moves_of(mine) == 4 and open_daily(client, "medium").pk == mine.pk
