"""From the tap on a daily to the first tap that sticks: how long after a player taps Play on
the home page's easy daily a tap on the board (a cell, then a digit) is kept, in a real
Chromium with FIRST_TAP_LATENCIES_MS (800 and 2000) added to every request (Playwright's
context.route, which also holds for the service worker's own fetches).

As a player does, the bench taps as soon as the board is drawn, and again every
FIRST_TAP_GAP_MS (250), each time a new empty cell, until the page's script has started;
the first tap whose digit the server then has is the one that stuck.

Each latency is measured twice, side by side: "before" is the page as it was served before
its script was built into one file: the game page's HTML is rewritten on its way to the
browser to load the source modules (game/app.js and pwa.js, a chain of imports) and not
the early-input script; "after" is the page as served.

The site runs as in production (gunicorn, DJANGO_DEBUG=0, whitenoise's manifest) on a
scratch SQLite database and an embedded Redis.

    python -m bench first_tap
"""

from __future__ import annotations

import os
import re
import time

from .common import CHROMIUM, in_browser_site, line

LATENCIES_MS = [int(ms) for ms in os.environ.get("FIRST_TAP_LATENCIES_MS", "800,2000").split(",")]
GAP_MS = int(os.environ.get("FIRST_TAP_GAP_MS", "250"))
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
GAME_PAGE = re.compile(r"/games/\d+/$")
DAILY = '.daily-cards form[action$="/easy/"] button[type=submit]'

# In the page: a tap on a cell and one on a digit; whether the page's script had started.
TAP = """([index, digit]) => {
    const ready = !!document.querySelector("[data-game][data-ready]");
    document.querySelector(`[data-cell="${index}"]`).click();
    document.querySelector(`[data-digit="${digit}"]`).click();
    return ready;
}"""


def as_before(html: str) -> str:
    """The game page as served before its script was one file: the source modules, and no
    early-input script (the hashed names of production swapped for the sources')."""
    html = re.sub(r'<script src="[^"]*/js/early\.[^"]*"></script>', "", html)
    html = re.sub(r'src="[^"]*/js/dist/game\.[^"]*"', 'src="/static/js/game/app.js"', html)
    return re.sub(r'src="[^"]*/js/dist/pwa\.[^"]*"', 'src="/static/js/pwa.js"', html)


def _slow(context, waiter, latency_ms: int, before: bool) -> None:
    def late(route) -> None:
        try:
            waiter.wait_for_timeout(latency_ms)
            if not (before and GAME_PAGE.search(route.request.url)):
                route.continue_()
                return
            response = route.fetch()
            route.fulfill(response=response, body=as_before(response.text()))
        except Exception:  # closing
            pass

    context.route("**/*", late)


def _taps_until_ready(page, blanks: list[int], started: float) -> list[tuple[float, int]]:
    taps: list[tuple[float, int]] = []
    for index in blanks:
        at = time.perf_counter() - started
        ready = page.evaluate(TAP, [index, 1 + len(taps) % 9])
        taps.append((at, index))
        if ready:
            return taps
        page.wait_for_timeout(GAP_MS)
    return taps


def _first_tap(browser, base: str, latency_ms: int, before: bool) -> float | None:
    """Seconds from the tap on the daily to the first tap that stuck (None: none did)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        waiter = context.new_page()  # counts the added latency
        page.bring_to_front()
        page.goto(base + "/")
        page.wait_for_load_state("networkidle")
        _slow(context, waiter, latency_ms, before)
        started = time.perf_counter()
        page.click(DAILY)
        board = page.locator("[data-game] [data-board]")
        board.wait_for(state="visible", timeout=120_000)
        cells = board.locator('[data-cell][data-value="0"]')
        blanks = [int(i) for i in cells.evaluate_all("(els) => els.map((e) => e.dataset.cell)")]
        taps = _taps_until_ready(page, blanks, started)
        page.wait_for_function(
            "() => document.querySelector('[data-saved]').textContent === 'Saved'",
            timeout=120_000,
        )
        game = page.locator("[data-game]").get_attribute("data-game")
        values = page.request.get(f"{base}/api/games/{game}").json()["values"]
        return next((at for at, index in taps if values[index] != "0"), None)
    finally:
        context.close()


def _measure(base: str) -> list[tuple[int, float | None, float | None]]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            return [
                (ms, _first_tap(browser, base, ms, True), _first_tap(browser, base, ms, False))
                for ms in LATENCIES_MS
            ]
        finally:
            browser.close()


def _seconds(value: float | None) -> str:
    return "none stuck" if value is None else f"{value:.1f} s"


def main() -> None:
    print("== first tap")
    results = in_browser_site("first-tap", _measure)
    if results is None:
        return
    for ms, before, after in results:
        line(
            f"daily tap to first kept tap, {ms} ms",
            f"before {_seconds(before)}",
            f"after {_seconds(after)}",
        )
