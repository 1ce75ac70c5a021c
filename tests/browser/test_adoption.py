"""Two devices, one player: logging in on the second, where the same daily was opened as a
guest, shows the first device's progress, and the first device plays on (issue 9)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from puzzles.models import DailyPuzzle, Game, Puzzle
from puzzles.pools.daily import today

from .helpers import daily_picks, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "wonderland-42"


@pytest.fixture
def todays_dailies(stock) -> DailyPuzzle:
    """Today's dailies picked ahead from the stock, so that no page has to make a hard or
    expert puzzle; the easy one."""
    picks = daily_picks()
    Puzzle.objects.filter(pk__in=[p.pk for p in picks.values()]).update(served_at=timezone.now())
    for difficulty, puzzle in picks.items():
        DailyPuzzle.objects.create(date=today(), difficulty=difficulty, puzzle=puzzle)
    return DailyPuzzle.objects.get(date=today(), difficulty="easy")


@pytest.fixture
def device(browser, live_server):
    """A factory of browser contexts (devices), each failing the test on a script error."""
    contexts, errors = [], []

    def make():
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.base = live_server.url
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


def log_in(page) -> None:
    page.fill('input[name="username"]', "alice")
    page.fill('input[name="password"]', PASSWORD)
    page.press('input[name="password"]', "Enter")
    page.wait_for_load_state()


def open_daily(page, daily: DailyPuzzle) -> int:
    page.goto(page.base + "/daily/")
    page.click(f'form[action="/daily/{daily.date:%Y-%m-%d}/easy/"] button')
    page.wait_for_selector("[data-game][data-ready]")
    wait_saved(page)
    return int(page.url.rstrip("/").split("/")[-1])


def place(page, cell: int, digit: str) -> int:
    """Type a digit in a cell; the status the server answered."""
    page.locator(f'[data-cell="{cell}"]').click()
    with page.expect_response(lambda r: r.url.endswith(("/moves", "/changes"))) as answer:
        page.click(f'[data-digit="{digit}"]')
    wait_saved(page)
    return answer.value.status


def test_logging_in_on_a_second_device_shows_the_first_devices_progress(
    device, alice, todays_dailies
):
    puzzle = todays_dailies.puzzle
    blanks = [i for i, ch in enumerate(puzzle.givens) if ch == "0"]

    phone = device()
    phone.goto(phone.base + "/accounts/login/?next=/daily/")
    log_in(phone)
    mine = open_daily(phone, todays_dailies)
    for cell in blanks[:3]:
        assert place(phone, cell, puzzle.solution[cell]) == 200

    laptop = device()
    guest = open_daily(laptop, todays_dailies)  # opened as a guest, not played
    assert guest != mine
    laptop.click("text=Log in")
    log_in(laptop)
    laptop.wait_for_selector("[data-game][data-ready]")
    assert laptop.url.rstrip("/").endswith(f"/games/{mine}")
    for cell in blanks[:3]:
        value = laptop.locator(f'[data-cell="{cell}"]').get_attribute("data-value")
        assert value == puzzle.solution[cell]

    assert place(phone, blanks[3], puzzle.solution[blanks[3]]) == 200
    game = Game.objects.get(pk=mine)
    assert game.user == alice and game.values[blanks[3]] == puzzle.solution[blanks[3]]
    assert game.moves_logged == 4 and not Game.objects.filter(pk=guest).exists()
    assert (
        phone.locator(f'[data-cell="{blanks[3]}"]').get_attribute("data-value")
        == (puzzle.solution[blanks[3]])
    )
