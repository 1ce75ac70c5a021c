"""What the board tests share: phone and desktop contexts in either theme, colours and
contrast read from computed styles, and geometry against the viewport."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
DEVICES = {"phone": PHONE, "desktop": DESKTOP}
SHOTS = Path("/tmp/board-shots")


def open_context(browser, live_server, device: str, scheme: str, motion: str = "reduce"):
    """A new guest on a phone (390x844, touch) or a desktop, in a colour scheme; the page
    fails the test on any script error (checked by `close`)."""
    context = browser.new_context(**DEVICES[device], color_scheme=scheme, reduced_motion=motion)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on(
        "console",
        lambda m: (
            page.errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.base = live_server.url
    return context, page


def close(context, page: Page) -> None:
    errors = list(page.errors)
    context.close()
    assert not errors, errors


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def rgb(css: str) -> tuple[float, float, float]:
    """An rgb()/rgba() computed colour as three 0-255 numbers (alpha ignored: the page's
    highlight colours are opaque)."""
    found = re.findall(r"[\d.]+", css)
    assert len(found) >= 3, css
    return tuple(float(x) for x in found[:3])


def luminance(colour: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = luminance(rgb(a)), luminance(rgb(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def style(page: Page, selector: str, prop: str, pseudo: str | None = None) -> str:
    return page.evaluate(
        "([s, p, pseudo]) => getComputedStyle(document.querySelector(s), pseudo)[p]",
        [selector, prop, pseudo],
    )


def inside(page: Page, selector: str) -> bool:
    """The element's whole box is inside the viewport."""
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    size = page.viewport_size
    return (
        box["x"] >= -0.5
        and box["y"] >= -0.5
        and box["x"] + box["width"] <= size["width"] + 0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
    )


def blanks_of(givens: str) -> list[int]:
    return [i for i, ch in enumerate(givens) if ch == "0"]
