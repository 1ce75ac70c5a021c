"""Input that never surprises: a pad digit with nothing selected says what to do, a hint
leaves the selection where it was, a second tap keeps a cell; undo and redo walk the whole
history, an applied hint and moves from before a reload included; the check marks every
wrong digit; and a page left in front hears of the other device's changes."""

from __future__ import annotations

import pytest

from puzzles.models import Game

from .board_helpers import blanks_of, close, open_context
from .helpers import SCREENSHOTS, open_new_game, set_visibility, solution_of, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page, selector: str) -> None:
    page.locator(selector).first.tap()


def value_of(page, cell: int) -> str:
    return page.get_attribute(f'[data-cell="{cell}"]', "data-value")


def cells_of(page, selector: str) -> list[int]:
    """The cells the selector finds, by number."""
    return page.eval_on_selector_all(selector, "els => els.map(e => Number(e.dataset.cell))")


def selected(page) -> list[int]:
    return cells_of(page, ".cell.selected")


def wait_cell(page, cell: int, field: str, value: str, same: bool = True) -> None:
    """Wait until the cell's data-<field> is (or, `same` false, is no longer) the value."""
    page.wait_for_function(
        "([cell, field, value, same]) => "
        "(document.querySelector(`[data-cell='${cell}']`).dataset[field] === value) === same",
        arg=[cell, field, value, same],
    )


def test_a_pad_digit_with_no_cell_selected_says_to_choose_a_cell(browser, live_server, stock):
    context, page = open_context(browser, live_server, "phone", "light")
    game = open_new_game(page)
    blank = blanks_of(game.puzzle.givens)[2]
    page.locator(".game-head .title-short").tap()  # off the board: nothing selected
    assert selected(page) == []
    tap(page, '[data-digit="5"]')
    assert "Choose a cell first" in page.locator("[data-message]").inner_text()
    assert page.get_attribute('[data-digit="5"]', "aria-pressed") != "true"
    assert page.get_attribute('[data-action="input-mode"]', "aria-checked") == "false"
    tap(page, f'[data-cell="{blank}"]')  # the next cell tapped takes no digit
    assert value_of(page, blank) == "0" and selected(page) == [blank]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "game-phone-choose-a-cell.png"))
    close(context, page)


def test_holding_a_digit_shows_digit_first_on_the_switch(browser, live_server, stock):
    context, page = open_context(browser, live_server, "phone", "light")
    open_new_game(page)
    switch = page.locator('[data-action="input-mode"]')
    box = page.locator('[data-digit="4"]').bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_selector('[data-digit="4"][aria-pressed="true"]')
    page.mouse.up()
    assert switch.get_attribute("aria-checked") == "true"  # the mode in effect
    tap(page, '[data-action="input-mode"]')  # back to cell first
    assert switch.get_attribute("aria-checked") == "false"
    assert page.get_attribute('[data-digit="4"]', "aria-pressed") != "true"
    close(context, page)


def test_a_hint_keeps_the_selection_and_a_second_tap_keeps_the_cell(browser, live_server, stock):
    context, page = open_context(browser, live_server, "phone", "light")
    game = open_new_game(page)
    solution = solution_of(game)
    tap(page, '[data-action="hint"]')
    page.wait_for_selector('[data-hint-panel][data-hint-level="1"]:not([hidden])')
    tap(page, '[data-action="hint-more"]')
    tap(page, '[data-action="hint-more"]')
    page.wait_for_selector('[data-hint-panel][data-hint-level="3"]')
    targets = set(cells_of(page, '[data-hint="target"]'))
    mine = next(i for i in blanks_of(game.puzzle.givens) if i not in targets)
    tap(page, f'[data-cell="{mine}"]')
    assert selected(page) == [mine]
    tap(page, '[data-action="hint-close"]')
    tap(page, '[data-action="hint"]')
    page.wait_for_selector('[data-hint-panel][data-hint-level="1"]:not([hidden])')
    assert selected(page) == [mine]  # the hint marks its cells; the selection stays
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "game-phone-hint-keeps-the-selection.png"))
    tap(page, f'[data-cell="{mine}"]')  # a second tap keeps it
    assert selected(page) == [mine]
    tap(page, f'[data-digit="{solution[mine]}"]')
    assert value_of(page, mine) == solution[mine]
    page.keyboard.press("Escape")  # the hint goes first
    page.keyboard.press("Escape")  # then the selection
    assert selected(page) == []
    close(context, page)


