"""Tap to drawn digit on a slow network: the time from a tap on the pad to the frame that
shows the digit, over TAP_COUNT (20) taps in a real Chromium with TAP_LATENCY_MS (2000) added
to every request (Playwright's context.route, which also holds for the service worker's own
fetches), and how long until all of them are saved, in how many requests.

The site runs as in production (gunicorn, DJANGO_DEBUG=0, whitenoise's manifest) on a
scratch SQLite database and an embedded Redis. The taps are made in the page, one every
TAP_GAP_MS (150): a cell, then a digit, as a quick player does; each is timed from just
before the tap to the first animation frame in which the cell shows the digit.

    python -m bench tap
"""

from __future__ import annotations

import os
import statistics
import time

from .common import CHROMIUM, in_browser_site, line

COUNT = int(os.environ.get("TAP_COUNT", "20"))
LATENCY_MS = int(os.environ.get("TAP_LATENCY_MS", "2000"))
GAP_MS = int(os.environ.get("TAP_GAP_MS", "150"))
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]

# In the page: each tap, then the frames until the cell shows the digit. Returns the times
# in milliseconds.
TAPS = """async ([taps, gap]) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const times = [];
    for (const [index, digit] of taps) {
        const el = document.querySelector(`[data-cell="${index}"]`);
        const start = performance.now();
        el.click();
        document.querySelector(`[data-digit="${digit}"]`).click();
        for (;;) {
            await frame();
            if (el.querySelector(".value").textContent === String(digit)) break;
        }
        times.push(performance.now() - start);
        await new Promise((resolve) => setTimeout(resolve, gap));
    }
    return times;
}"""


def _tap(base: str) -> tuple[list[float], float, int]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
            page = context.new_page()
            page.goto(base + "/")
            page.click("[data-new-game=easy]")
            page.wait_for_selector("[data-game][data-ready]")
            puzzle = page.evaluate(
                "() => JSON.parse(document.getElementById('game-state').textContent).puzzle"
            )
            waiter = context.new_page()  # counts the added latency
            page.bring_to_front()  # the page tapped is the one in view: its frames run

            def late(route) -> None:
                try:
                    waiter.wait_for_timeout(LATENCY_MS)
                    route.continue_()
                except Exception:  # closing
                    pass

            context.route("**/*", late)
            posts: list[str] = []
            page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
            blanks = [i for i, ch in enumerate(puzzle) if ch == "0"][:COUNT]
            # Any digit the rules allow is fine for timing; a wrong one is still drawn.
            taps = [[i, 1 + (k % 9)] for k, i in enumerate(blanks)]
            start = time.perf_counter()
            times = page.evaluate(TAPS, [taps, GAP_MS])
            page.wait_for_function(
                "() => document.querySelector('[data-saved]').textContent === 'Saved'",
                timeout=120_000,
            )
            saved = time.perf_counter() - start
            return times, saved, len([url for url in posts if url.endswith("/changes")])
        finally:
            browser.close()


def main() -> None:
    print("== tap")
    measured = in_browser_site("tap", _tap)
    if measured is None:
        return
    times, saved, requests = measured
    line(
        f"tap to drawn digit, {LATENCY_MS} ms latency",
        f"median {statistics.median(times):.1f} ms",
        f"worst {max(times):.1f} ms",
        f"n={len(times)}",
    )
    line(
        f"{len(times)} taps saved",
        f"{saved:.1f} s after the first",
        f"in {requests} requests",
    )
