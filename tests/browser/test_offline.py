"""The board in the player's hand: every tap drawn at once on a slow network, moves kept on
the device and sent in batches, a game page that loads and plays offline, two devices on
one game.

The network is slowed with the context's routes (2 s on every request, the service
worker's own fetches included) and cut with `go_offline`: the context offline and every
request refused."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Page

from puzzles.models import Game

from .helpers import (
    go_offline,
    go_online,
    open_new_game,
    slow_network,
    solution_of,
    wait_game_kept,
    wait_saved,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.service_worker,
    pytest.mark.django_db(transaction=True),
]

LATENCY_MS = 2000
PASSWORD = "a long enough password"


def cell(page: Page, index: int):
    return page.locator(f'[data-cell="{index}"]')


def blanks(game: Game) -> list[int]:
    return [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"]


def saved_text(page: Page) -> str:
    return page.locator("[data-saved]").inner_text()


@contextmanager
def api_out_of_reach(live_server) -> Iterator[None]:
    """The game's API answers nothing but 503 meanwhile: the server out of reach for
    certain. (The browser's offline emulation is not enough for a page on its way out: a
    closing page's parting requests escape it, as they would not on a device offline.)"""
    httpd = live_server.thread.httpd
    app = httpd.get_app()

    def refusing(environ, start_response):
        if not environ["PATH_INFO"].startswith("/api/"):
            return app(environ, start_response)
        start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
        return [b"out of reach"]

    httpd.set_app(refusing)
    try:
        yield
    finally:
        httpd.set_app(app)


def closed_offline_and_opened_again(page: Page, game: Game, live_server, url: str) -> Page:
    """Close the page, offline, with nothing sent (the server out of reach too); back
    online, open the game's page at url again: the new page, ready."""
    context = page.context
    with api_out_of_reach(live_server):
        page.close()
        game.refresh_from_db()
        assert game.version == 0
        go_online(context)
        again = context.new_page()
        again.goto(url)
        again.wait_for_selector("[data-game][data-ready]")
    return again


# Taps made inside the page, and the board read in the next animation frame: what the
# player sees drawn right after the tap.
TAP_THEN_FRAME = """([index, digit, notes]) => new Promise((resolve) => {
    const root = document.querySelector("[data-game]");
    const notesOn = root.classList.contains("notes-mode");
    if (notes !== notesOn) root.querySelector('[data-action="notes"]').click();
    root.querySelector(`[data-cell="${index}"]`).click();
    root.querySelector(`[data-digit="${digit}"]`).click();
    requestAnimationFrame(() => {
        const el = root.querySelector(`[data-cell="${index}"]`);
        const saved = document.querySelector("[data-saved]").textContent;
        resolve({value: el.dataset.value, notes: el.dataset.notes, saved});
    });
})"""


def test_a_digit_and_a_note_show_in_the_frame_of_the_tap_on_a_slow_network(page, stock):
    game = open_new_game(page)
    slow_network(page, LATENCY_MS)
    a, b = blanks(game)[:2]
    shown = page.evaluate(TAP_THEN_FRAME, [a, 4, False])
    assert shown["value"] == "4"
    assert "1 change" in shown["saved"]  # drawn before the server answered
    shown = page.evaluate(TAP_THEN_FRAME, [b, 7, True])
    assert shown["notes"] == "7"
    wait_saved(page)
    game.refresh_from_db()
    assert game.values[a] == "4" and 7 in game.notes[b]


def test_moves_made_offline_reach_the_server_when_the_game_is_opened_again(
    page, stock, live_server
):
    game = open_new_game(page)
    context = page.context
    solution = solution_of(game)
    cells = blanks(game)[:8]
    go_offline(context)
    for index in cells:
        cell(page, index).click()
        page.keyboard.press(solution[index])
    page.wait_for_function(
        "() => document.querySelector('[data-saved]').textContent.includes('8 changes')"
    )
    assert "Offline" in saved_text(page)
    again = closed_offline_and_opened_again(
        page, game, live_server, f"{page.base}/games/{game.pk}/"
    )
    wait_saved(again)  # the page tries again once the server answers
    game.refresh_from_db()
    assert all(game.values[i] == solution[i] for i in cells)
    assert game.version == 8


def test_a_game_page_visited_once_reloads_offline_and_takes_moves(page, stock):
    game = open_new_game(page)
    wait_game_kept(page)
    context = page.context
    go_offline(context)
    page.reload()
    page.wait_for_selector("[data-game][data-ready]")
    a = blanks(game)[0]
    assert cell(page, a).get_attribute("data-value") == "0"
    cell(page, a).click()
    page.keyboard.press("6")
    assert cell(page, a).get_attribute("data-value") == "6"
    assert saved_text(page) == "Offline: 1 change kept on this device"
    # Help needs the network, and says so.
    page.click('[data-action="hint"]')
    assert "network" in page.locator("[data-message]").inner_text()
    go_online(context)
    wait_saved(page)
    game.refresh_from_db()
    assert game.values[a] == "6"


def test_a_page_never_kept_offline_says_so_and_lists_the_games_to_play(page, stock):
    game = open_new_game(page)
    wait_game_kept(page)
    go_offline(page.context)
    page.goto(page.base + "/stats/")  # the home page opens the last game instead
    page.wait_for_selector("[data-offline]")
    assert "offline" in page.locator("h1").inner_text().lower()
    link = page.locator("[data-kept-games] a")
    assert link.count() == 1
    link.click()
    page.wait_for_selector("[data-game][data-ready]")
    assert page.url.endswith(f"/games/{game.pk}/")


def test_twenty_quick_moves_go_out_in_a_few_requests(page, stock):
    game = open_new_game(page)
    slow_network(page, LATENCY_MS)
    solution = solution_of(game)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    cells = blanks(game)[:20]
    # Tapped in the page, a tap every 50 ms: a player going fast.
    page.evaluate(
        """async (taps) => {
            for (const [index, digit] of taps) {
                document.querySelector(`[data-cell="${index}"]`).click();
                document.querySelector(`[data-digit="${digit}"]`).click();
                await new Promise((resolve) => setTimeout(resolve, 50));
            }
        }""",
        [[index, solution[index]] for index in cells],
    )
    wait_saved(page)
    changes = [url for url in posts if url.endswith("/changes")]
    assert 1 <= len(changes) <= 3, posts
    game.refresh_from_db()
    assert game.version == 20 and all(game.values[i] == solution[i] for i in cells)


@pytest.fixture
def alice_on_two_devices(browser, live_server, django_user_model, stock):
    """alice logged in on two browsers, both on the same game."""
    django_user_model.objects.create_user("alice", password=PASSWORD)
    contexts, pages = [], []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error, page=page: page.errors.append(str(error)))
        page.base = live_server.url
        page.goto(page.base + "/accounts/login/")
        page.fill('input[name="username"]', "alice")
        page.fill('input[name="password"]', PASSWORD)
        page.press('input[name="password"]', "Enter")
        page.wait_for_load_state()
        contexts.append(context)
        pages.append(page)
    game = open_new_game(pages[0])
    pages[1].goto(f"{live_server.url}/games/{game.pk}/")
    pages[1].wait_for_selector("[data-game][data-ready]")
    wait_saved(pages[1])
    yield game, pages
    for page in pages:
        assert not page.errors, page.errors
    for context in contexts:
        context.close()


