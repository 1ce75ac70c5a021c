"""A game in German, Japanese and Arabic on a phone (390x844), in Chromium: the page in the
language, a hint opened to its third level told in it, no English message of the
catalogs left on the page, Arabic right to left with the board left to right; the switcher
keeps the player on the game in the language chosen. Screenshots land in
var/screenshots/."""

from __future__ import annotations

import pytest

from puzzles.models import Game

from ..web.site.test_translated_pages import english_pieces
from .board_helpers import close
from .helpers import SCREENSHOTS, go_offline, slow_network, solution_of
from .test_fit import SIZES, page_sized, past_the_edge
from .test_offline import LATENCY_MS, TAP_THEN_FRAME, closed_offline_and_opened_again

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def new_game_in(page, code: str) -> Game:
    page.goto(f"{page.base}/{code}/")
    page.click("[data-new-game=easy]")
    page.wait_for_selector("[data-game][data-ready]")
    assert f"/{code}/games/" in page.url
    return Game.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))


def english_left(code: str, text: str) -> list[str]:
    return sorted({m.group(0) for p in english_pieces(code) for m in [p.search(text)] if m})


@pytest.mark.parametrize("code", ["de", "ja", "ar"])
def test_a_game_with_a_hint_open_in_the_players_language(browser, live_server, stock, code):
    page = page_sized(browser, live_server, *SIZES["phone"])
    page.goto(f"{page.base}/{code}/")
    assert past_the_edge(page) == [], "home"
    new_game_in(page, code)
    assert page.get_attribute("html", "lang") == code
    page.click("[data-action=hint]")
    page.wait_for_selector("[data-hint-panel]:not([hidden])")
    said = [page.inner_text("[data-hint-text]")]
    for _ in range(2):
        page.click("[data-action=hint-more]")
        page.wait_for_function(
            "before => document.querySelector('[data-hint-text]').innerText !== before",
            arg=said[-1],
        )
        said.append(page.inner_text("[data-hint-text]"))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"language-{code}-hint.png"))
    assert all(said), said
    assert past_the_edge(page) == [], "a hint open"
    body = page.inner_text("body")
    assert english_left(code, body) == [], body
    board = page.locator("[data-board]")
    assert board.get_attribute("dir") == "ltr"
    first = page.locator('[data-cell="0"]').bounding_box()
    last = page.locator('[data-cell="8"]').bounding_box()
    assert first["x"] < last["x"]  # the board reads left to right in every language
    direction = page.evaluate("getComputedStyle(document.body).direction")
    assert direction == ("rtl" if code == "ar" else "ltr")
    close(page.context, page)


def test_the_switcher_keeps_the_player_on_their_game(browser, live_server, stock):
    page = page_sized(browser, live_server, *SIZES["phone"])
    game = new_game_in(page, "de")
    page.click('[data-languages] button[value="ja"]')
    page.wait_for_url(f"**/ja/games/{game.pk}/")
    page.wait_for_selector("[data-game][data-ready]")
    assert page.get_attribute("html", "lang") == "ja"
    page.goto(f"{page.base}/")  # no prefix: the choice is kept
    page.wait_for_url("**/ja/")
    close(page.context, page)


@pytest.mark.service_worker
def test_a_tap_shows_at_once_on_a_slow_network_in_another_language(browser, live_server, stock):
    page = page_sized(browser, live_server, *SIZES["phone"])
    game = new_game_in(page, "de")
    slow_network(page, LATENCY_MS)
    blank = next(i for i, ch in enumerate(game.puzzle.givens) if ch == "0")
    shown = page.evaluate(TAP_THEN_FRAME, [blank, 4, False])
    assert shown["value"] == "4"  # drawn before the server answered
    assert "Gespeichert" not in shown["saved"]
    page.wait_for_function(
        "() => document.querySelector('[data-saved]').textContent.includes('Gespeichert')"
    )
    game.refresh_from_db()
    assert game.values[blank] == "4"
    close(page.context, page)


@pytest.mark.service_worker
def test_moves_made_offline_in_another_language_reach_the_server(browser, live_server, stock):
    page = page_sized(browser, live_server, *SIZES["phone"])
    game = new_game_in(page, "ja")
    context = page.context
    solution = solution_of(game)
    cells = [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"][:5]
    go_offline(context)
    for index in cells:
        page.locator(f'[data-cell="{index}"]').click()
        page.keyboard.press(solution[index])
    url = f"{live_server.url}/ja/games/{game.pk}/"
    again = closed_offline_and_opened_again(page, game, live_server, url)
    again.wait_for_function(
        "() => document.querySelector('[data-saved]').textContent.includes('保存済み')"
    )
    game.refresh_from_db()
    assert all(game.values[i] == solution[i] for i in cells)
    context.close()
