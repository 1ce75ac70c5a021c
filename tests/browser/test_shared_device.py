"""One browser, several players: what the site keeps on the device (the service worker's
pages and game states, the game records in the browser's storage) belongs to one player at
a time. When another account logs in over the last one, or the last one's session ends on
another device, nothing of the last player's is shown, online or offline, and nothing is
left in the browser's storage; changes not yet sent go out first where the session still
allows it."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Page, expect

from puzzles.models import Game, Move

from .helpers import go_offline, go_online, log_in, open_new_game, wait_game_kept

pytestmark = [
    pytest.mark.browser,
    pytest.mark.service_worker,
    pytest.mark.django_db(transaction=True),
]

ALICE = ("alice", "wonderland-42")
BOB = ("bob", "builder-of-things-7")

# Everything the site keeps in the browser: its storage, and every response every cache of
# the service worker holds (path and body).
KEPT = """async () => {
    const storage = Object.keys(localStorage).map((key) => [key, localStorage.getItem(key)]);
    const cached = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            const response = await cache.match(request);
            cached.push([new URL(request.url).pathname, await response.text()]);
        }
    }
    return {storage, cached};
}"""


@pytest.fixture
def players(alice, bob) -> None:
    """alice and bob have accounts."""


def wait_controlled(page: Page) -> None:
    """The site's service worker controls the page (registered anew if it was dropped)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100)


def blank_cell(game: Game) -> int:
    return game.puzzle.givens.index("0")


def play_offline_and_close(page: Page, game: Game, digit: str) -> tuple[Page, int]:
    """A digit typed with no network, the tab then closed: the change waits in the
    browser's storage. A new tab of the same browser, back online, and the cell."""
    index = blank_cell(game)
    go_offline(page.context)
    page.locator(f'[data-cell="{index}"]').click()
    page.keyboard.press(digit)
    page.wait_for_function(
        "() => document.querySelector('[data-saved]').textContent.startsWith('Offline: 1 change')"
    )
    page.close()
    again = page.context.new_page()
    again.base = page.base
    # What the closed tab sends on its way out (a pause, its changes once more) fails
    # offline; with the network back at once it could still go out.
    again.wait_for_timeout(1000)
    go_online(page.context)
    return again, index


def assert_nothing_of(page: Page, name: str, game: Game) -> None:
    """Neither the player's game nor their name anywhere the browser keeps for the site,
    and the offline page lists no game of theirs."""
    page.goto(page.base + "/offline/")
    expect(page.locator("[data-kept-games] a")).to_have_count(0)
    kept = page.evaluate(KEPT)
    for key, value in kept["storage"]:
        assert key != f"sudoku.game.{game.pk}", key
        assert f"/games/{game.pk}/" not in value and game.puzzle.givens not in value, key
    for path, body in kept["cached"]:
        assert path not in (f"/games/{game.pk}/", f"/api/games/{game.pk}"), path
        assert game.puzzle.givens not in body and f">{name}<" not in body, path


def assert_not_shown_offline(page: Page, name: str, game: Game) -> None:
    """With no network, the game's page shows neither its board nor the player's name,
    and the offline page lists none of the player's games."""
    go_offline(page.context)
    try:
        page.goto(f"{page.base}/games/{game.pk}/")
        assert page.locator("[data-game]").count() == 0
        assert page.locator(".who").count() == 0 or name not in page.locator(".who").inner_text()
        assert game.puzzle.givens not in page.content()
        page.goto(page.base + "/offline/")
        expect(page.locator("[data-kept-games] a")).to_have_count(0)
    finally:
        go_online(page.context)


def alice_with_a_game_kept(page: Page) -> Game:
    """alice logged in, a game of hers opened and kept by the service worker for offline."""
    log_in(page, *ALICE)
    game = open_new_game(page)
    wait_game_kept(page)
    return game


def test_logging_in_as_bob_over_alice_leaves_nothing_of_hers(page, stock, players):
    game = alice_with_a_game_kept(page)
    log_in(page, *BOB)  # no log-out first
    expect(page.locator(".who")).to_have_text("bob")
    wait_controlled(page)
    assert_nothing_of(page, "alice", game)
    assert_not_shown_offline(page, "alice", game)
    # Online, her game's page is not found for bob.
    page.goto(f"{page.base}/games/{game.pk}/")
    assert page.locator("[data-game]").count() == 0
    expect(page.locator(".who")).to_have_text("bob")


def test_back_after_bob_logs_in_over_alice_does_not_show_her_game(page, stock, players):
    game = alice_with_a_game_kept(page)
    log_in(page, *BOB)
    wait_controlled(page)
    page.go_back()  # the log-in page
    page.go_back()  # her game, as the browser's history has it
    expect(page.locator(f'[data-game="{game.pk}"]')).to_have_count(0)
    expect(page.locator(".who")).to_have_text("bob")