def test_two_devices_offline_on_different_cells_both_keep_their_moves(alice_on_two_devices):
    game, (phone, laptop) = alice_on_two_devices
    solution = solution_of(game)
    a, b = blanks(game)[:2]
    for page, index in ((phone, a), (laptop, b)):
        go_offline(page.context)
        cell(page, index).click()
        page.keyboard.press(solution[index])
    for page in (phone, laptop):
        go_online(page.context)
        wait_saved(page)
    game.refresh_from_db()
    assert game.values[a] == solution[a] and game.values[b] == solution[b]
    assert "another device" not in laptop.locator("[data-message]").inner_text()


def test_two_devices_offline_on_the_same_cell_one_is_kept_and_the_other_told(
    alice_on_two_devices,
):
    game, (phone, laptop) = alice_on_two_devices
    a = blanks(game)[0]
    for page, digit in ((phone, "3"), (laptop, "5")):
        go_offline(page.context)
        cell(page, a).click()
        page.keyboard.press(digit)
    go_online(phone.context)
    wait_saved(phone)
    go_online(laptop.context)
    wait_saved(laptop)
    game.refresh_from_db()
    assert game.values[a] == "3"
    # The laptop's 5 was refused: said in words, and the board shows the cell as stored.
    laptop.wait_for_function(
        f"() => document.querySelector('[data-cell=\"{a}\"]').dataset.value == 3"
    )
    message = laptop.locator("[data-message]").inner_text()
    assert message and "board shows the game as stored" in message


