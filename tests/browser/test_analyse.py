"""/analyse/ in Chromium, on a phone (390x844, touch) and a desktop (1280x800): Easter
Monster analysed step by step, a puzzle with several solutions refused, a position's pencil
marks exported and read back, and "Analyse this position" from a game in play, said to be
help before it opens; axe-core finds nothing serious on any of them. Screenshots land in
var/screenshots/."""

from __future__ import annotations

from collections import Counter

import pytest
from playwright.sync_api import Page

from puzzles.models import Game

from .board_helpers import DEVICES  # the devices test_accessibility.py gives axe on
from .helpers import SCREENSHOTS, open_new_game
from .test_accessibility import AXE, AXE_OPTIONS, EASTER_MONSTER, SERIOUS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(params=list(DEVICES))
def device_page(request, browser, live_server):
    context = browser.new_context(**DEVICES[request.param])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.base = live_server.url
    page.device = request.param
    yield page
    context.close()
    assert not errors, errors


def press(page: Page, selector: str) -> None:
    """Tap on a phone, click on a desktop."""
    if page.device == "phone":
        page.locator(selector).first.tap()
    else:
        page.locator(selector).first.click()


def check(page: Page, name: str, *, axe: bool = True) -> None:
    """No sideways scroll, nothing serious for axe, and a screenshot. `axe=False` for a page
    test_accessibility.py already gives axe at the same address, on the same two devices, in
    both colour schemes (axe takes seconds a page)."""
    page.wait_for_load_state("networkidle")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{name} scrolls sideways by {overflow}px on {page.device}"
    if axe:
        results = AXE.run(page, options=AXE_OPTIONS).response
        serious = Counter(
            v["id"] for v in results["violations"] if (v.get("impact") or "minor") in SERIOUS
        )
        assert not serious, f"{name} on {page.device}: {dict(serious)}"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"analyse-{name}-{page.device}.png"), full_page=True)
    # The first screen, and the first steps drawn, as a reader sees them.
    page.screenshot(path=str(SCREENSHOTS / f"analyse-{name}-{page.device}-top.png"))
    if page.locator("#steps").count():
        page.locator("#steps").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"analyse-{name}-{page.device}-steps.png"))


def analyse(page: Page, text: str) -> None:
    page.goto(page.base + "/analyse/")
    page.fill("#puzzle", text)
    with page.expect_navigation():
        press(page, '[data-action="analyse"]')


def test_easter_monster_then_its_marks_read_back(device_page, transactional_db):
    page = device_page
    analyse(page, EASTER_MONSTER)
    steps = page.locator("[data-step]")
    assert steps.count() > 50
    assert steps.first.get_attribute("data-step") == "0"
    assert steps.first.get_attribute("data-technique")
    assert page.locator("[data-grade-tier=extreme]").count() >= 1
    assert page.locator("[data-step] [data-board-view]").count() > 0
    # The form's GET lands on /analyse/?puzzle=..., which test_accessibility.py gives axe.
    assert page.url.endswith("/analyse/?puzzle=" + EASTER_MONSTER)
    check(page, "easter-monster", axe=False)
    # The position exported, and read back: the same path.
    press(page, ".analysis-export summary")
    exported = page.locator("[data-export]").input_value()
    assert exported.count("|") == 36
    techniques = [steps.nth(i).get_attribute("data-technique") for i in range(steps.count())]
    analyse(page, exported)
    again = page.locator("[data-step]")
    assert [
        again.nth(i).get_attribute("data-technique") for i in range(again.count())
    ] == techniques
    check(page, "pencil-marks")


def test_several_solutions_are_refused_clearly(device_page, transactional_db):
    page = device_page
    analyse(page, "." * 81)
    assert "more than one solution" in page.locator("[data-error]").inner_text()
    assert page.locator("[data-step]").count() == 0
    assert page.url.endswith("/analyse/?puzzle=" + "." * 81)  # axe: test_accessibility.py
    check(page, "several-solutions", axe=False)


def test_analyse_this_position_says_it_is_help_first(device_page, stock):
    page = device_page
    game = open_new_game(page)
    press(page, "[data-analyse]")
    page.wait_for_selector("[data-analyse-ask]")
    assert "counts as help" in page.locator("[data-analyse-ask]").inner_text()
    game.refresh_from_db()
    assert game.hints == 0
    check(page, "ask")
    press(page, '[data-action="analyse-as-help"]')
    page.wait_for_selector("[data-step]")
    game = Game.objects.get(pk=game.pk)
    assert game.hints == 1 and game.helped_at is not None
    assert page.locator("[data-analysis-helped]").count() == 1
