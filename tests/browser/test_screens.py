"""Every main page on a phone and a desktop, light and dark: it fits the screen, has no
script errors, and leaves a screenshot in var/screenshots/ to look at."""

from __future__ import annotations

import pytest

from .helpers import SCREENSHOTS, open_new_game, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_pages_fit_the_screen_in_both_themes(browser, live_server, stock, device, scheme):
    context = browser.new_context(viewport=VIEWPORTS[device], color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.base = live_server.url
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    game = open_new_game(page)
    game_url = page.url
    blanks = [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"]
    page.locator(f'[data-cell="{blanks[0]}"]').click()
    page.keyboard.press(game.puzzle.solution[blanks[0]])
    page.locator(f'[data-cell="{blanks[1]}"]').click()
    page.keyboard.press("Shift+2")
    page.keyboard.press("Shift+5")
    wait_saved(page)
    solve_another_game(page)  # so that history and statistics have a solve to show
    page.goto(game_url)
    pages = {
        "game": game_url,
        "home": "/",
        "history": "/history/",
        "stats": "/stats/",
        "daily": "/daily/",
        "settings": "/settings/",
    }
    for name, url in pages.items():
        page.goto(url if url.startswith("http") else page.base + url)
        page.wait_for_load_state("networkidle")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px on {device}"
        path = SCREENSHOTS / f"{name}-{device}-{scheme}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 5000
    board = page.goto(pages["game"]) and page.locator("[data-board]").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= VIEWPORTS[device]["width"]
    assert board["width"] >= min(320, VIEWPORTS[device]["width"] - 40)
    context.close()
    assert not errors, errors


def solve_another_game(page) -> None:
    """Start a game and solve it through the page's own JSON API."""
    game = open_new_game(page)
    page.evaluate(
        """async ([solution, givens]) => {
            const root = document.querySelector("[data-game]");
            const csrf = document.querySelector('meta[name="csrf-token"]').content;
            let version = 0;
            for (let cell = 0; cell < 81; cell++) {
                if (givens[cell] !== "0") continue;
                const response = await fetch(root.dataset.api + "/moves", {
                    method: "POST",
                    headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
                    body: JSON.stringify({cell, digit: Number(solution[cell]), version}),
                });
                version = (await response.json()).version;
            }
        }""",
        [game.puzzle.solution, game.puzzle.givens],
    )
    game.refresh_from_db()
    assert game.status == "solved"
