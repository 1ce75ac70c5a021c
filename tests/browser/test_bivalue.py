"""The bivalue highlight: a toggle (the "Two-candidate cells" button, or B) marks every
empty cell with exactly two candidates (data-bivalue), read from the player's notes where a
cell's notes are complete, else from the digits placed; said to screen readers; off again
with a second press. Checked against the engine's own candidates."""

from __future__ import annotations

import pytest

import engine

from .helpers import open_new_game, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def marked(page) -> set[int]:
    return set(
        page.eval_on_selector_all(
            "[data-cell][data-bivalue]", "els => els.map(e => +e.dataset.cell)"
        )
    )


def two_candidates(values: str) -> set[int]:
    return {i for i, c in enumerate(engine.candidates(values)) if len(c) == 2 and values[i] == "0"}


@pytest.mark.parametrize(
    "viewport, touch",
    [({"width": 390, "height": 844}, True), ({"width": 1280, "height": 800}, False)],
)
def test_the_toggle_marks_the_cells_with_two_candidates(
    browser, live_server, stock, viewport, touch
):
    context = browser.new_context(viewport=viewport, has_touch=touch)
    page = context.new_page()
    page.base = live_server.url
    game = open_new_game(page)
    givens = game.puzzle.givens
    expected = two_candidates(givens)
    assert expected, "a puzzle with bivalue cells at its start"
    button = page.locator('[data-action="bivalue"]')
    assert marked(page) == set()
    if touch:
        button.tap()
    else:
        page.keyboard.press("b")
    assert button.get_attribute("aria-pressed") == "true"
    assert marked(page) == expected
    said = page.eval_on_selector("[data-message]", "e => e.textContent")
    assert f"{len(expected)} cells with two candidates marked" in said
    cell = min(expected)
    label = page.get_attribute(f'[data-cell="{cell}"]', "aria-label")
    assert label.endswith("two candidates")

    # Complete notes are read instead: fill them, then take one of a bivalue cell's two
    # notes out: it is no longer bivalue by its notes, and a three-note cell cut to two is.
    page.click('[data-action="fill-notes"]')
    wait_saved(page)
    assert marked(page) == expected
    three = next(
        i for i, c in enumerate(engine.candidates(givens)) if len(c) == 3 and givens[i] == "0"
    )
    page.click(f'[data-cell="{three}"]')
    page.click('[data-action="notes"]')
    page.click(f'[data-digit="{min(engine.candidates(givens)[three])}"]')
    page.click(f'[data-cell="{cell}"]')
    page.click(f'[data-digit="{min(engine.candidates(givens)[cell])}"]')
    wait_saved(page)
    assert marked(page) == (expected - {cell}) | {three}

    button.click()
    assert button.get_attribute("aria-pressed") == "false"
    assert marked(page) == set()
    context.close()
