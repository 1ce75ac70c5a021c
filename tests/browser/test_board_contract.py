"""The page's half of the board that teaches, against the server's contract (issue 11):
answers in the new form are played to the page through Playwright's routing, so these run
whatever the server has shipped. tests/browser/test_board_server.py plays the same against
the real server."""

from __future__ import annotations

import json

import pytest

from .board_helpers import blanks_of, close, contrast, inside, open_context, shot, style
from .conftest import open_new_game, solution_of, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROW_3 = list(range(18, 27))


def row_of(cell: int) -> range:
    return range(cell - cell % 9, cell - cell % 9 + 9)


def current_state(page) -> dict:
    return page.evaluate(
        """async () => (await fetch(document.querySelector("[data-game]").dataset.api,
                                    {headers: {Accept: "application/json"}})).json()"""
    )


def hint_of(level: int, target: int) -> dict:
    told = {
        "level": level,
        "technique": "Hidden Single",
        "slug": "hidden-single",
        "summary": "A digit with one place left in a unit goes there.",
        "text": {
            1: "Look at row 3.",
            2: "In row 3, only one cell can still hold a 7.",
            3: "So the 7 goes in row 3, column 3.",
        }[level],
        "region": ROW_3,
        "placements": [],
        "eliminations": [],
    }
    if level >= 2:
        told |= {"cause": [0, 19], "target": [target]}
    if level == 3:
        told["placements"] = [[target, 7]]
    return told


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_hint_in_the_contracts_form_is_drawn_and_applied(browser, live_server, stock, device):
    context, page = open_context(browser, live_server, device, "light")
    game = open_new_game(page)
    target = next(i for i in ROW_3 if game.puzzle.givens[i] == "0")
    posted = []

    def answer_hint(route):
        level = json.loads(route.request.post_data)["level"]
        state = current_state(page)
        route.fulfill(json=state | {"hint": hint_of(level, target)})

    def answer_apply(route):
        posted.append(json.loads(route.request.post_data))
        state = current_state(page)
        values = list(state["values"])
        values[target] = "7"
        state |= {"values": "".join(values), "version": state["version"] + 1, "select": target}
        route.fulfill(json=state)

    page.route("**/hint", answer_hint)
    page.route("**/apply-hint", answer_apply)
    page.click('[data-action="hint"]')
    page.wait_for_selector("[data-hint-panel][data-hint-level='1']")
    panel = page.locator("[data-hint-panel]")
    assert panel.get_attribute("data-technique") == "hidden-single"
    region = page.eval_on_selector_all('[data-hint="region"]', "cs => cs.map(c => +c.dataset.cell)")
    assert region == ROW_3  # exactly the unit named, nothing more
    assert page.locator("[data-hint-technique]").inner_text() == "Hidden Single"
    assert "one place left" in page.locator("[data-hint-summary]").inner_text()
    assert page.locator("[data-hint-text]").inner_text() == "Look at row 3."
    assert page.locator("[data-message]").inner_text() == ""  # said once, in the panel
    assert page.get_attribute(f'[data-cell="{ROW_3[0]}"]', "aria-selected") == "true"
    plain = style(page, '[data-cell="80"]', "backgroundColor")
    assert contrast(style(page, '[data-hint="region"]', "backgroundColor"), plain) >= 1.25
    assert not page.locator('[data-action="apply-hint"]').is_visible()

    page.click('[data-action="hint-more"]')
    page.wait_for_selector("[data-hint-panel][data-hint-level='2']")
    assert page.get_attribute(f'[data-cell="{target}"]', "data-hint") == "target"  # over region
    assert page.get_attribute('[data-cell="19"]', "data-hint") == "cause"  # over region
    assert page.get_attribute('[data-cell="0"]', "data-hint") == "cause"
    assert page.get_attribute(f'[data-cell="{target}"]', "aria-selected") == "true"
    looks = {
        role: (
            style(page, f'[data-hint="{role}"]', "backgroundColor"),
            style(page, f'[data-hint="{role}"]', "boxShadow"),
        )
        for role in ("region", "cause", "target")
    }
    assert len(set(looks.values())) == 3, looks  # three distinct styles
    if device == "phone":
        assert inside(page, "[data-board]") and inside(page, '[data-action="hint-more"]')

    page.click('[data-action="hint-more"]')
    page.wait_for_selector("[data-hint-panel][data-hint-level='3']")
    apply = page.locator('[data-action="apply-hint"]')
    assert apply.is_visible() and not page.locator('[data-action="hint-more"]').is_visible()
    if device == "phone":
        assert inside(page, "[data-board]") and inside(page, '[data-action="apply-hint"]')
    shot(page, f"contract-hint-3-{device}")
    version = current_state(page)["version"]
    apply.click()
    page.wait_for_selector("[data-hint-panel]", state="hidden")
    assert posted == [{"version": version}]
    assert page.get_attribute(f'[data-cell="{target}"]', "data-value") == "7"
    assert page.get_attribute(f'[data-cell="{target}"]', "aria-selected") == "true"
    assert page.locator("[data-cell][data-hint]").count() == 0
    close(context, page)


