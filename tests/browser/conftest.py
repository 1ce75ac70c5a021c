"""A real Chromium (Debian's) driven by Playwright against the live test server."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

import engine
from puzzles.accounts import limits
from puzzles.models import Game, Puzzle
from puzzles.pools.stock import insert_new, puzzle_row

# Playwright's sync API keeps an event loop open in this thread for the rest of the
# session; the tests' database calls are ordinary blocking ones, which Django would
# otherwise refuse there. (Child processes that run deploy checks drop it again.)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => console.error(
  `Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI}` +
  ` at ${e.sourceFile}:${e.lineNumber}`
));
"""
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Every test starts with no attempts counted: all its pages come from one address."""
    limits.clear_all()
    yield
    limits.clear_all()


@pytest.fixture(scope="session")
def browser() -> Browser:
    assert CHROMIUM.exists(), "Chromium is missing: `make test` installs Debian's chromium package"
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def _no_csp_violations(request, monkeypatch) -> None:
    """Every browser test fails on a Content-Security-Policy violation in any page it
    opens: Chromium reports each in the console, and the page's securitypolicyviolation
    event is written there too."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    violations: list[str] = []
    new_context = browser.new_context

    def watched(**options) -> BrowserContext:
        context = new_context(**options)
        context.add_init_script(CSP_LISTENER)
        context.on(
            "console",
            lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
        )
        return context

    monkeypatch.setattr(browser, "new_context", watched)
    yield
    assert not violations, violations


@pytest.fixture
def page(browser: Browser, live_server) -> Page:
    """A fresh browser context (a new guest), failing the test on any script error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Script errors fail the test; a 4xx the page handles (a 409, say) only logs
    # "Failed to load resource", which the tests judge by what the page shows.
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.base = live_server.url
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def stock(transactional_db) -> None:
    rng = random.Random(7)
    insert_new([puzzle_row(engine.make_puzzle(d, seed=rng)) for d in ["easy"] * 6 + ["medium"] * 2])


def daily_picks() -> dict[str, Puzzle]:
    """A stocked puzzle for every tier's daily (easy ones stand in for the harder tiers),
    so that no page has to make or wait for one. Leaves easy[3] and medium[1] alone."""
    easy = list(Puzzle.objects.filter(difficulty="easy").order_by("pk"))
    medium = Puzzle.objects.filter(difficulty="medium").order_by("pk").first()
    return {
        "easy": easy[0],
        "medium": medium,
        "hard": easy[1],
        "expert": easy[2],
        "master": easy[4],
        "extreme": easy[5],
    }


def open_new_game(page: Page, difficulty: str = "easy") -> Game:
    page.goto(page.base + "/")
    page.click(f"[data-new-game={difficulty}]")
    page.wait_for_selector("[data-game][data-ready]")  # the page script is up
    game_id = int(page.url.rstrip("/").split("/")[-1])
    page.wait_for_function("() => document.querySelector('[data-saved]').textContent === 'Saved'")
    return Game.objects.select_related("puzzle").get(pk=game_id)


def wait_saved(page: Page) -> None:
    page.wait_for_function("() => document.querySelector('[data-saved]').textContent === 'Saved'")


def solution_of(game: Game) -> str:
    return Puzzle.objects.get(pk=game.puzzle_id).solution
