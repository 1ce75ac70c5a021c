"""The game on a phone (390x844, touch): the input switch and its setting, the selection, the
hint sheet beside the pad with the board in view at every level, the header on one line in
every state, and the end that never covers the board. Screenshots of a hint open, light and
dark, go to var/screenshots/ with the other pages'."""

from __future__ import annotations

import pytest
from django.db.models import F

from puzzles.models import Game, Puzzle

from .board_helpers import blanks_of, close, inside, open_context
from .helpers import SCREENSHOTS, open_new_game, solution_of, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# Every element in the game's header, measured against the header's box and its own.
OVERFLOWING = """() => {
  const head = document.querySelector(".game-head").getBoundingClientRect();
  const out = [];
  for (const el of document.querySelectorAll(".game-head *")) {
    if (!el.getClientRects().length || el.closest(".visually-hidden")) continue;
    if (el instanceof SVGElement && !(el instanceof SVGSVGElement)) continue; // an icon's strokes
    const box = el.getBoundingClientRect();
    if (!box.width) continue;
    const name = el.className || el.tagName;
    const inline = getComputedStyle(el).display === "inline";
    if (box.left < head.left - 0.5 || box.right > head.right + 0.5) out.push(`${name} leaves`);
    if (el.scrollWidth > el.clientWidth + 1 && !inline) out.push(`${name} clips its text`);
    if (box.top > head.top + head.height / 2) out.push(`${name} on a second line`);
  }
  return out;
}"""


def phone(browser, live_server, scheme: str = "light"):
    context, page = open_context(browser, live_server, "phone", scheme)
    return context, page


def tap(page, selector: str) -> None:
    page.locator(selector).first.tap()


def top_row_uncovered(page) -> bool:
    """The board's first row is below the sticky header and on the screen."""
    return page.evaluate(
        """() => {
          const header = document.querySelector(".site-header").getBoundingClientRect();
          const row = document.querySelector('[data-cell="0"]').getBoundingClientRect();
          return row.top >= header.bottom - 0.5 && row.bottom <= window.innerHeight;
        }"""
    )


def solve(page, game: Game) -> None:
    """Each empty cell its digit, tapped then filled."""
    solution = solution_of(game)
    for index in blanks_of(game.puzzle.givens):
        tap(page, f'[data-cell="{index}"]')
        tap(page, f'[data-digit="{solution[index]}"]')
    page.wait_for_selector('[data-status="solved"]')


def test_the_input_switch_is_visible_remembered_and_places_digit_first(browser, live_server, stock):
    context, page = phone(browser, live_server)
    game = open_new_game(page)
    switch = page.locator('[data-action="input-mode"]')
    assert switch.is_visible() and inside(page, '[data-action="input-mode"]')
    assert switch.get_attribute("aria-checked") == "false"
    tap(page, '[data-action="input-mode"]')
    assert switch.get_attribute("aria-checked") == "true"
    blanks = blanks_of(game.puzzle.givens)
    first, second = blanks[0], blanks[1]
    tap(page, f'[data-cell="{first}"]')
    tap(page, '[data-digit="5"]')  # digit first: the digit is chosen, not put in the cell
    assert page.get_attribute('[data-digit="5"]', "aria-pressed") == "true"
    assert page.get_attribute(f'[data-cell="{first}"]', "data-value") == "0"
    tap(page, f'[data-cell="{second}"]')
    assert page.get_attribute(f'[data-cell="{second}"]', "data-value") == "5"
    wait_saved(page)
    page.reload()
    page.wait_for_selector("[data-game][data-ready]")
    assert switch.get_attribute("aria-checked") == "true"  # kept as a setting
    tap(page, '[data-action="input-mode"]')
    page.wait_for_function(
        "() => document.querySelector('[data-action=\"input-mode\"]')"
        ".getAttribute('aria-checked') === 'false'"
    )
    close(context, page)


def test_a_tap_on_the_selected_cell_keeps_it_and_off_the_board_deselects(
    browser, live_server, stock
):
    context, page = phone(browser, live_server)
    game = open_new_game(page)
    cell = blanks_of(game.puzzle.givens)[3]
    selected = page.locator(".cell.selected")
    tap(page, f'[data-cell="{cell}"]')
    assert selected.count() == 1
    tap(page, f'[data-cell="{cell}"]')
    assert selected.count() == 1
    page.locator(".game-head .title-short").tap()  # off the board and the pad, not a link
    assert selected.count() == 0
    close(context, page)


def test_help_is_reachable_on_a_phone(browser, live_server, stock):
    context, page = phone(browser, live_server)
    open_new_game(page)
    assert inside(page, '[data-action="help"]')
    tap(page, '[data-action="help"]')
    page.wait_for_selector("dialog[data-help][open]")
    assert "Digit first" in page.locator("dialog[data-help]").inner_text()
    assert inside(page, "[data-help-close]")
    tap(page, "[data-help-close]")
    page.wait_for_selector("dialog[data-help]:not([open])", state="attached")
    close(context, page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_board_hint_and_pad_are_in_view_together_at_every_level(
    browser, live_server, stock, scheme
):
    context, page = phone(browser, live_server, scheme)
    open_new_game(page)
    tap(page, '[data-action="hint"]')
    for level in (1, 2, 3):
        page.wait_for_selector(f"[data-hint-panel][data-hint-level='{level}']")
        page.wait_for_timeout(50)  # the scroll that keeps them in view runs in the next frame
        for part in ("[data-board]", "[data-hint-panel]", ".pad"):
            assert inside(page, part), f"{part} is not in view at level {level}"
        assert top_row_uncovered(page), f"the board's top row is hidden at level {level}"
        if level == 2:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"game-phone-hint-{scheme}.png"))
        if level < 3:
            tap(page, '[data-action="hint-more"]')
    assert page.locator('[data-action="apply-hint"]').is_visible()
    assert inside(page, '[data-action="apply-hint"]')
    close(context, page)


