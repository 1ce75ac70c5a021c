"""The game page fits every screen a player brings, from a small phone to a wide desktop, in
portrait and landscape: nothing past the screen's edge and no sideways scroll; the whole
board and the pad in view together as the page opens; the title whole and clear of the
clock; a message, and a hint's text with its Apply button, in view beside the board. Each
size leaves screenshots of the home page and of a game with a hint open, light and dark,
in var/screenshots/."""

from __future__ import annotations

import pytest

from puzzles.models import Game, Puzzle

from .board_helpers import close
from .helpers import SCREENSHOTS, go_offline, go_online
from .test_accessibility import pick_dailies

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOUCH = {"has_touch": True, "is_mobile": True}
SIZES = {
    "phone-small": ({"width": 360, "height": 640}, TOUCH),
    "phone": ({"width": 390, "height": 844}, TOUCH),
    "phone-landscape": ({"width": 844, "height": 390}, TOUCH),
    "tablet": ({"width": 820, "height": 1180}, TOUCH),
    "tablet-landscape": ({"width": 1180, "height": 820}, TOUCH),
    "laptop": ({"width": 1280, "height": 800}, {}),
    "desktop": ({"width": 1920, "height": 1080}, {}),
}

# Everything shown on the page that reaches past the screen's left or right edge, and
# whether the page scrolls sideways. The screen's width is the device's: a phone's browser
# widens its window (innerWidth) to a page that overflows, and zooms out.
PAST_THE_EDGE = """(width) => {
  const out = [];
  const scrolling = Math.max(document.scrollingElement.scrollWidth, window.innerWidth);
  if (scrolling > width) out.push(`the page scrolls sideways by ${scrolling - width}px`);
  const skipped = ".visually-hidden, .skip-link, dialog:not([open])";
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.getClientRects().length || el.closest(skipped)) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const action = el.dataset.action ? `[${el.dataset.action}]` : "";
    const name = `${el.tagName.toLowerCase()}.${el.className || ""}${action}`;
    const right = Math.round(box.right - width);
    if (box.left < -0.5) out.push(`${name} starts ${Math.round(-box.left)}px left of the screen`);
    if (box.right > width + 0.5) out.push(`${name} ends ${right}px past the screen`);
  }
  return out;
}"""

# The game's title against the clock and the header: whole, not cut, not under the clock.
TITLE_FAULTS = """() => {
  const out = [];
  const title = document.querySelector(".game-head h1");
  const box = (el) => el.getBoundingClientRect();
  const shown = (el) => el.getClientRects().length > 0;
  const across = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5;
  const overlap = (a, b) => across(a, b) && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  if (![...title.querySelectorAll(".title-long, .title-short")].some(shown)) out.push("no title");
  const cut = title.scrollWidth - title.clientWidth;
  if (cut > 1) out.push(`the title is cut by ${cut}px`);
  for (const part of [...title.children].filter(shown)) {
    const b = box(part), t = box(title);
    if (b.left < t.left - 0.5 || b.right > t.right + 0.5) out.push(`${part.className} is cut off`);
    for (const other of [...document.querySelectorAll(".game-meta > *")].filter(shown)) {
      if (overlap(b, box(other))) out.push(`${part.className} runs into ${other.className}`);
    }
  }
  return out;
}"""

IN_VIEW = """([selector, width, height]) => {
  const el = document.querySelector(selector);
  if (!el || !el.getClientRects().length) return false;
  const b = el.getBoundingClientRect();
  return b.top >= -0.5 && b.left >= -0.5 && b.bottom <= height + 0.5 && b.right <= width + 0.5;
}"""


def past_the_edge(page) -> list[str]:
    return page.evaluate(PAST_THE_EDGE, page.viewport_size["width"])


def in_view(page, *selectors: str) -> list[str]:
    """The selectors whose whole box is not on the screen (the device's) as it is now."""
    size = page.viewport_size
    return [s for s in selectors if not page.evaluate(IN_VIEW, [s, size["width"], size["height"]])]


def open_daily(page, difficulty: str) -> None:
    """Start today's daily of a tier from the daily page, as a player does."""
    page.goto(page.base + "/daily/")
    with page.expect_navigation():
        page.locator(f'form[action$="/{difficulty}/"] button').click()
    page.wait_for_selector("[data-game][data-ready]")
    page.wait_for_function("() => document.querySelector('[data-saved]').textContent === 'Saved'")


