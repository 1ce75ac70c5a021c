"""The player's own day: at 06:25 UTC on Friday it is 22:25 on Thursday in Los Angeles, and
a browser there is shown Thursday's dailies, as one in London is shown Friday's; no
browser anywhere opens the dailies of a date no time zone lives yet."""

from __future__ import annotations

import datetime
import random

import pytest
import time_machine

import engine
from puzzles.models import DailyPuzzle, Difficulty, Game, Puzzle
from puzzles.pools.stock import insert_new, puzzle_row

from .finish_helpers import finish
from .helpers import SCREENSHOTS, log_in, wait_saved

FRIDAY_MORNING_UTC = datetime.datetime(2026, 11, 27, 6, 25, tzinfo=datetime.UTC)
THURSDAY = datetime.date(2026, 11, 26)
FRIDAY = datetime.date(2026, 11, 27)


@pytest.fixture
def two_days(transactional_db) -> None:
    """Thursday's and Friday's dailies of every tier, easy puzzles standing in for all; a
    puzzle more, for Wednesday's."""
    rng = random.Random(31)
    insert_new([puzzle_row(engine.make_puzzle("easy", seed=rng)) for _ in range(13)])
    puzzles = iter(Puzzle.objects.order_by("pk"))
    Puzzle.objects.update(served_at=FRIDAY_MORNING_UTC)
    for date in (THURSDAY, FRIDAY):
        for difficulty in Difficulty.values:
            DailyPuzzle.objects.create(date=date, difficulty=difficulty, puzzle=next(puzzles))


def open_home(browser, live_server, zone: str):
    context = browser.new_context(timezone_id=zone, viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.base = live_server.url
    page.goto(live_server.url + "/")
    page.wait_for_load_state()
    return context, page, errors


def daily_form(day: datetime.date, difficulty: str = "easy") -> str:
    return f'form[action="/daily/{day:%Y-%m-%d}/{difficulty}/"]'


def test_a_phone_in_los_angeles_at_22_25_on_thursday_plays_thursdays_daily(
    browser, live_server, two_days
):
    with time_machine.travel(FRIDAY_MORNING_UTC, tick=True):
        context, page, errors = open_home(browser, live_server, "America/Los_Angeles")
        # The first page is drawn again for the browser's zone, once it has named it.
        page.wait_for_selector(daily_form(THURSDAY))
        assert page.locator(daily_form(FRIDAY)).count() == 0
        assert "Thursday 26 November" in page.locator("h1").first.inner_text()
        page.screenshot(path=str(SCREENSHOTS / "player-day-los-angeles-390.png"))

        page.click(f"{daily_form(THURSDAY)} button")
        page.wait_for_selector("[data-game][data-ready]")
        wait_saved(page)
        game = Game.objects.select_related("daily").get(pk=int(page.url.strip("/").split("/")[-1]))
        assert game.daily.date == THURSDAY

        page.goto(live_server.url + "/daily/")
        page.wait_for_selector(daily_form(THURSDAY))
        assert page.locator(daily_form(FRIDAY)).count() == 0
        # Friday is not yet lived in Los Angeles: its dailies are not out there.
        response = page.goto(live_server.url + f"/daily/{FRIDAY:%Y-%m-%d}/")
        assert response.status == 404
        context.close()
        assert not errors, errors


def test_a_browser_in_london_at_the_same_moment_plays_fridays_daily(browser, live_server, two_days):
    with time_machine.travel(FRIDAY_MORNING_UTC, tick=True):
        context, page, errors = open_home(browser, live_server, "Europe/London")
        page.wait_for_selector(daily_form(FRIDAY))
        assert page.locator(daily_form(THURSDAY)).count() == 0
        context.close()
        assert not errors, errors


def test_no_time_zone_lives_saturday_yet_so_nobody_opens_its_dailies(
    browser, live_server, two_days
):
    saturday = FRIDAY + datetime.timedelta(days=1)
    with time_machine.travel(FRIDAY_MORNING_UTC, tick=True):
        for zone in ("Pacific/Kiritimati", "Asia/Tokyo"):
            context, page, errors = open_home(browser, live_server, zone)
            page.wait_for_selector(daily_form(FRIDAY))
            assert page.goto(live_server.url + f"/daily/{saturday:%Y-%m-%d}/").status == 404
            context.close()
            assert not errors, errors


def test_a_streak_in_los_angeles_counts_its_evenings_as_their_own_days(
    browser, live_server, two_days, django_user_model
):
    """Alice solved Wednesday's daily at 22:00 in Los Angeles (06:00 UTC on Thursday); at
    22:25 on Thursday she solves Thursday's: two days in a row where she is."""
    alice = django_user_model.objects.create_user("alice", password="wonderland-42")
    wednesday = THURSDAY - datetime.timedelta(days=1)
    puzzle = Puzzle.objects.filter(dailies__isnull=True).first()
    daily = DailyPuzzle.objects.create(date=wednesday, difficulty="easy", puzzle=puzzle)
    Game.objects.create(
        puzzle=puzzle,
        daily=daily,
        user=alice,
        values=puzzle.solution,
        status=Game.Status.SOLVED,
        finished_at=datetime.datetime(2026, 11, 26, 6, 0, tzinfo=datetime.UTC),
        active_seconds=300,
    )
    with time_machine.travel(FRIDAY_MORNING_UTC, tick=True):
        context, page, errors = open_home(browser, live_server, "America/Los_Angeles")
        log_in(page, "alice", "wonderland-42")
        page.goto(live_server.url + "/")
        page.click(f"{daily_form(THURSDAY)} button")
        page.wait_for_selector("[data-game][data-ready]")
        wait_saved(page)
        game = Game.objects.select_related("puzzle").get(pk=int(page.url.strip("/").split("/")[-1]))
        finish(page, game)
        page.wait_for_selector('[data-finished][data-streak="2"]')
        page.screenshot(path=str(SCREENSHOTS / "player-day-streak-los-angeles-390.png"))
        context.close()
        assert not errors, errors
