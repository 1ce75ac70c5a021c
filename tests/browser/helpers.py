"""Helpers of the browser tests: opening a game, waiting for the server to have it, logging
in through the form, the stocked dailies, and where screenshots land."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import BrowserContext, Page, Route

from puzzles.models import Game, Puzzle

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


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


def log_in(page: Page, username: str, password: str) -> None:
    """Log in through the form, whoever the browser was logged in as, and wait for the page
    the form leads to."""
    page.goto(page.base + "/accounts/login/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', password)
    page.press('input[name="password"]', "Enter")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.wait_for_load_state()


def set_visibility(page: Page, state: str) -> None:
    """The page told it is now `state` ("hidden" or "visible"), as on a switch of tabs."""
    page.evaluate(
        """state => {
            Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        state,
    )


def _cut(route: Route) -> None:
    route.abort("internetdisconnected")


def go_offline(context: BrowserContext) -> None:
    """The device offline: the context's network emulation, and every request of its pages
    and service worker refused by a route as well. (A service worker started again for a
    navigation can send its first fetch before Chromium's offline emulation reaches it;
    the route holds from the first.)"""
    context.set_offline(True)
    context.route("**/*", _cut)


def go_online(context: BrowserContext) -> None:
    context.unroute("**/*", _cut)
    context.set_offline(False)


def slow_network(page: Page, latency_ms: int) -> None:
    """Every request of the page's context, pages' and service worker's alike, answered
    `latency_ms` late (counted on a second page, kept behind the one played)."""
    context = page.context
    waiter = context.new_page()
    page.bring_to_front()

    def late(route) -> None:
        try:
            waiter.wait_for_timeout(latency_ms)
            route.continue_()
        except Exception:  # the context closed meanwhile
            pass

    context.route("**/*", late)


def wait_game_kept(page: Page) -> None:
    """The service worker controls the game page and keeps it and every file it loaded,
    so that it opens with no network."""
    page.wait_for_function(
        """async () => {
            if (!navigator.serviceWorker.controller) return false;
            const files = performance.getEntriesByType("resource")
                .map((entry) => new URL(entry.name))
                .filter((url) => url.origin === location.origin)
                .filter((url) => url.pathname.startsWith("/static/"))
                .map((url) => url.pathname);
            for (const path of [location.pathname, ...files]) {
                if (!(await caches.match(path))) return false;
            }
            return files.some((path) => path.includes("dist/game"));
        }""",
        polling=200,
    )
