"""The game in the hand and under the keys: what costs a clean solve asks first, the end
says how the game counts by the leaderboard's own rule, and the mistake count shows the
same way in play and at the end."""

from __future__ import annotations

import pytest

from puzzles.models import Difficulty, Game

from .board_helpers import close, inside, open_context
from .helpers import open_new_game, solution_of, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def cell(page, index: int):
    return page.locator(f'[data-cell="{index}"]')


def solve(page, game: Game) -> None:
    solution = solution_of(game)
    for index, given in enumerate(game.puzzle.givens):
        if given == "0":
            cell(page, index).click()
            page.click(f'[data-digit="{solution[index]}"]')
    page.wait_for_selector('[data-status="solved"]')


def test_check_asks_first_while_the_game_is_clean(page, stock):
    game = open_new_game(page)
    page.click('[data-action="check"]')
    dialog = page.locator("[data-confirm]")
    dialog.wait_for(state="visible")
    assert "count as helped" in page.locator("[data-confirm-text]").inner_text()
    page.click("[data-confirm-cancel]")
    wait_saved(page)
    game.refresh_from_db()
    assert game.hints == 0 and page.locator("[data-hints]").inner_text() == "0"
    page.click('[data-action="check"]')
    page.click("[data-confirm-ok]")
    page.wait_for_function("() => document.querySelector('[data-hints]').textContent === '1'")
    wait_saved(page)
    game.refresh_from_db()
    assert game.hints == 1


def test_a_too_fast_clean_solve_is_not_told_it_counts(page, stock):
    game = open_new_game(page)
    solve(page, game)  # a script's pace: faster than the human floor
    game.refresh_from_db()
    assert game.too_fast and game.clean and not game.ranked
    note = page.locator("[data-final-note]").inner_text()
    assert "faster than a person" in note and "counts for" not in note
    # Played with mistakes unmarked: no count in play; at the end the count the history shows.
    assert page.locator("[data-final-mistakes-row]").is_visible()
    assert page.locator("[data-final-mistakes]").inner_text() == "0"
    assert page.locator(".game-meta .counter:has([data-mistakes])").is_hidden()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_days_cards_are_laid_out_evenly(browser, live_server, stock, width):
    from .test_accessibility import pick_dailies

    pick_dailies()
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(live_server.url + "/daily/")
    tops = page.eval_on_selector_all(
        ".cards.with-boards > li",
        "els => els.map((el) => Math.round(el.getBoundingClientRect().top))",
    )
    context.close()
    assert len(tops) == len(Difficulty.values)
    rows = sorted(set(tops))
    per_row = [tops.count(top) for top in rows]
    assert len(set(per_row)) == 1, per_row  # 6, 3+3, 2+2+2 or one a row: never 4+2


# Keyboard only ---------------------------------------------------------------------------


def keys_in_help(page) -> str:
    page.keyboard.press("?")
    page.wait_for_selector("dialog[data-help][open]")
    text = page.locator("dialog[data-help]").inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[data-help]:not([open])", state="attached")
    return text


def test_every_action_has_a_key_shown_in_the_help_overlay(page, stock):
    game = open_new_game(page)
    page.keyboard.press("ArrowRight")  # the board has the focus
    help_text = keys_in_help(page)
    for key, action in [
        ("H", "Hint"),
        ("A", "Apply"),
        ("C", "Check"),
        ("R", "Reveal"),
        ("G", "Give up"),
        ("P", "Pause"),
        ("I", "digit first"),
    ]:
        assert f"{key}\t" in help_text or f"{key}\n" in help_text, key
        assert action in help_text, action
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/api/" in r.url else None)
    # Ctrl+Shift+Z with nothing to redo asks nothing of the server.
    page.keyboard.press("Control+Shift+Z")
    # Check, with its question: Escape keeps it from counting; then Enter on OK.
    page.keyboard.press("c")
    page.wait_for_selector("dialog[data-confirm][open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[data-confirm]:not([open])", state="attached")
    assert page.locator("[data-hints]").inner_text() == "0"
    page.keyboard.press("c")
    page.wait_for_selector("dialog[data-confirm][open]")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.matches('[data-confirm-ok]')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('[data-hints]').textContent === '1'")
    # Hint, and each next level, by H; the focus stays in the panel as it changes.
    page.keyboard.press("h")
    page.wait_for_selector("[data-hint-panel][data-hint-level='1']")
    assert not [url for url in requests if url.endswith(("/redo", "/changes"))], requests
    page.keyboard.press("h")
    page.wait_for_selector("[data-hint-panel][data-hint-level='2']")
    # From the panel's own button the focus stays in the panel, even as that button goes.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.action === 'hint-more'"):
            break
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-hint-panel][data-hint-level='3']")
    assert page.evaluate("() => document.activeElement.dataset.action") == "apply-hint"
    page.keyboard.press("a")  # Apply
    page.wait_for_selector("[data-hint-panel]", state="hidden")
    wait_saved(page)
    game.refresh_from_db()
    assert game.hints == 2 and game.moves_applied == 1
    # Reveal the selected cell, asked first.
    for _ in range(81):  # the arrows to an empty cell
        if page.locator(".cell.selected").get_attribute("data-value") == "0":
            break
        page.keyboard.press("ArrowRight")
    blank = int(page.locator(".cell.selected").get_attribute("data-cell"))
    page.keyboard.press("r")
    page.wait_for_selector("dialog[data-confirm][open]")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelector('[data-cell=\"{blank}\"]').dataset.value !== '0'"
    )
    # Pause and resume.
    page.keyboard.press("p")
    page.wait_for_selector("[data-pause-cover]:not([hidden])")
    page.keyboard.press("p")
    page.wait_for_selector("[data-pause-cover]", state="hidden")
    # Give up, with its question.
    page.keyboard.press("g")
    page.wait_for_selector("dialog[data-confirm][open]")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-status="gave_up"]')
    game.refresh_from_db()
    assert game.status == Game.Status.GAVE_UP and game.hints == 2 and game.reveals == 1


# A laptop's screen -------------------------------------------------------------------------


def header_in_view(page) -> bool:
    """The game's header (time, help, saving) is below the sticky site header."""
    return page.evaluate(
        """() => {
          const site = document.querySelector(".site-header").getBoundingClientRect();
          const head = document.querySelector(".game-head").getBoundingClientRect();
          return head.top >= site.bottom - 0.5;
        }"""
    )


def test_on_a_laptop_a_closed_hint_gives_the_games_header_back(browser, live_server, stock):
    context, page = open_context(browser, live_server, "desktop", "light")
    open_new_game(page)
    assert header_in_view(page)
    page.click('[data-action="hint"]')
    for level in (1, 2, 3):
        page.wait_for_selector(f"[data-hint-panel][data-hint-level='{level}']")
        page.wait_for_timeout(50)  # the scroll that keeps them in view runs in the next frame
        assert inside(page, "[data-board]") and inside(page, "[data-hint-panel]"), level
        if level < 3:
            page.click('[data-action="hint-more"]')
    page.click('[data-action="hint-close"]')
    page.wait_for_selector("[data-hint-panel]", state="hidden")
    assert header_in_view(page)
    close(context, page)