# The navigation reported as one through the browser's history (Back or Forward).
FROM_HISTORY = """(() => {
    const entries = performance.getEntriesByType.bind(performance);
    performance.getEntriesByType = (type) => type === "navigation"
        ? entries(type).map((entry) => ({name: entry.name, type: "back_forward"}))
        : entries(type);
})()"""


def test_an_old_copy_of_alice_s_page_from_the_history_is_asked_for_again(page, stock, players):
    """A browser may bring a page back from its cache with Back, as it was: once bob's page
    has loaded, alice's old copy is not left on screen, and bob's records stay his."""
    game = alice_with_a_game_kept(page)
    copy = page.evaluate("() => fetch(location.href).then((r) => r.text())")
    log_in(page, *BOB)
    bobs = page.evaluate("() => document.documentElement.dataset.owner")
    page.context.add_init_script(FROM_HISTORY)
    page.context.route(
        f"**/games/{game.pk}/",
        lambda route: route.fulfill(body=copy, content_type="text/html"),
        times=1,
    )
    page.goto(f"{page.base}/games/{game.pk}/")
    expect(page.locator(".who")).to_have_text("bob")
    expect(page.locator(f'[data-game="{game.pk}"]')).to_have_count(0)
    owner = page.evaluate("() => JSON.parse(localStorage.getItem('sudoku.owner')).mark")
    assert owner == bobs


def test_bob_s_session_put_over_alice_s_without_a_log_in_answer_leaves_nothing_of_hers(
    page, stock, players, bob
):
    """A browser that ignores Clear-Site-Data (or a session cookie changed behind the
    site's back): the pages themselves and the service worker find the new owner."""
    game = alice_with_a_game_kept(page)
    client = Client()
    client.force_login(bob)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": page.base}]
    )
    page.goto(page.base + "/")
    expect(page.locator(".who")).to_have_text("bob")
    assert_nothing_of(page, "alice", game)
    assert_not_shown_offline(page, "alice", game)


def test_alice_s_session_ended_by_a_password_change_elsewhere_leaves_nothing_of_hers(
    page, browser, stock, players
):
    game = alice_with_a_game_kept(page)
    page, index = play_offline_and_close(page, game, "5")  # a change waits, unsent
    elsewhere = browser.new_context().new_page()
    elsewhere.base = page.base
    log_in(elsewhere, *ALICE)
    elsewhere.goto(page.base + "/accounts/password_change/")
    elsewhere.fill('input[name="old_password"]', ALICE[1])
    elsewhere.fill('input[name="new_password1"]', "a new password for alice")
    elsewhere.fill('input[name="new_password2"]', "a new password for alice")
    elsewhere.press('input[name="new_password2"]', "Enter")
    elsewhere.wait_for_url("**/password_change/done/")
    changed_at = timezone.now()
    elsewhere.context.close()
    # Back on this device, online: her game's page is not found, and nothing is left.
    page.goto(f"{page.base}/games/{game.pk}/")
    assert page.locator("[data-game]").count() == 0
    assert page.locator(".who").count() == 0
    wait_controlled(page)
    assert_nothing_of(page, "alice", game)
    assert_not_shown_offline(page, "alice", game)
    # The change she left unsent was dropped with the rest: nothing sent it on since. (The
    # closed tab's own last try may have gone out before the password changed, as hers.)
    assert not Move.objects.filter(game=game, cell=index, created_at__gt=changed_at).exists()


def test_changes_alice_left_unsent_reach_the_server_before_bob_logs_in(page, stock, players):
    game = alice_with_a_game_kept(page)
    page, index = play_offline_and_close(page, game, "7")
    log_in(page, *BOB)
    expect(page.locator(".who")).to_have_text("bob")
    game.refresh_from_db()
    assert game.values[index] == "7" and game.user.username == "alice"
    assert_nothing_of(page, "alice", game)


def test_a_guest_s_changes_left_unsent_come_with_them_when_they_log_in(page, stock, players):
    game = open_new_game(page)
    wait_game_kept(page)
    page, index = play_offline_and_close(page, game, "3")
    log_in(page, *ALICE)
    expect(page.locator(".who")).to_have_text("alice")
    game.refresh_from_db()
    assert game.values[index] == "3" and game.user.username == "alice"


def test_a_game_kept_offline_is_not_shown_once_its_session_has_run_out(page, stock, players):
    game = alice_with_a_game_kept(page)
    soon = timezone.now() + datetime.timedelta(seconds=3)
    Session.objects.update(expire_date=soon)
    page.reload()  # the page and the worker learn when the session runs out
    page.wait_for_selector("[data-game][data-ready]")
    wait_game_kept(page)
    page.wait_for_timeout(max(0, (soon - timezone.now()).total_seconds()) * 1000 + 500)
    assert_not_shown_offline(page, "alice", game)
