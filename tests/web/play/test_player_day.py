"""The player's day on the server: the browser's time zone (the tz cookie) sets the date of
the dailies and the days of the streak; an account keeps the last zone named; a name that
is no time zone is ignored."""

from __future__ import annotations

import datetime

import pytest
import time_machine

from puzzles.models import DailyPuzzle, Game, Preferences, Puzzle

FRIDAY_MORNING_UTC = datetime.datetime(2026, 11, 27, 6, 25, tzinfo=datetime.UTC)
WEDNESDAY, THURSDAY = datetime.date(2026, 11, 25), datetime.date(2026, 11, 26)
LOS_ANGELES = "America/Los_Angeles"


def solved_daily(user, puzzle: Puzzle, date: datetime.date, finished: datetime.datetime):
    daily = DailyPuzzle.objects.create(date=date, difficulty="easy", puzzle=puzzle)
    return Game.objects.create(
        puzzle=puzzle,
        daily=daily,
        user=user,
        values=puzzle.solution,
        status=Game.Status.SOLVED,
        finished_at=finished,
        active_seconds=300,
    )


@pytest.fixture
def late_evening_solves(stocked, alice) -> None:
    """Alice solved Wednesday's and Thursday's dailies at 22:00 in Los Angeles: after
    midnight in UTC, so on the next day there."""
    first, second = stocked["easy"][:2]
    solved_daily(
        alice, first, WEDNESDAY, datetime.datetime(2026, 11, 26, 6, 0, tzinfo=datetime.UTC)
    )
    solved_daily(
        alice, second, THURSDAY, datetime.datetime(2026, 11, 27, 6, 0, tzinfo=datetime.UTC)
    )


def streak_shown(client) -> str:
    page = client.get("/stats/").content.decode()
    return page.split("data-streak>")[1].split("<")[0]


def test_a_streak_counts_the_days_of_the_players_zone(player, late_evening_solves):
    with time_machine.travel(FRIDAY_MORNING_UTC):
        player.cookies["tz"] = LOS_ANGELES
        assert streak_shown(player) == "2"
        player.cookies["tz"] = "UTC"
        assert streak_shown(player) == "0"


def test_the_account_keeps_the_zone_its_browser_named(player, alice, late_evening_solves):
    with time_machine.travel(FRIDAY_MORNING_UTC):
        player.cookies["tz"] = LOS_ANGELES
        player.get("/")
        assert Preferences.objects.get(user=alice).time_zone == LOS_ANGELES
        del player.cookies["tz"]  # another device, its cookie not set yet
        assert streak_shown(player) == "2"


@pytest.mark.parametrize("name", ["Mars/Olympus", "../../etc", "x" * 300, "Europe/London\x00"])
def test_a_name_that_is_no_time_zone_is_ignored(player, alice, name, late_evening_solves):
    with time_machine.travel(FRIDAY_MORNING_UTC):
        player.cookies["tz"] = name
        assert player.get("/").status_code == 200
        assert streak_shown(player) == "0"
        assert Preferences.objects.get(user=alice).time_zone == ""


def test_a_daily_after_the_players_day_is_not_out_for_them(client, stocked):
    with time_machine.travel(FRIDAY_MORNING_UTC):
        client.cookies["tz"] = LOS_ANGELES
        assert client.post("/daily/2026-11-27/easy/").status_code == 404
        assert client.get("/daily/2026-11-27/").status_code == 404
        assert client.post("/daily/2026-13-01/easy/").status_code == 404
        assert Game.objects.count() == 0