def test_the_header_stays_on_one_line_in_every_state(browser, live_server, stock):
    from .test_accessibility import pick_dailies

    # A site that has served a while: puzzle numbers of six digits.
    Puzzle.objects.update(id=F("id") + 100_000)
    pick_dailies()  # three easy puzzles and a medium one; the fourth easy is for the game
    context, page = phone(browser, live_server)
    game = open_new_game(page)
    states = {}
    states["playing"] = page.evaluate(OVERFLOWING)
    tap(page, '[data-action="pause"]')
    page.wait_for_selector("[data-pause-cover]:not([hidden])")
    states["paused"] = page.evaluate(OVERFLOWING)
    tap(page, '[data-action="resume"]')
    # Mistakes marked: the counter joins the header.
    page.goto(page.base + "/settings/")
    page.check('input[name="mark_mistakes"]')
    with page.expect_navigation():
        page.locator("form.form-card button[type=submit]").tap()
    page.wait_for_selector(".messages")  # "Settings saved."
    page.goto(page.base + f"/games/{game.pk}/")
    page.wait_for_selector("[data-game][data-ready]")
    solution = solution_of(game)
    blank = blanks_of(game.puzzle.givens)[0]
    wrong = next(d for d in "123456789" if d != solution[blank])
    tap(page, f'[data-cell="{blank}"]')
    tap(page, f'[data-digit="{wrong}"]')
    wait_saved(page)
    page.wait_for_selector(".game-meta .counter:has([data-mistakes]):not([hidden])")
    states["mistakes marked"] = page.evaluate(OVERFLOWING)
    # Changes waiting to be saved: the saving line's words grow, the title keeps its room.
    held = []  # the changes' requests held, unanswered: the change waits, "Saving" stays
    page.route("**/changes", lambda route: held.append(route))
    other = blanks_of(game.puzzle.givens)[1]
    tap(page, f'[data-cell="{other}"]')
    tap(page, f'[data-digit="{solution[other]}"]')
    page.wait_for_function(
        "() => document.querySelector('[data-saved]').textContent.startsWith('Saving')"
    )
    states["changes waiting"] = page.evaluate(OVERFLOWING)
    page.unroute("**/changes")
    wait_saved(page)
    tap(page, '[data-action="erase"]')  # the solve below fills it again
    wait_saved(page)
    solve(page, game)
    states["solved"] = page.evaluate(OVERFLOWING)
    # A daily: its date in the header.
    page.goto(page.base + "/daily/")
    page.locator('form[action*="/daily/"] button').first.tap()
    page.wait_for_selector("[data-game][data-ready]")
    states["daily"] = page.evaluate(OVERFLOWING)
    assert all(not faults for faults in states.values()), states
    close(context, page)


def test_the_end_panel_never_covers_the_board(browser, live_server, stock):
    context, page = phone(browser, live_server)
    game = open_new_game(page)
    solve(page, game)
    page.wait_for_selector("[data-finished]:not([hidden])")
    page.wait_for_timeout(50)  # the end's scroll runs in the next frame
    assert top_row_uncovered(page)
    assert page.locator("[data-finished-title]").bounding_box()["y"] < 844
    game.refresh_from_db()
    assert game.status == Game.Status.SOLVED
    close(context, page)


NEWSPAPER = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"


def test_a_puzzle_of_ones_own_is_typed_on_a_grid_by_taps_and_keys(
    browser, live_server, transactional_db
):
    context, page = phone(browser, live_server)
    page.goto(page.base + "/play/custom/")
    page.wait_for_selector("[data-entry-grid]:not([hidden])")
    for index, digit in enumerate(NEWSPAPER[:45]):  # the first five rows by taps
        if digit != "0":
            page.locator("[data-entry-cell]").nth(index).tap()
            tap(page, f'[data-entry-digit="{digit}"]')
    page.locator("[data-entry-cell]").nth(45).tap()
    for digit in NEWSPAPER[45:]:  # the rest by keys: 0 leaves a blank and moves on
        page.keyboard.press(digit if digit != "0" else "ArrowRight")
    typed = page.locator("#puzzle").input_value().replace("\n", "").replace(".", "0")
    assert typed == NEWSPAPER
    assert page.locator("[data-entry-cell]").nth(1).inner_text() == "3"
    with page.expect_navigation():
        tap(page, '[data-action="play-custom"]')
    page.wait_for_selector("[data-game][data-ready]")
    game = Game.objects.select_related("puzzle").get(pk=int(page.url.rstrip("/").split("/")[-1]))
    assert game.puzzle.givens == NEWSPAPER
    close(context, page)