def screenshots(page, name: str) -> None:
    """The page as it is, light and dark."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{scheme}.png"))
    page.emulate_media(color_scheme="light")


def page_of_size(browser, live_server, size: str):
    """A page of a new context of the size, its errors kept, the day's dailies picked; the
    extreme one's puzzle an extreme (the longest tier's name in the title: the stock's easy
    puzzle stands in for it)."""
    pick_dailies()
    Puzzle.objects.filter(dailies__difficulty="extreme").update(difficulty="extreme")
    return page_sized(browser, live_server, *SIZES[size])


def page_sized(browser, live_server, viewport: dict, device: dict):
    """A page of a new context (a new guest) of the viewport and device, motion reduced, its
    script errors kept in `page.errors`."""
    context = browser.new_context(viewport=viewport, **device, reduced_motion="reduce")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.base = live_server.url
    return page


@pytest.mark.parametrize("size", list(SIZES))
def test_the_game_fits_the_screen(browser, live_server, stock, size):
    page = page_of_size(browser, live_server, size)
    viewport = SIZES[size][0]
    page.goto(page.base + "/")
    assert past_the_edge(page) == [], "home"
    screenshots(page, f"fit-{size}-home")

    open_daily(page, "extreme")  # the longest tier's name beside the date and the clock
    faults = {"at the start": past_the_edge(page) + page.evaluate(TITLE_FAULTS)}
    faults["not in view"] = in_view(page, "[data-board]", ".pad", ".toolbar", "[data-timer]")
    if viewport["width"] > viewport["height"] and viewport["height"] < 600:
        board = page.locator("[data-board]").bounding_box()
        pad = page.locator(".pad").bounding_box()
        if pad["x"] < board["x"] + board["width"]:
            faults["not side by side"] = ["the pad is not beside the board"]
    screenshots(page, f"fit-{size}-game")

    page.locator("[data-cell][data-given]").first.click()
    page.keyboard.press("5")  # a given cannot change: a message says so
    page.wait_for_selector("[data-message]:not(:empty)")
    page.wait_for_timeout(50)  # the page's own scroll, if any, runs in the next frame
    faults["a message"] = in_view(page, "[data-board]", "[data-message]")

    page.locator('[data-cell][data-value="0"]').first.click()
    page.locator('[data-action="hint"]').click()
    for level in (2, 3):
        page.wait_for_selector(f"[data-hint-panel][data-hint-level='{level - 1}']")
        page.locator('[data-action="hint-more"]').click()
    page.wait_for_selector('[data-action="apply-hint"]:not([hidden])')
    page.wait_for_timeout(50)
    faults["a hint"] = past_the_edge(page) + in_view(
        page, "[data-board]", "[data-hint-text]", '[data-action="apply-hint"]'
    )
    screenshots(page, f"fit-{size}-hint")
    close(page.context, page)
    assert not any(faults.values()), faults


# The saving line's words as the screen shows them: its few words when it has them (drawn
# after it), else its text.
SAVING_SHOWN = """() => {
  const saved = document.querySelector("[data-saved]");
  const after = getComputedStyle(saved, "::after").content;
  return after && after !== "none" && after !== "normal" ? JSON.parse(after) : saved.textContent;
}"""
CLOCK_BOX = """() => {
  const b = document.querySelector("[data-timer]").getBoundingClientRect();
  return [Math.round(b.left * 2) / 2, Math.round(b.right * 2) / 2, Math.round(b.top * 2) / 2];
}"""


def wait_clock(page, pattern: str) -> None:
    page.wait_for_function(
        "(p) => new RegExp(p).test(document.querySelector('[data-timer]').textContent)", arg=pattern
    )


def wait_words(page, start: str) -> str:
    """Once the saving line's whole words begin with `start`: the words the screen shows."""
    page.wait_for_function(
        f"() => document.querySelector('[data-saved]').textContent.startsWith({start!r})"
    )
    return page.evaluate(SAVING_SHOWN)


@pytest.mark.parametrize("size", ["phone-small", "phone"])
def test_the_saving_line_says_words_and_the_clock_stays_put(
    browser, live_server, stock, size, settings
):
    settings.SEND_EVERY_MS = 1500  # changes kept here a moment before they go (the cadence)
    page = page_of_size(browser, live_server, size)
    open_daily(page, "extreme")
    game = Game.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
    Game.objects.filter(pk=game.pk).update(active_seconds=596)  # ten minutes in a moment
    page.reload()
    page.wait_for_selector("[data-game][data-ready]")
    wait_clock(page, "^9:5\\d$")
    boxes = {"saved": page.evaluate(CLOCK_BOX)}
    faults = {"saved": page.evaluate(TITLE_FAULTS)}

    held = []  # the changes' requests held, unanswered: the changes wait
    page.route("**/changes", lambda route: held.append(route))
    blanks = page.locator('[data-cell][data-value="0"]')
    for cell in (blanks.nth(0), blanks.nth(1)):
        cell.tap()
        page.locator('[data-digit="4"]').tap()
    words = {"kept": wait_words(page, "2 changes kept on this device")}
    boxes["kept"] = page.evaluate(CLOCK_BOX)
    faults["kept"] = page.evaluate(TITLE_FAULTS) + past_the_edge(page)
    screenshots(page, f"fit-{size}-kept")
    words["saving"] = wait_words(page, "Saving")
    boxes["saving"] = page.evaluate(CLOCK_BOX)
    faults["saving"] = page.evaluate(TITLE_FAULTS) + past_the_edge(page)

    go_offline(page.context)
    words["offline"] = wait_words(page, "Offline")
    boxes["offline"] = page.evaluate(CLOCK_BOX)
    faults["offline"] = page.evaluate(TITLE_FAULTS) + past_the_edge(page)
    screenshots(page, f"fit-{size}-offline")
    go_online(page.context)
    page.unroute("**/changes")  # the requests held go on
    page.wait_for_function("() => document.querySelector('[data-saved]').textContent === 'Saved'")

    wait_clock(page, "^10:0\\d$")
    boxes["ten minutes"] = page.evaluate(CLOCK_BOX)
    faults["ten minutes"] = page.evaluate(TITLE_FAULTS)
    close(page.context, page)
    if words["kept"] not in ("2 changes kept on this device", "Kept · 2"):
        faults["kept"].append(f"the saving line says {words['kept']!r}")
    if not (words["saving"].startswith("Saving") and "2" in words["saving"]):
        faults["saving"].append(f"the saving line says {words['saving']!r}")
    if not (words["offline"].startswith("Offline") and "2" in words["offline"]):
        faults["offline"].append(f"the saving line says {words['offline']!r}")
    if len(set(map(tuple, boxes.values()))) > 1:
        faults["the clock moves"] = [boxes]
    assert not any(faults.values()), faults
