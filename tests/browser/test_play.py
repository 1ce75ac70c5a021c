"""Whole games played through the page in Chromium, with the mouse and with the keyboard."""

from __future__ import annotations

import pytest

from puzzles.models import Game

from .helpers import open_new_game, set_visibility, solution_of, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def cell(page, index: int):
    return page.locator(f'[data-cell="{index}"]')


def test_a_whole_game_with_the_mouse_using_notes_and_undo(page, stock):
    game = open_new_game(page)
    solution = solution_of(game)
    blanks = [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"]

    first = blanks[0]
    cell(page, first).click()
    page.click('[data-action="notes"]')
    page.click('[data-digit="1"]')
    page.click('[data-digit="2"]')
    wait_saved(page)
    assert cell(page, first).locator("[data-note='1']").inner_text() == "1"
    page.click('[data-action="notes"]')

    wrong = next(d for d in "123456789" if d != solution[first])
    page.click(f'[data-digit="{wrong}"]')
    wait_saved(page)
    assert cell(page, first).get_attribute("data-value") == wrong
    page.click('[data-action="undo"]')
    wait_saved(page)
    assert cell(page, first).get_attribute("data-value") == "0"

    for index in blanks:
        cell(page, index).click()  # a tap on the selected cell keeps it
        page.click(f'[data-digit="{solution[index]}"]')
    page.wait_for_selector('[data-status="solved"]')
    assert page.locator("[data-finished]").is_visible()
    game.refresh_from_db()
    assert game.status == Game.Status.SOLVED and game.values == solution


def tab_to(page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focus is on the element, as a keyboard user would."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def left_of(page, digit: int) -> str:
    return page.locator(f'[data-digit="{digit}"] [data-left]').inner_text()


def test_a_whole_game_with_the_keyboard_only(page, stock):
    page.goto(page.base + "/")
    tab_to(page, "[data-new-game=easy]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-game][data-ready]")
    wait_saved(page)
    game = Game.objects.select_related("puzzle").get(pk=int(page.url.rstrip("/").split("/")[-1]))
    solution = solution_of(game)
    blanks = [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"]
    at = blanks[0]  # the page selects the first empty cell
    page.keyboard.press("n")
    page.keyboard.press("4")
    page.keyboard.press("n")
    page.keyboard.press("Control+z")
    wait_saved(page)
    assert cell(page, at).locator("[data-note='4']").inner_text() == ""
    page.keyboard.press("Control+y")  # redo brings the note back
    wait_saved(page)
    assert cell(page, at).locator("[data-note='4']").inner_text() == "4"
    digit = int(solution[at])
    before = left_of(page, digit)
    page.keyboard.press(str(digit))
    wait_saved(page)
    assert int(left_of(page, digit) or 0) == int(before) - 1  # the pad counts what is left
    page.keyboard.press("Delete")
    wait_saved(page)
    assert cell(page, at).get_attribute("data-value") == "0" and left_of(page, digit) == before
    page.keyboard.press(str(digit))
    page.keyboard.press("0")  # 0 erases too
    wait_saved(page)
    assert cell(page, at).get_attribute("data-value") == "0"
    for index in blanks:
        rows, cols = index // 9 - at // 9, index % 9 - at % 9
        for _ in range(abs(rows)):
            page.keyboard.press("ArrowDown" if rows > 0 else "ArrowUp")
        for _ in range(abs(cols)):
            page.keyboard.press("ArrowRight" if cols > 0 else "ArrowLeft")
        at = index
        assert cell(page, at).get_attribute("aria-selected") == "true"
        page.keyboard.press(solution[index])
    page.wait_for_selector('[data-status="solved"]')
    game.refresh_from_db()
    assert game.status == Game.Status.SOLVED


def test_reloading_mid_game_keeps_digits_and_notes(page, stock):
    game = open_new_game(page)
    solution = solution_of(game)
    a, b = [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"][:2]
    cell(page, a).click()
    page.keyboard.press(solution[a])
    cell(page, b).click()
    page.keyboard.press("Shift+7")
    wait_saved(page)
    page.reload()
    page.wait_for_selector("[data-game][data-ready]")
    assert cell(page, a).get_attribute("data-value") == solution[a]
    assert cell(page, b).locator("[data-note='7']").inner_text() == "7"
    assert "notes 7" in cell(page, b).get_attribute("aria-label")


def test_the_board_is_hidden_while_paused(page, stock):
    game = open_new_game(page)
    given = next(i for i, ch in enumerate(game.puzzle.givens) if ch != "0")
    value = cell(page, given).locator(".value")
    assert value.is_visible()
    page.click('[data-action="pause"]')
    page.wait_for_selector("[data-pause-cover]:not([hidden])")
    assert not value.is_visible()
    assert page.locator('[data-status="playing"]').inner_text() == "Paused"
    game.refresh_from_db()
    assert game.resumed_at is None
    page.click('[data-action="resume"]')
    page.wait_for_selector("[data-pause-cover]", state="hidden")
    assert value.is_visible()


def test_a_hint_shades_where_to_look_then_marks_why_and_counts_once(page, stock):
    open_new_game(page)
    page.click('[data-action="hint"]')
    page.wait_for_selector('[data-hint-panel][data-hint-level="1"]:not([hidden])')
    assert page.locator('[data-hint="region"]').count() == 9  # one unit, shaded
    assert page.locator('[data-hint="cause"], [data-hint="target"]').count() == 0
    assert "look at" in page.locator("[data-hint-text]").inner_text().lower()
    page.click('[data-action="hint-more"]')
    page.wait_for_selector('[data-hint-panel][data-hint-level="2"]')
    assert page.locator('[data-hint="cause"]').count() >= 1
    assert page.locator('[data-hint="target"]').count() == 0  # why, not yet the answer
    page.click('[data-action="hint-more"]')
    page.wait_for_selector('[data-hint-panel][data-hint-level="3"]')
    assert page.locator('[data-hint="target"]').count() >= 1
    assert page.locator("[data-hints]").inner_text() == "1"  # one hint, however deep


def test_hiding_the_tab_stops_the_clock_and_showing_it_starts_it_again(page, stock):
    game = open_new_game(page)
    set_visibility(page, "hidden")
    page.wait_for_function("() => document.querySelector('[data-status]').textContent === 'Paused'")
    game.refresh_from_db()
    assert game.resumed_at is None
    set_visibility(page, "visible")
    page.wait_for_function(
        "() => document.querySelector('[data-status]').textContent === 'Playing'"
    )
    game.refresh_from_db()
    assert game.resumed_at is not None


def test_after_giving_up_the_walkthrough_steps_through_the_solve(page, stock):
    open_new_game(page)
    page.click('[data-action="give-up"]')
    page.click("dialog[data-confirm] [data-confirm-ok]")  # asked in the page
    page.wait_for_selector('[data-status="gave_up"]')
    page.click('[data-action="show-how"]')
    page.wait_for_selector("[data-walkthrough]:not([hidden])")
    first = page.locator("[data-walk-step]").inner_text()
    page.click('[data-action="walk-next"]')
    assert page.locator("[data-walk-step]").inner_text() != first
    assert page.locator("[data-walk-count]").inner_text().startswith("Step 2 of ")
    assert page.locator(".cell.hinted").count() >= 1


def test_a_page_whose_session_ended_says_so_instead_of_saving(page, stock):
    game = open_new_game(page)
    blank = game.puzzle.givens.index("0")
    page.context.clear_cookies()  # logged out in another tab, say
    cell(page, blank).click()
    page.keyboard.press("5")
    page.wait_for_function(
        "() => document.querySelector('[data-saved]').textContent === 'Not saved'"
    )
    assert "Reload the page" in page.locator("[data-message]").inner_text()
    game.refresh_from_db()
    assert game.values == game.puzzle.givens


def test_digits_show_at_once_and_a_quick_erase_takes_them_back(page, stock):
    game = open_new_game(page)
    blank = game.puzzle.givens.index("0")
    cell(page, blank).click()
    page.keyboard.press("5")
    page.keyboard.press("Backspace")
    wait_saved(page)
    assert cell(page, blank).get_attribute("data-value") == "0"
    game.refresh_from_db()
    assert game.values[blank] == "0" and game.version == 2
