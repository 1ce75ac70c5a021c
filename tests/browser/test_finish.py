"""The end of a game worth coming back for: the mistakes the history lists, the daily
streak, the next daily of the day as the main button, and when every daily is played, when
the next ones come."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from puzzles.models import DailyPuzzle, Game, Puzzle
from puzzles.pools.daily import today

from .finish_helpers import all_but, blanks_of, finish, place
from .helpers import SCREENSHOTS, daily_picks, log_in, open_new_game, solution_of, wait_saved

PASSWORD = "wonderland-42"


@pytest.fixture
def phone(browser, live_server):
    """A phone in UTC, failing the test on any script error."""
    context = browser.new_context(
        timezone_id="UTC",
        viewport={"width": 390, "height": 844},
        has_touch=True,
        permissions=["clipboard-read", "clipboard-write"],
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.base = live_server.url
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def todays_dailies(stock) -> dict[str, DailyPuzzle]:
    picks = daily_picks()
    Puzzle.objects.filter(pk__in=[p.pk for p in picks.values()]).update(served_at=timezone.now())
    return {
        difficulty: DailyPuzzle.objects.create(date=today(), difficulty=difficulty, puzzle=puzzle)
        for difficulty, puzzle in picks.items()
    }


def open_daily(page, difficulty: str = "easy") -> Game:
    page.goto(page.base + "/")
    page.click(f'form[action="/daily/{today():%Y-%m-%d}/{difficulty}/"] button')
    page.wait_for_selector("[data-game][data-ready]")
    wait_saved(page)
    pk = int(page.url.strip("/").split("/")[-1])
    return Game.objects.select_related("puzzle").get(pk=pk)


def test_a_clean_solve_with_a_wrong_digit_fixed_counts_it_on_the_end_as_in_history(phone, stock):
    game = open_new_game(phone)
    first, last = blanks_of(game)[0], blanks_of(game)[-1]
    all_but(phone, game, [first, last])
    solution = solution_of(game)
    wrong = next(d for d in "123456789" if d != solution[first])
    place(phone, first, wrong)
    wait_saved(phone)
    place(phone, first, solution[first])
    place(phone, last, solution[last])
    phone.wait_for_selector('[data-status="solved"]')
    game.refresh_from_db()
    assert game.clean and game.mistakes == 1
    expect(phone.locator("[data-final-mistakes]")).to_be_visible()
    expect(phone.locator("[data-final-mistakes]")).to_have_text("1")
    phone.screenshot(path=str(SCREENSHOTS / "finish-clean-with-a-mistake-390.png"), full_page=True)

    phone.goto(phone.base + "/history/")
    row = phone.locator(f'tr[data-game="{game.pk}"]')
    expect(row).to_have_attribute("data-mistakes", "1")


def test_the_end_of_a_game_not_a_daily_leads_to_the_days_daily_of_its_tier(phone, todays_dailies):
    game = open_new_game(phone, "medium")
    finish(phone, game)
    expect(phone.locator("[data-finished]")).to_have_attribute("data-streak", "0")
    expect(phone.locator("[data-final-streak-row]")).to_be_hidden()
    nxt = phone.locator("[data-next-daily]")
    expect(nxt).to_have_attribute("data-next-daily", f"/daily/{today():%Y-%m-%d}/medium/")


def test_the_end_of_a_daily_shows_the_streak_and_leads_to_the_next_daily(phone, todays_dailies):
    game = open_daily(phone, "easy")
    finish(phone, game)
    panel = phone.locator("[data-finished]")
    expect(panel).to_have_attribute("data-streak", "1")
    expect(phone.locator("[data-final-streak]")).to_have_text("1 day")
    nxt = phone.locator("[data-next-daily]")
    expect(nxt).to_have_attribute("data-next-daily", f"/daily/{today():%Y-%m-%d}/medium/")
    expect(nxt).to_be_in_viewport()
    assert "primary" in nxt.get_attribute("class")
    phone.screenshot(path=str(SCREENSHOTS / "finish-daily-next-390.png"))
    for theme in ("dark", "light"):
        phone.emulate_media(color_scheme=theme)
        phone.screenshot(path=str(SCREENSHOTS / f"finish-daily-next-390-{theme}.png"))
    # The share carries the grade and the time.
    phone.evaluate("() => { delete Navigator.prototype.share; }")  # no share sheet here
    phone.click('[data-action="share"]')
    expect(phone.locator("[data-share-status]")).to_have_text("Copied to the clipboard.")
    shared = phone.evaluate("() => navigator.clipboard.readText()")
    score = f"{game.puzzle.score:.1f}"
    time = phone.locator("[data-final-time]").inner_text()
    assert f"Daily Sudoku {today():%Y-%m-%d} — easy, rated {score}, solved in {time}" in shared
    nxt.click()
    phone.wait_for_selector("[data-game][data-ready]")
    medium = Game.objects.select_related("daily").get(pk=int(phone.url.strip("/").split("/")[-1]))
    assert medium.daily == todays_dailies["medium"]


def test_with_every_daily_played_the_end_says_when_the_next_ones_come(
    phone, todays_dailies, django_user_model
):
    alice = django_user_model.objects.create_user("alice", password=PASSWORD)
    for difficulty, daily in todays_dailies.items():
        if difficulty != "extreme":
            Game.objects.create(
                puzzle=daily.puzzle, daily=daily, user=alice, values=daily.puzzle.givens
            )
    log_in(phone, "alice", PASSWORD)
    game = open_daily(phone, "extreme")
    finish(phone, game)
    expect(phone.locator("[data-next-daily-form]")).to_be_hidden()
    words = phone.locator("[data-next-dailies-in]")
    expect(words).to_be_visible()
    assert re.search(r"Next dailies in (\d+ h )?\d+ min", words.inner_text())
    phone.screenshot(path=str(SCREENSHOTS / "finish-all-dailies-played-390.png"))


SCREENS = [(360, 640), (390, 844), (844, 390), (820, 1180), (1180, 820), (1280, 800), (1920, 1080)]


def test_the_next_daily_is_in_reach_on_every_screen(phone, todays_dailies):
    game = open_daily(phone, "easy")
    finish(phone, game)
    nxt = phone.locator("[data-next-daily]")
    for width, height in SCREENS:
        phone.set_viewport_size({"width": width, "height": height})
        nxt.scroll_into_view_if_needed()
        box = nxt.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, height, box)
        sideways = phone.evaluate("() => document.documentElement.scrollWidth > innerWidth")
        assert not sideways, (width, height)
        for theme in ("light", "dark"):
            phone.emulate_media(color_scheme=theme)
            shot = SCREENSHOTS / f"finish-next-daily-{width}x{height}-{theme}.png"
            phone.screenshot(path=str(shot))
