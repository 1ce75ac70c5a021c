"""A long hint on the game page, in Chromium: a chain's hint, the longest words a hint says,
keeps its panel and buttons in view with the board at every level on a laptop and a
desktop screen, without the page scrolling; on phones and tablets, upright and sideways,
the board, the hint and its buttons are in view together. Opening a hint leaves the
selected cell as it was. Screenshots of each size land in var/screenshots/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from puzzles.models import Game, Puzzle
from puzzles.pools.stock import puzzle_row

from .board_helpers import close, inside
from .helpers import SCREENSHOTS, open_new_game
from .test_fit import SIZES, page_sized, past_the_edge

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POSITIONS = Path(__file__).resolve().parents[1] / "engine" / "technique_positions.json"
SCREENS = {
    "laptop": SIZES["laptop"],
    "desktop-1440": ({"width": 1440, "height": 900}, {}),
    # A 1440x900 screen less a browser's tabs and address bar.
    "desktop-1440-window": ({"width": 1440, "height": 780}, {}),
    "phone-small": SIZES["phone-small"],
    "phone": SIZES["phone"],
    "phone-landscape": SIZES["phone-landscape"],
    "tablet": SIZES["tablet"],
    "tablet-landscape": SIZES["tablet-landscape"],
    "desktop": SIZES["desktop"],
}
DESKTOPS = ("laptop", "desktop-1440", "desktop-1440-window")


def page_at(browser, live_server, size: str):
    """A page of a new context (a new guest) of the screen's size; a script error fails the
    test (checked by `close`)."""
    return page_sized(browser, live_server, *SCREENS[size])


def at_a_chain(page) -> Game:
    """The player's game moved to a position whose next step is an alternating inference
    chain, every note a complete list, and the page opened on it again."""
    case = next(
        c
        for c in json.loads(POSITIONS.read_text())
        if c["technique"] == "Alternating Inference Chain"
    )
    game = open_new_game(page, "easy")
    made = engine.Generated(
        case["puzzle"], engine.solve(case["puzzle"]), engine.grade(case["puzzle"])
    )
    puzzle = puzzle_row(made)
    puzzle.served_at = game.puzzle.served_at
    puzzle.save()
    Game.objects.filter(pk=game.pk).update(
        puzzle=puzzle,
        values=case["grid"],
        notes=[[int(d) for d in digits] for digits in case["candidates"]],
        complete="1" * 81,
        version=game.version + 1,
    )
    page.reload()
    page.wait_for_selector("[data-game][data-ready]")
    placed = next(c for c in range(81) if case["puzzle"][c] == "0" and case["grid"][c] != "0")
    page.wait_for_selector(f'[data-cell="{placed}"][data-value="{case["grid"][placed]}"]')
    assert Puzzle.objects.filter(givens=case["puzzle"]).exists()
    return game


def selected(page) -> list[str]:
    return page.eval_on_selector_all(
        '[data-cell][aria-selected="true"]', "cells => cells.map(c => c.dataset.cell)"
    )


def scrolled(page) -> float:
    return page.evaluate("() => window.scrollY")


@pytest.mark.parametrize("size", list(SCREENS))
def test_a_chain_hint_and_its_buttons_stay_in_view_with_the_board(
    browser, live_server, stock, size
):
    page = page_at(browser, live_server, size)
    at_a_chain(page)
    empty = page.locator('[data-cell][data-value="0"]').first
    empty.click()
    chosen = selected(page)
    assert len(chosen) == 1
    page.evaluate("() => window.scrollTo(0, 0)")
    faults: dict[str, list[str]] = {}
    for level in (1, 2, 3):
        if level == 1:
            page.locator('[data-action="hint"]').click()
        else:
            page.locator('[data-action="hint-more"]').click()
        page.wait_for_selector(f"[data-hint-panel][data-hint-level='{level}']")
        page.wait_for_timeout(100)  # the page's own scroll, if any, runs in the next frame
        button = '[data-action="apply-hint"]' if level == 3 else '[data-action="hint-more"]'
        said = faults.setdefault(f"level {level}", [])
        assert "chain" in page.locator("[data-hint-technique]").inner_text()
        for selector in ("[data-board]", button, '[data-action="hint-close"]'):
            if not inside(page, selector):
                said.append(f"{selector} is not in view")
        said.extend(past_the_edge(page))
        if size in DESKTOPS and scrolled(page) > 0.5:
            said.append(f"the page scrolled by {scrolled(page)}px")
        if selected(page) != chosen:
            said.append(f"the selection moved from {chosen} to {selected(page)}")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"hint-chain-{size}-level{level}.png"))
    close(page.context, page)
    assert not any(faults.values()), faults


def test_opening_a_hint_leaves_the_selection_where_it_was(browser, live_server, stock):
    page = page_at(browser, live_server, "laptop")
    game = open_new_game(page, "easy")
    step = engine.next_step(game.values, puzzle=game.puzzle.givens)
    (target, _), *_ = step.placements
    elsewhere = next(
        c for c in range(81) if game.values[c] == "0" and c != target and c not in step.cause
    )
    page.locator(f'[data-cell="{elsewhere}"]').click()
    assert selected(page) == [str(elsewhere)]
    page.locator('[data-action="hint"]').click()
    for level in (1, 2, 3):
        page.wait_for_selector(f"[data-hint-panel][data-hint-level='{level}']")
        assert selected(page) == [str(elsewhere)], f"level {level}"
        if level < 3:
            page.keyboard.press("h")
    page.locator('[data-action="hint-close"]').click()
    assert selected(page) == [str(elsewhere)]
    close(page.context, page)