def test_close_clears_the_hints_drawing(browser, live_server, stock):
    context, page = open_context(browser, live_server, "desktop", "dark")
    open_new_game(page)
    page.route(
        "**/hint", lambda route: route.fulfill(json=current_state(page) | {"hint": hint_of(1, 20)})
    )
    page.click('[data-action="hint"]')
    page.wait_for_selector('[data-hint="region"]')
    page.click('[data-action="hint-close"]')
    assert page.locator("[data-cell][data-hint]").count() == 0
    assert page.locator("[data-hint-panel]").get_attribute("data-hint-level") is None
    close(context, page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_conflicts_the_server_names_are_marked_beyond_colour(browser, live_server, stock, scheme):
    context, page = open_context(browser, live_server, "phone", scheme)
    game = open_new_game(page)
    givens = game.puzzle.givens
    # A digit placed beside a given of the same digit in its row.
    cell = next(i for i in blanks_of(givens) if any(givens[j] != "0" for j in row_of(i)))
    partner = next(j for j in row_of(cell) if givens[j] != "0")

    def with_conflicts(route):
        answer = route.fetch()
        state = answer.json()
        state["conflicts"] = [cell, partner] if state["values"][cell] != "0" else []
        route.fulfill(response=answer, json=state)

    page.route("**/moves", with_conflicts)
    page.locator(f'[data-cell="{cell}"]').tap()
    page.locator(f'[data-digit="{givens[partner]}"]').tap()
    wait_saved(page)
    marked = page.locator(f'[data-cell="{cell}"]')
    assert marked.get_attribute("data-conflict") is not None
    assert page.get_attribute(f'[data-cell="{partner}"]', "data-conflict") is not None
    label = marked.get_attribute("aria-label")
    assert f"conflicts with row {partner // 9 + 1}, column {partner % 9 + 1}" in label, label
    # Not colour alone: the digit is underlined and the corner carries a mark.
    assert "underline" in style(page, f'[data-cell="{cell}"] .value', "textDecorationLine")
    assert style(page, f'[data-cell="{cell}"]', "content", "::before") != "none"
    shot(page, f"conflict-phone-{scheme}")
    page.locator(f'[data-cell="{cell}"]').tap()
    page.locator('[data-action="erase"]').tap()
    wait_saved(page)
    assert marked.get_attribute("data-conflict") is None
    close(context, page)


def test_fill_all_notes_shows_the_notes_the_server_sends(browser, live_server, stock):
    context, page = open_context(browser, live_server, "desktop", "light")
    game = open_new_game(page)
    notes = [[] if ch != "0" else [1, 2, 3] for ch in game.puzzle.givens]

    def fill(route):
        state = current_state(page)
        route.fulfill(json=state | {"notes": notes, "version": state["version"] + 1})

    page.route("**/fill-notes", fill)
    page.keyboard.press("f")
    blank = blanks_of(game.puzzle.givens)[0]
    page.wait_for_selector(f'[data-cell="{blank}"][data-notes="123"]')
    assert page.locator('[data-notes="123"]').count() == len(blanks_of(game.puzzle.givens))
    close(context, page)


def test_fill_all_notes_says_so_when_the_server_has_no_such_thing(browser, live_server, stock):
    context, page = open_context(browser, live_server, "desktop", "light")
    game = open_new_game(page)
    page.route(
        "**/fill-notes",
        lambda route: route.fulfill(
            status=404, body="<h1>Not found</h1>", content_type="text/html"
        ),
    )
    page.click('[data-action="fill-notes"]')
    page.wait_for_function(
        "() => document.querySelector('[data-message]').textContent.includes('404')"
    )
    # The page goes on: the next digit is saved.
    blank = blanks_of(game.puzzle.givens)[0]
    page.click(f'[data-cell="{blank}"]')
    page.keyboard.press(solution_of(game)[blank])
    wait_saved(page)
    game.refresh_from_db()
    assert game.values[blank] == solution_of(game)[blank]
    close(context, page)


def test_the_best_time_and_the_days_place_show_when_the_state_has_them(browser, live_server, stock):
    context, page = open_context(browser, live_server, "desktop", "light")
    game = open_new_game(page)

    def with_record(route):
        answer = route.fetch()
        state = answer.json()
        if state["status"] == "solved":
            state |= {"best": state["elapsed"] + 60, "place": 3}
        route.fulfill(response=answer, json=state)

    page.route("**/moves", with_record)
    solution = solution_of(game)
    for index in blanks_of(game.puzzle.givens):
        page.click(f'[data-cell="{index}"]')
        page.keyboard.press(solution[index])
    page.wait_for_selector('[data-status="solved"]')
    record = page.locator("[data-final-record]").inner_text()
    assert "new best" in record and "3rd" in record, record
    close(context, page)