def applied_hint_then_a_note(page) -> tuple[Game, int, int]:
    """A new easy game, a hint opened to its last level and applied, then a note in
    another cell: the game, the hint's cell and the note's."""
    game = open_new_game(page)
    page.click('[data-action="hint"]')
    page.wait_for_selector('[data-hint-panel][data-hint-level="1"]:not([hidden])')
    page.click('[data-action="hint-more"]')
    page.wait_for_selector('[data-hint-panel][data-hint-level="2"]')
    page.click('[data-action="hint-more"]')
    page.wait_for_selector('[data-hint-panel][data-hint-level="3"]')
    page.click('[data-action="apply-hint"]')
    page.wait_for_function(
        "puzzle => [...document.querySelectorAll('[data-cell]')]"
        ".some((c, i) => c.dataset.value !== '0' && puzzle[i] === '0')",
        arg=game.puzzle.givens,
    )
    wait_saved(page)
    game.refresh_from_db()
    hinted = next(
        i for i, (a, b) in enumerate(zip(game.puzzle.givens, game.values, strict=True)) if a != b
    )
    noted = next(i for i in blanks_of(game.puzzle.givens) if i != hinted)
    page.click(f'[data-cell="{noted}"]')
    page.click('[data-action="notes"]')
    page.click('[data-digit="1"]')
    page.click('[data-action="notes"]')
    wait_saved(page)
    assert page.get_attribute(f'[data-cell="{noted}"]', "data-notes") == "1"
    return game, hinted, noted


@pytest.mark.parametrize("reload", [False, True])
def test_undo_walks_back_past_an_applied_hint(page, stock, reload):
    game, hinted, noted = applied_hint_then_a_note(page)
    undo = page.locator('[data-action="undo"]')
    undo.click()
    wait_cell(page, noted, "notes", "")
    wait_saved(page)
    if reload:
        page.reload()
        page.wait_for_selector("[data-game][data-ready]")
    page.wait_for_function("() => !document.querySelector('[data-action=\"undo\"]').disabled")
    undo.click()
    wait_cell(page, hinted, "value", "0")
    wait_saved(page)
    game.refresh_from_db()
    assert game.values == game.puzzle.givens
    redo = page.locator('[data-action="redo"]')
    redo.click()
    wait_cell(page, hinted, "value", "0", same=False)
    redo.click()
    wait_cell(page, noted, "notes", "1")
    wait_saved(page)
    game.refresh_from_db()
    assert game.values[hinted] != "0" and game.notes[noted] == [1]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_check_marks_every_wrong_digit_and_says_how_many(browser, live_server, stock, scheme):
    context, page = open_context(browser, live_server, "phone", scheme)
    game = open_new_game(page)
    givens, solution = game.puzzle.givens, solution_of(game)
    left = next(i for i in range(80) if i % 9 < 8 and givens[i] == "0" and givens[i + 1] == "0")
    for index in (left, left + 1):
        wrong = next(d for d in "123456789" if d != solution[index])
        tap(page, f'[data-cell="{index}"]')
        tap(page, f'[data-digit="{wrong}"]')
    wait_saved(page)
    tap(page, '[data-action="check"]')
    tap(page, "[data-confirm-ok]")
    page.wait_for_function("() => document.querySelectorAll('[data-cell][data-wrong]').length == 2")
    assert sorted(cells_of(page, "[data-cell][data-wrong]")) == [left, left + 1]
    assert "2 digits are wrong" in page.locator("[data-message]").inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"game-phone-check-two-wrong-{scheme}.png"))
    close(context, page)


def shows(page, cell: int, digit: str, timeout: float) -> None:
    page.wait_for_function(
        "([cell, digit]) => document.querySelector(`[data-cell='${cell}']`).dataset.value == digit",
        arg=[cell, digit],
        timeout=timeout,
    )


def test_a_page_in_front_shows_the_other_devices_digits(browser, live_server, stock):
    context, page = open_context(browser, live_server, "phone", "light")
    game = open_new_game(page)
    other = browser.new_context(storage_state=context.storage_state())  # the same player
    there = other.new_page()
    there.goto(page.url)
    there.wait_for_selector("[data-game][data-ready]")
    first, second = blanks_of(game.puzzle.givens)[:2]
    solution = solution_of(game)
    for index in (first, second):
        tap(page, f'[data-cell="{index}"]')
        tap(page, f'[data-digit="{solution[index]}"]')
        wait_saved(page)
        if index == first:
            shows(there, first, solution[first], 15000)  # left in front, nothing done there
        else:
            set_visibility(there, "hidden")
            set_visibility(there, "visible")
            shows(there, second, solution[second], 2000)
    other.close()
    close(context, page)