def test_undo_and_redo_show_in_the_frame_of_the_tap_on_a_slow_network(page, stock):
    game = open_new_game(page)
    slow_network(page, LATENCY_MS)
    a = blanks(game)[0]
    assert page.evaluate(TAP_THEN_FRAME, [a, 8, False])["value"] == "8"
    press_then_frame = """([action, index]) => new Promise((resolve) => {
        document.querySelector(`[data-action="${action}"]`).click();
        requestAnimationFrame(() => resolve(
            document.querySelector(`[data-cell="${index}"]`).dataset.value));
    })"""
    assert page.evaluate(press_then_frame, ["undo", a]) == "0"
    assert page.evaluate(press_then_frame, ["redo", a]) == "8"
    wait_saved(page)
    game.refresh_from_db()
    assert game.values[a] == "8" and game.version == 3


def test_a_game_finished_offline_shows_solved_and_the_server_confirms_it(page, stock):
    game = open_new_game(page)
    solution = solution_of(game)
    go_offline(page.context)
    page.evaluate(
        """(taps) => {
            for (const [index, digit] of taps) {
                document.querySelector(`[data-cell="${index}"]`).click();
                document.querySelector(`[data-digit="${digit}"]`).click();
            }
        }""",
        [[i, solution[i]] for i in blanks(game)],
    )
    # Seen solved on the page at once; the hook waits for the server's judgement.
    assert page.locator("[data-status]").inner_text() == "Solved"
    assert page.locator("[data-status]").get_attribute("data-status") == "playing"
    assert page.locator("[data-finished]").is_visible()
    go_online(page.context)
    page.wait_for_selector('[data-status="solved"]')
    game.refresh_from_db()
    assert game.status == Game.Status.SOLVED


def test_pausing_offline_hides_the_board(page, stock):
    open_new_game(page)
    go_offline(page.context)
    page.click('[data-action="pause"]')
    page.wait_for_selector("[data-pause-cover]:not([hidden])")
    page.click('[data-action="resume"]')
    page.wait_for_selector("[data-pause-cover]", state="hidden")


def test_a_move_after_logging_in_in_another_tab_is_saved_on_the_new_token(
    page, stock, django_user_model
):
    django_user_model.objects.create_user("alice", password=PASSWORD)
    game = open_new_game(page)
    other = page.context.new_page()
    other.goto(page.base + "/accounts/login/")
    other.fill('input[name="username"]', "alice")
    other.fill('input[name="password"]', PASSWORD)
    other.press('input[name="password"]', "Enter")
    other.wait_for_load_state()
    other.close()
    a = blanks(game)[0]
    page.bring_to_front()
    cell(page, a).click()
    page.keyboard.press("4")
    wait_saved(page)
    game.refresh_from_db()
    assert game.values[a] == "4" and game.user.username == "alice"


def test_two_tabs_offline_on_one_game_lose_nothing_when_one_is_closed(page, stock):
    game = open_new_game(page)
    solution = solution_of(game)
    a, b = blanks(game)[:2]
    second = page.context.new_page()
    second.goto(f"{page.base}/games/{game.pk}/")
    second.wait_for_selector("[data-game][data-ready]")
    wait_saved(second)
    go_offline(page.context)
    for tab, index in ((page, a), (second, b)):
        tab.bring_to_front()
        cell(tab, index).click()
        tab.keyboard.press(solution[index])
    page.close()  # the first tab's move was only ever kept on the device
    go_online(page.context)
    wait_saved(second)
    game.refresh_from_db()
    assert game.values[a] == solution[a] and game.values[b] == solution[b]
