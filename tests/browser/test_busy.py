"""A server too busy to answer: the game's API answers 503 with `Retry-After` for a while
(as the site does when it sheds load) while the player goes on playing. The page keeps
every move, waits as long as it is told instead of asking again at every move, says so on
the saving line (on a small phone too, whole and on one line), and sends every move once
the server answers again: none lost, none stored twice.

The server's refusals are the context's routes: every request to a game's API is answered
503 until the test lets them through."""

from __future__ import annotations

import json

import pytest

from puzzles.models import Game, Move

from .board_helpers import close
from .helpers import SCREENSHOTS, open_new_game, solution_of, wait_saved
from .test_fit import TITLE_FAULTS, past_the_edge
from .test_phone import OVERFLOWING

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RETRY_AFTER = 2  # seconds
# The wait in the header alone, as the site's own 429s give it (the page also reads a JSON
# body's retry_after).
BUSY = json.dumps({"error": "The site is busy. Try again in a moment."})
MOVES = 8

# Taps made inside the page, a move every 300 ms: a player going on while the server is
# busy, each move made after the last refusal came back.
TAPS = """async (taps) => {
    for (const [index, digit] of taps) {
        document.querySelector(`[data-cell="${index}"]`).click();
        document.querySelector(`[data-digit="${digit}"]`).click();
        await new Promise((resolve) => setTimeout(resolve, 300));
    }
}"""


def test_the_page_keeps_every_move_through_a_run_of_503s_and_sends_them_when_told(
    browser, live_server, stock
):
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.base = live_server.url
    game = open_new_game(page)
    solution = solution_of(game)
    cells = [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"][:MOVES]

    busy = {"on": True, "refused": [], "through": []}

    def shed(route) -> None:
        url = route.request.url.split("/api/games/")[1]
        if busy["on"]:
            busy["refused"].append(url)
            route.fulfill(
                status=503,
                headers={"Retry-After": str(RETRY_AFTER), "Content-Type": "application/json"},
                body=BUSY,
            )
        else:
            busy["through"].append(url)
            route.continue_()

    page.route("**/api/games/**", shed)
    page.evaluate(TAPS, [[i, solution[i]] for i in cells])
    page.wait_for_function(
        "(start) => document.querySelector('[data-saved]').textContent.startsWith(start)",
        arg=f"Busy: {MOVES} changes kept on this device, sending in ",
    )
    short = page.locator("[data-saved]").get_attribute("data-short")
    faults = past_the_edge(page) + page.evaluate(TITLE_FAULTS) + page.evaluate(OVERFLOWING)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "busy-phone-small.png"))
    # The run goes on until the page has been refused three times.
    while len(busy["refused"]) < 3:
        page.wait_for_timeout(100)
    busy["on"] = False
    wait_saved(page)
    refused = list(busy["refused"])
    close(context, page)

    assert short == f"Busy · {MOVES}"
    assert faults == [], faults
    # One request a wait, not one a move: through 8 moves and three refusals, a handful.
    assert len(refused) <= 5, refused
    assert all(url.endswith("/changes") for url in refused), refused
    game.refresh_from_db()
    assert [game.values[i] for i in cells] == [solution[i] for i in cells]
    assert game.version == MOVES
    assert Move.objects.filter(game=game).count() == MOVES  # none stored twice
    assert Game.objects.count() == 1
