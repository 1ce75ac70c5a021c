"""The site installed as an app: opened with no network it shows the last game played, not
the offline page; the offline page names the player logged in on this device; the splash
and the browser's bar follow the theme (dark in a dark system, light in a light one)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from .helpers import SCREENSHOTS, go_offline, go_online, log_in, open_new_game, wait_game_kept

pytestmark = [
    pytest.mark.browser,
    pytest.mark.service_worker,
    pytest.mark.django_db(transaction=True),
]

ALICE = ("alice", "wonderland-42")

# The browser's theme color for the page: the first theme-color meta whose media matches.
THEME_COLOR = """() => [...document.querySelectorAll('meta[name="theme-color"]')]
    .find((meta) => !meta.media || matchMedia(meta.media).matches).content"""


def start_url(page: Page) -> str:
    return page.request.get(page.base + "/manifest.webmanifest").json()["start_url"]


def luminance(color: str) -> float:
    """The relative luminance of a #rrggbb color: 0 for black, 1 for white."""
    channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def manifest_seen_by_the_browser(page: Page) -> dict:
    """The web app manifest as the browser fetched it for the page (what an install uses)."""
    session = page.context.new_cdp_session(page)
    return json.loads(session.send("Page.getAppManifest")["data"])


def test_the_app_opened_offline_shows_the_last_game_played(page, stock):
    game = open_new_game(page)
    wait_game_kept(page)
    page.goto(page.base + "/")  # the app's last page is another one
    start = start_url(page)
    go_offline(page.context)
    try:
        page.goto(page.base + start)
        page.wait_for_selector("[data-game][data-ready]")
        assert page.url.endswith(f"/games/{game.pk}/")
        assert page.locator("[data-offline]").count() == 0
        page.set_viewport_size({"width": 390, "height": 844})
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "app-opened-offline-390.png")
    finally:
        go_online(page.context)


def test_the_offline_page_names_the_player_logged_in(page, stock, alice):
    log_in(page, *ALICE)
    open_new_game(page)
    wait_game_kept(page)
    page.set_viewport_size({"width": 390, "height": 844})
    go_offline(page.context)
    try:
        page.goto(page.base + "/stats/")  # a page never kept: the offline page
        expect(page.locator("[data-offline]")).to_be_visible()
        expect(page.locator(".account .who")).to_have_text("alice")
        assert page.get_by_role("link", name="Log in").count() == 0
        assert page.get_by_role("link", name="Sign up").count() == 0
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "offline-page-logged-in-390.png")
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=SCREENSHOTS / "offline-page-logged-in-390-dark.png")
    finally:
        go_online(page.context)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_splash_and_the_bar_follow_the_system_theme(browser, live_server, stock, scheme):
    context = browser.new_context(color_scheme=scheme, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        splash = manifest_seen_by_the_browser(page)["background_color"]
        bar = page.evaluate(THEME_COLOR)
        if scheme == "dark":
            assert luminance(splash) < 0.05 and luminance(bar) < 0.05, (splash, bar)
        else:
            assert luminance(splash) > 0.8, splash
    finally:
        context.close()
