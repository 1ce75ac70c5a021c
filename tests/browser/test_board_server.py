"""The board that teaches, against the real server: hints drawn level by level, Apply,
partial notes taken as a memo, fill all notes, rule conflicts, and a log-out that stops the
clock."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.utils import timezone

import engine
from puzzles.models import IDLE_SECONDS

from .board_helpers import blanks_of, close, inside, open_context, shot, style
from .helpers import open_new_game, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def units() -> dict[str, list[int]]:
    """The engine's units by the names a hint uses: rows, columns, then boxes."""
    kinds = ["row", "column", "box"]
    return {f"{kinds[i // 9]} {i % 9 + 1}": sorted(unit) for i, unit in enumerate(engine.UNITS)}


def told_by(page, press) -> dict:
    """What the server told for the hint a press asks for: its answer, awaited (an event
    handler that reads a body may still be waiting when the panel is drawn)."""
    with page.expect_response(lambda r: r.url.endswith("/hint") and r.ok) as answer:
        press()
    return answer.value.json()["hint"]


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_level_one_shades_exactly_the_unit_it_names(browser, live_server, stock, device):
    context, page = open_context(browser, live_server, device, "light")
    open_new_game(page)
    told = told_by(page, page.locator('[data-action="hint"]').click)
    page.wait_for_selector("[data-hint-panel][data-hint-level='1']")
    for field in ("level", "technique", "slug", "summary", "text", "region"):
        assert field in told, field
    shaded = page.eval_on_selector_all('[data-hint="region"]', "cs => cs.map(c => +c.dataset.cell)")
    assert shaded == sorted(told["region"])
    named = [name for name, cells in units().items() if cells == shaded]
    assert named, f"{shaded} is not one row, column or box"
    assert named[0] in (told["text"] + " " + told["summary"]).lower()
    assert page.get_attribute("[data-hint-panel]", "data-technique") == told["slug"]
    assert page.locator("[data-hint-text]").inner_text() == told["text"]
    assert inside(page, "[data-board]") and inside(page, "[data-hint-text]")
    close(context, page)


def test_apply_carries_out_the_step_as_one_undoable_move(browser, live_server, stock):
    context, page = open_context(browser, live_server, "phone", "dark")
    game = open_new_game(page)
    page.locator('[data-action="hint"]').tap()
    for level in (2, 3):
        told = told_by(page, page.locator('[data-action="hint-more"]').tap)
        page.wait_for_selector(f"[data-hint-panel][data-hint-level='{level}']")
    assert told["level"] == 3 and told["target"] and told["placements"]
    for cell in told["target"]:
        assert page.get_attribute(f'[data-cell="{cell}"]', "data-hint") == "target"
    for cell in set(told["cause"]) - set(told["target"]):
        assert page.get_attribute(f'[data-cell="{cell}"]', "data-hint") == "cause"
    assert inside(page, "[data-board]") and inside(page, '[data-action="apply-hint"]')
    shot(page, "server-hint-3-phone-dark")
    game.refresh_from_db()
    before = game.values
    assert all(before[c] == "0" for c, _ in told["placements"])  # nothing applied yet
    page.locator('[data-action="apply-hint"]').tap()
    page.wait_for_selector("[data-hint-panel]", state="hidden")
    wait_saved(page)
    cell, digit = told["placements"][0]
    assert page.get_attribute(f'[data-cell="{cell}"]', "data-value") == str(digit)
    assert page.locator('[data-cell][aria-selected="true"]').get_attribute("data-cell") == str(cell)
    page.locator('[data-action="undo"]').tap()
    wait_saved(page)
    game.refresh_from_db()
    assert game.values == before
    close(context, page)


def test_fill_all_notes_writes_exactly_each_cells_candidates(browser, live_server, stock):
    context, page = open_context(browser, live_server, "desktop", "light")
    game = open_new_game(page)
    page.click('[data-action="fill-notes"]')
    wait_saved(page)
    candidates = engine.candidates(game.puzzle.givens)
    for cell in blanks_of(game.puzzle.givens):
        expected = "".join(str(d) for d in candidates[cell])
        assert page.get_attribute(f'[data-cell="{cell}"]', "data-notes") == expected, cell
    page.keyboard.press("Control+z")  # one undoable move
    wait_saved(page)
    assert page.locator('[data-cell]:not([data-notes=""])').count() == 0
    close(context, page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_digit_repeated_in_a_unit_is_marked_as_a_conflict(browser, live_server, stock, scheme):
    context, page = open_context(browser, live_server, "phone", scheme)
    game = open_new_game(page)
    givens = game.puzzle.givens
    cell = next(i for i in blanks_of(givens) if any(givens[j] != "0" for j in engine.PEERS[i]))
    partner = next(j for j in sorted(engine.PEERS[cell]) if givens[j] != "0")
    page.locator(f'[data-cell="{cell}"]').tap()
    page.locator(f'[data-digit="{givens[partner]}"]').tap()
    wait_saved(page)
    assert page.get_attribute(f'[data-cell="{cell}"]', "data-conflict") is not None
    assert page.get_attribute(f'[data-cell="{partner}"]', "data-conflict") is not None
    label = page.get_attribute(f'[data-cell="{cell}"]', "aria-label")
    assert f"conflicts with row {partner // 9 + 1}, column {partner % 9 + 1}" in label
    assert style(page, f'[data-cell="{cell}"]', "content", "::before") != "none"
    assert page.locator("[data-hints]").inner_text() == "0"  # a conflict is not help
    close(context, page)


def test_one_partial_note_gets_an_ordinary_hint(browser, live_server, stock):
    context, page = open_context(browser, live_server, "phone", "light")
    game = open_new_game(page)
    cell = blanks_of(game.puzzle.givens)[0]
    page.locator(f'[data-cell="{cell}"]').tap()
    page.locator('[data-action="notes"]').tap()
    page.locator('[data-digit="5"]').tap()  # one reminder note, not a candidate list
    wait_saved(page)
    assert page.get_attribute(f'[data-cell="{cell}"]', "data-notes") == "5"
    told = told_by(page, page.locator('[data-action="hint"]').tap)
    page.wait_for_selector("[data-hint-panel][data-hint-level='1']")
    assert told["slug"] not in ("missing-candidate", "lost-answer", "mistake", "conflict"), told
    assert "answer" not in page.locator("[data-hint-text]").inner_text().lower()
    close(context, page)


def test_logging_out_from_a_game_page_stops_its_clock(browser, live_server, stock, alice):
    context, page = open_context(browser, live_server, "desktop", "light")
    page.goto(page.base + "/accounts/login/")
    page.fill("[name=username]", "alice")
    page.fill("[name=password]", "wonderland-42")
    page.click("form [type=submit]")
    game = open_new_game(page)
    page.locator(f'[data-cell="{blanks_of(game.puzzle.givens)[0]}"]').click()
    page.locator('[data-digit="1"]').click()
    wait_saved(page)
    game.refresh_from_db()
    assert game.resumed_at is not None  # the clock runs while the player plays
    page.click("text=Log out")
    page.wait_for_url(lambda url: "/games/" not in url)
    game.refresh_from_db()
    played = game.elapsed()
    later = timezone.now() + datetime.timedelta(seconds=2 * IDLE_SECONDS)
    with time_machine.travel(later, tick=False):
        assert game.elapsed() == played  # stopped at the log-out, not at the idle limit
    assert game.resumed_at is None
    close(context, page)
