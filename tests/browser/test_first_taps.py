"""The first taps on a slow network: a cell and a digit tapped as soon as the board is
drawn, before the page's script has started, are kept and applied, on the page and on the
server. Every request (the service worker's own included) is answered 800 ms or 2 s late."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from puzzles.models import Game

from .helpers import SCREENSHOTS, slow_network

pytestmark = [
    pytest.mark.browser,
    pytest.mark.service_worker,
    pytest.mark.django_db(transaction=True),
]


def server_values(page: Page, game_id: str) -> str:
    response = page.request.get(f"{page.base}/api/games/{game_id}")
    assert response.ok
    return response.json()["values"]


@pytest.mark.parametrize("latency_ms", [800, 2000])
def test_a_cell_and_a_digit_tapped_as_the_board_shows_are_kept(page, stock, latency_ms):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(page.base + "/")
    slow_network(page, latency_ms)
    page.click("[data-new-game=easy]")
    board = page.locator("[data-game] [data-board]")
    board.wait_for(state="visible", timeout=60_000)
    blank = board.locator('[data-cell][data-value="0"]').first
    index = int(blank.get_attribute("data-cell"))
    blank.click()
    page.click('[data-digit="5"]')
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"first-taps-{latency_ms}ms-390.png")

    page.wait_for_selector("[data-game][data-ready]", timeout=60_000)
    cell = page.locator(f'[data-cell="{index}"]')
    page.wait_for_function(
        "() => document.querySelector('[data-saved]').textContent === 'Saved'", timeout=60_000
    )
    assert cell.get_attribute("data-value") == "5"
    game_id = page.locator("[data-game]").get_attribute("data-game")
    assert server_values(page, game_id)[index] == "5"


def test_a_key_and_a_note_made_while_the_page_loads_are_kept(page, stock):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(page.base + "/")
    slow_network(page, 800)
    page.click("[data-new-game=easy]")
    board = page.locator("[data-game] [data-board]")
    board.wait_for(state="visible", timeout=60_000)
    first, second = (
        int(i)
        for i in board.locator('[data-cell][data-value="0"]').evaluate_all(
            "(cells) => cells.slice(0, 2).map((cell) => cell.dataset.cell)"
        )
    )
    page.click(f'[data-cell="{first}"]')
    page.keyboard.press("6")
    page.click(f'[data-cell="{second}"]')
    page.click('[data-action="notes"]')
    page.click('[data-digit="3"]')

    page.wait_for_selector("[data-game][data-ready]", timeout=60_000)
    page.wait_for_function(
        "() => document.querySelector('[data-saved]').textContent === 'Saved'", timeout=60_000
    )
    game = Game.objects.get(pk=page.locator("[data-game]").get_attribute("data-game"))
    assert game.values[first] == "6"
    assert 3 in game.notes[second] and game.values[second] == "0"
