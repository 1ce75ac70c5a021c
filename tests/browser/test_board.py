"""The board that teaches (issue 11), as a player sees it on a phone (390x844, touch) and a
desktop, in the light and the dark theme: highlights strong enough to see, hints and the
walkthrough beside the board, in-page confirmations, pause that toggles, the end of a game.
Screenshots go to /tmp/board-shots/."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from puzzles.models import DailyPuzzle, Game, Puzzle
from puzzles.pools.daily import today

from .board_helpers import (
    blanks_of,
    close,
    contrast,
    inside,
    open_context,
    shot,
    style,
)
from .helpers import daily_picks, open_new_game, solution_of, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOTH = pytest.mark.parametrize("scheme", ["light", "dark"])
DEVICE = pytest.mark.parametrize("device", ["phone", "desktop"])
PLAIN = ".cell:not(.peer):not(.selected):not(.same):not([data-hint]):not(.wrong)"


def tap(page, selector: str) -> None:
    """A tap on a touch screen, a click elsewhere."""
    if page.context_is_touch:
        page.locator(selector).first.tap()
    else:
        page.locator(selector).first.click()


def start(browser, live_server, device, scheme, motion="reduce"):
    context, page = open_context(browser, live_server, device, scheme, motion)
    page.context_is_touch = device == "phone"
    game = open_new_game(page)
    return context, page, game


@DEVICE
@BOTH
def test_highlights_and_notes_are_strong_enough_to_see(browser, live_server, stock, device, scheme):
    context, page, game = start(browser, live_server, device, scheme)
    givens = game.puzzle.givens
    blanks = blanks_of(givens)
    # A note of the digit of some given, and the given selected: the note lights up.
    given = next(i for i, ch in enumerate(givens) if ch != "0")
    digit = givens[given]
    noted = blanks[-1]
    tap(page, f'[data-cell="{noted}"]')
    tap(page, '[data-action="notes"]')
    tap(page, f'[data-digit="{digit}"]')
    tap(page, '[data-action="notes"]')
    wait_saved(page)
    assert page.get_attribute(f'[data-cell="{noted}"]', "data-notes") == digit

    tap(page, f'[data-cell="{given}"]')
    plain = style(page, PLAIN, "backgroundColor")
    selected = style(page, ".cell.selected", "backgroundColor")
    peer = style(page, ".cell.peer", "backgroundColor")
    assert contrast(selected, plain) >= 1.25, (selected, plain)
    assert contrast(peer, plain) >= 1.25, (peer, plain)
    if page.locator(".cell.same").count():
        same = style(page, ".cell.same", "backgroundColor")
        assert contrast(same, plain) >= 1.25 and contrast(same, peer) >= 1.15, (same, peer)
    # The note holding the selected digit stands out; every note is big enough and readable.
    match = f'[data-cell="{noted}"] [data-note="{digit}"]'
    assert "match" in page.get_attribute(match, "class")
    cell_bg = style(page, f'[data-cell="{noted}"]', "backgroundColor")
    assert contrast(style(page, match, "backgroundColor"), cell_bg) >= 1.25
    assert contrast(style(page, match, "color"), style(page, match, "backgroundColor")) >= 4.5
    size = float(style(page, match, "fontSize").rstrip("px"))
    assert size >= 10, size
    tap(page, f'[data-cell="{noted}"]')  # the note, not highlighted, on its own cell
    note_bg = style(page, f'[data-cell="{noted}"]', "backgroundColor")
    assert contrast(style(page, match, "color"), note_bg) >= 4.5
    shot(page, f"highlights-{device}-{scheme}")
    close(context, page)


@DEVICE
@BOTH
def test_each_hint_level_shows_with_the_whole_board(browser, live_server, stock, device, scheme):
    context, page, _ = start(browser, live_server, device, scheme)
    tap(page, '[data-action="hint"]')
    page.wait_for_selector("[data-hint-panel][data-hint-level='1']")
    for level in (1, 2, 3):
        page.wait_for_selector(f"[data-hint-panel][data-hint-level='{level}']")
        panel = page.locator("[data-hint-panel]")
        assert panel.get_attribute("data-technique")
        text = page.locator("[data-hint-text]").inner_text()
        assert text
        assert inside(page, "[data-board]"), f"the board leaves the screen at level {level}"
        for part in ("[data-hint-technique]", "[data-hint-text]", '[data-action="hint-close"]'):
            assert inside(page, part), f"{part} is off the screen at level {level}"
        more = page.locator('[data-action="hint-more"]')
        assert more.is_visible() == (level < 3)
        if level < 3:
            assert inside(page, '[data-action="hint-more"]')
        # The words show once: in the panel, not again in the message line.
        assert text not in page.locator("[data-message]").inner_text()
        shot(page, f"hint-{level}-{device}-{scheme}")
        if level < 3:
            tap(page, '[data-action="hint-more"]')
    tap(page, '[data-action="pause"]')  # the hint waits, out of sight, with the board
    page.wait_for_selector("[data-pause-cover]:not([hidden])")
    assert not page.locator("[data-hint-panel]").is_visible()
    tap(page, '[data-action="pause"]')
    page.wait_for_selector("[data-hint-panel]:not([hidden])")
    tap(page, '[data-action="hint-close"]')
    page.wait_for_selector("[data-hint-panel]", state="hidden")
    assert page.locator("[data-cell][data-hint]").count() == 0
    assert page.locator("[data-message]").inner_text() == ""
    close(context, page)


def give_up(page) -> None:
    native = []
    page.on("dialog", lambda dialog: (native.append(dialog), dialog.dismiss()))
    tap(page, '[data-action="give-up"]')
    page.wait_for_selector("dialog[data-confirm][open]")
    assert inside(page, "dialog[data-confirm]")
    tap(page, "[data-confirm-ok]")
    page.wait_for_selector('[data-status="gave_up"]')
    assert not native, "a native dialog opened"


@BOTH
def test_the_walkthrough_keeps_the_board_and_its_controls_in_view_on_a_phone(
    browser, live_server, stock, scheme
):
    context, page, _ = start(browser, live_server, "phone", scheme)
    give_up(page)
    tap(page, '[data-action="show-how"]')
    page.wait_for_selector("[data-walkthrough]:not([hidden])")
    total = int(re.search(r"of (\d+)", page.locator("[data-walk-count]").inner_text())[1])
    for step in range(1, total + 1):
        assert page.locator("[data-walk-count]").inner_text().startswith(f"Step {step} of")
        for part in (
            "[data-board]",
            '[data-action="walk-prev"]',
            '[data-action="walk-next"]',
            "[data-walk-count]",
        ):
            assert inside(page, part), f"{part} is off the screen at step {step}"
        if step in (1, total):
            shot(page, f"walk-{step}-phone-{scheme}")
        if step < total:
            tap(page, '[data-action="walk-next"]')
    close(context, page)


@DEVICE
@BOTH
def test_after_giving_up_the_solution_shows_calmly_and_the_pad_agrees(
    browser, live_server, stock, device, scheme
):
    context, page, game = start(browser, live_server, device, scheme)
    blank = blanks_of(game.puzzle.givens)[0]
    tap(page, f'[data-cell="{blank}"]')
    wrong = next(d for d in "123456789" if d != solution_of(game)[blank])
    tap(page, f'[data-digit="{wrong}"]')
    wait_saved(page)
    give_up(page)
    shown = page.locator(f'[data-cell="{blank}"]')
    assert shown.get_attribute("data-value") == solution_of(game)[blank]
    assert "solution-shown" in shown.get_attribute("class")
    value = f'[data-cell="{blank}"] .value'
    assert style(page, value, "fontStyle") == "normal"
    wrong_colour = page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--wrong')"
    )
    probe = page.evaluate(
        """c => { const s = document.createElement('span'); s.style.color = c;
                  document.body.append(s); const v = getComputedStyle(s).color;
                  s.remove(); return v; }""",
        wrong_colour.strip(),
    )
    assert style(page, value, "color") != probe, "the solution shows in the colour of wrong"
    assert "from the solution" in shown.get_attribute("aria-label")
    lefts = page.locator("[data-left]").all_inner_texts()
    assert lefts == [""] * 9, lefts  # the board shown is full
    shot(page, f"gave-up-{device}-{scheme}")
    close(context, page)


@DEVICE
def test_pause_toggles_to_resume(browser, live_server, stock, device):
    context, page, game = start(browser, live_server, device, "light")
    pause = page.locator('[data-action="pause"]')
    assert pause.get_attribute("aria-pressed") == "false"
    assert "Pause" in pause.inner_text()
    tap(page, '[data-action="pause"]')
    page.wait_for_selector("[data-pause-cover]:not([hidden])")
    assert pause.get_attribute("aria-pressed") == "true"
    assert "Resume" in pause.inner_text()
    shot(page, f"paused-{device}")
    tap(page, '[data-action="pause"]')  # the same button resumes
    page.wait_for_selector("[data-pause-cover]", state="hidden")
    assert pause.get_attribute("aria-pressed") == "false"
    assert "Pause" in pause.inner_text()
    game.refresh_from_db()
    assert game.resumed_at is not None
    close(context, page)


@DEVICE
@BOTH
def test_reveal_asks_in_the_page_and_says_what_it_revealed(
    browser, live_server, stock, device, scheme
):
    context, page, game = start(browser, live_server, device, scheme)
    native = []
    page.on("dialog", lambda dialog: (native.append(dialog), dialog.dismiss()))
    blank = blanks_of(game.puzzle.givens)[3]
    tap(page, f'[data-cell="{blank}"]')
    tap(page, '[data-action="reveal"]')
    page.wait_for_selector("dialog[data-confirm][open]")
    assert inside(page, "dialog[data-confirm]")
    shot(page, f"reveal-confirm-{device}-{scheme}")
    tap(page, "[data-confirm-cancel]")
    page.wait_for_selector("dialog[data-confirm]:not([open])", state="attached")
    assert page.get_attribute(f'[data-cell="{blank}"]', "data-value") == "0"
    tap(page, '[data-action="reveal"]')
    page.wait_for_selector("dialog[data-confirm][open]")
    tap(page, "[data-confirm-ok]")
    cell = page.locator(f'[data-cell="{blank}"]')
    page.wait_for_selector(f'[data-cell="{blank}"].revealed')
    assert cell.get_attribute("data-value") == solution_of(game)[blank]
    assert "revealed" in cell.get_attribute("aria-label")
    assert "Revealed" in page.locator("[data-message]").inner_text()
    assert not native
    close(context, page)


def test_arrow_keys_work_after_a_pad_button_is_clicked(browser, live_server, stock):
    context, page, game = start(browser, live_server, "desktop", "light")
    blank = blanks_of(game.puzzle.givens)[0]
    page.click(f'[data-cell="{blank}"]')
    page.click('[data-action="notes"]')
    page.click('[data-digit="3"]')  # the focus is now on a pad button
    page.keyboard.press("ArrowDown")
    below = (blank + 9) % 81
    assert page.get_attribute(f'[data-cell="{below}"]', "aria-selected") == "true"
    page.click('[data-action="undo"]')
    page.keyboard.press("ArrowRight")
    right = below + 1 if below % 9 != 8 else below - 8
    assert page.get_attribute(f'[data-cell="{right}"]', "aria-selected") == "true"
    close(context, page)


@DEVICE
def test_digit_first_places_one_digit_in_cell_after_cell(browser, live_server, stock, device):
    context, page, game = start(browser, live_server, device, "light")
    a, b = blanks_of(game.puzzle.givens)[:2]
    box = page.locator('[data-digit="4"]').bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(700)  # held: the digit is chosen
    page.mouse.up()
    assert page.get_attribute('[data-digit="4"]', "aria-pressed") == "true"
    tap(page, f'[data-cell="{a}"]')
    tap(page, f'[data-cell="{b}"]')
    wait_saved(page)
    assert page.get_attribute(f'[data-cell="{a}"]', "data-value") == "4"
    assert page.get_attribute(f'[data-cell="{b}"]', "data-value") == "4"
    tap(page, '[data-digit="4"]')  # tapped again: back to cell first
    assert page.get_attribute('[data-digit="4"]', "aria-pressed") == "false"
    if device == "desktop":
        # With no cell selected (Esc), a tap on a digit says to choose a cell first.
        page.keyboard.press("Escape")
        assert page.locator('[data-cell][aria-selected="true"]').count() == 0
        page.click('[data-digit="6"]')
        assert page.get_attribute('[data-digit="6"]', "aria-pressed") == "false"
        assert "Choose a cell first" in page.locator("[data-message]").inner_text()
    close(context, page)


def test_the_phone_header_is_one_row_and_the_menu_folds(browser, live_server, stock):
    context, page, _ = start(browser, live_server, "phone", "light")
    header = page.locator(".site-header").bounding_box()
    assert header["height"] <= 64, header
    assert not page.locator(".nav-links").is_visible()
    head = page.locator(".game-head").bounding_box()
    assert head["height"] <= 44, head  # one line
    board = page.locator("[data-board]").bounding_box()
    assert board["y"] <= 130 and inside(page, "[data-board]")
    # Tap targets show a focus ring, not the browser's tap highlight.
    highlight = style(page, ".pad-digit", "webkitTapHighlightColor")
    assert highlight in ("rgba(0, 0, 0, 0)", "transparent"), highlight
    tap(page, "[data-nav-toggle]")
    assert page.locator(".nav-links").is_visible()
    assert page.get_attribute("[data-nav-toggle]", "aria-expanded") == "true"
    shot(page, "menu-open-phone")
    close(context, page)


def solve_on_the_page(page, game) -> None:
    solution = solution_of(game)
    for index in blanks_of(game.puzzle.givens):
        tap(page, f'[data-cell="{index}"]')
        tap(page, f'[data-digit="{solution[index]}"]')
    page.wait_for_selector('[data-status="solved"]')


@DEVICE
@BOTH
def test_a_solve_ends_with_a_moment_and_a_share_line(browser, live_server, stock, device, scheme):
    context, page, game = start(browser, live_server, device, scheme, motion="no-preference")
    page.evaluate(
        """() => Object.defineProperty(navigator, "share", {configurable: true,
             value: async (data) => { window.shared = data; }})"""
    )
    solve_on_the_page(page, game)
    assert page.locator("[data-game].celebrate").count() == 1
    assert style(page, ".celebrate .cell", "animationName") == "wave"
    assert inside(page, "[data-finished] h2")
    page.wait_for_selector("[data-game]:not(.celebrate)", timeout=5000)  # over in moments
    shot(page, f"solved-{device}-{scheme}")
    tap(page, '[data-action="share"]')
    page.wait_for_function("() => window.shared")
    shared = page.evaluate("window.shared")
    assert re.fullmatch(
        r"Sudoku — easy, rated \d\.\d, solved in \d+:\d\d, no help", shared["text"]
    ), shared
    # The puzzle's share link, which starts a game on it for whoever opens it.
    assert shared["url"] == page.get_attribute("[data-game]", "data-share-url")
    assert re.fullmatch(re.escape(page.base) + r"/p/[0-9a-z]+-[0-9a-z]+", shared["url"])
    assert game.puzzle.solution not in shared["url"] + shared["text"]
    close(context, page)


def test_with_reduced_motion_there_is_no_celebration_animation(browser, live_server, stock):
    context, page, game = start(browser, live_server, "desktop", "light", motion="reduce")
    page.evaluate(
        """() => Object.defineProperty(navigator, "clipboard", {configurable: true,
             value: {writeText: async (text) => { window.copied = text; }}})"""
    )
    page.evaluate("() => Object.defineProperty(navigator, 'share', {value: undefined})")
    solve_on_the_page(page, game)
    assert style(page, ".cell", "animationName") == "none"
    page.click('[data-action="share"]')
    page.wait_for_function("() => window.copied")
    assert page.evaluate("window.copied").startswith("Sudoku — easy, rated ")
    assert "Copied" in page.locator("[data-share-status]").inner_text()
    close(context, page)


@BOTH
def test_the_daily_leaderboard_fits_its_card_on_a_phone(browser, live_server, stock, scheme):
    picks = daily_picks()
    Puzzle.objects.filter(pk__in=[p.pk for p in picks.values()]).update(served_at=timezone.now())
    users = get_user_model()
    for difficulty, puzzle in picks.items():
        daily = DailyPuzzle.objects.create(date=today(), difficulty=difficulty, puzzle=puzzle)
        for n in range(3):
            name = f"{difficulty}_solver_with_a_long_name_{n}"
            user = users.objects.create_user(name, password="x")
            Game.objects.create(
                user=user,
                puzzle=puzzle,
                daily=daily,
                values=puzzle.solution,
                status=Game.Status.SOLVED,
                active_seconds=3000 + 400 * n,
                finished_at=timezone.now(),
            )
    context, page = open_context(browser, live_server, "phone", scheme)
    page.goto(page.base + "/daily/")
    assert page.locator("table.leaderboard").count() == len(picks)
    for table in page.locator("table.leaderboard").all():
        card = table.locator("xpath=ancestor::li[contains(@class, 'card')]").bounding_box()
        box = table.bounding_box()
        right = card["x"] + card["width"]
        assert box["x"] >= card["x"] and box["x"] + box["width"] <= right, (box, card)
        time = table.locator("tbody tr td:last-child").first.bounding_box()
        assert time["x"] + time["width"] <= card["x"] + card["width"]
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    page.screenshot(path=f"/tmp/board-shots/daily-phone-{scheme}.png", full_page=True)
    close(context, page)
