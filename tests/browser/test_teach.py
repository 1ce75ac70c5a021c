"""A newcomer on a phone: the home page read at a glance, a page that says how to play
(linked from the home page and from the game's "?"), a first-visit explanation on the game
page that goes for good once dismissed, an input switch that says in words what it does,
and a sign-up that fits one screen. Screenshots go to var/screenshots/."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from puzzles.models import DailyPuzzle, Puzzle
from puzzles.pools.daily import today

from .board_helpers import close, inside, open_context
from .helpers import SCREENSHOTS, daily_picks, open_new_game
from .test_fit import SIZES, page_sized, past_the_edge

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "wonderland-42"


@pytest.fixture
def todays_dailies(stock) -> None:
    """Today's dailies picked ahead from the stock, so that no page has to make one."""
    picks = daily_picks()
    Puzzle.objects.filter(pk__in=[p.pk for p in picks.values()]).update(served_at=timezone.now())
    for difficulty, puzzle in picks.items():
        DailyPuzzle.objects.create(date=today(), difficulty=difficulty, puzzle=puzzle)


def snap(page, name: str, full: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full)


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def phone(browser, live_server, device: str = "phone", scheme: str = "light"):
    """A new guest's context; a missing element fails in seconds, not half a minute."""
    context, page = open_context(browser, live_server, device, scheme)
    page.set_default_timeout(8000)
    return context, page


def ready(page) -> None:
    page.wait_for_selector("[data-game][data-ready]")


def test_the_home_page_reads_at_a_glance_on_a_phone(browser, live_server, todays_dailies):
    context, page = phone(browser, live_server)
    page.goto(page.base + "/")
    dailies = page.locator("[data-daily-date]")
    assert dailies.get_attribute("data-daily-date") == today().isoformat()
    cards = page.locator("[data-daily-date] [data-daily-status]")
    assert cards.count() == 6
    assert {cards.nth(i).get_attribute("data-daily-status") for i in range(6)} == {"new"}
    # Each tier named and said in a word or two, on its card.
    easy = page.locator('[data-daily-status][data-tier="easy"]')
    assert "singles only" in easy.inner_text().lower()
    assert page.locator('a[href="/how-to-play/"]').first.is_visible()
    # No card has a line of its own that starts with a separator.
    lines = page.evaluate(
        """() => [...document.querySelectorAll('[data-daily-status]')].flatMap(
             (card) => card.innerText.split('\\n').map((l) => l.trim()))"""
    )
    assert not [line for line in lines if line.startswith("·")], lines
    assert no_sideways_scroll(page)
    snap(page, "home-newcomer-phone-light", full=True)

    # A daily begun: its card says so, and "continue" leads the page.
    page.locator('[data-tier="easy"] button[type="submit"]').tap()
    ready(page)
    game_url = page.url
    page.goto(page.base + "/")
    easy = page.locator('[data-daily-status][data-tier="easy"]')
    assert easy.get_attribute("data-daily-status") == "playing"
    first = page.locator("main section").first
    assert first.get_attribute("data-continue") is not None
    link = first.locator("a").first
    assert link.get_attribute("href") == game_url.replace(page.base, "")
    assert inside(page, "[data-continue] a")
    snap(page, "home-continue-phone-light", full=True)
    close(context, page)


def test_how_to_play_is_a_page_linked_from_home_and_from_the_games_help(
    browser, live_server, stock
):
    context, page = phone(browser, live_server)
    page.goto(page.base + "/")
    page.locator('a[href="/how-to-play/"]').first.tap()
    page.wait_for_url("**/how-to-play/")
    text = page.locator("main").inner_text()
    for words in ["row", "column", "box", "Cell first", "Digit first", "Notes", "Hint", "Check"]:
        assert words in text, words
    for tier in ["Easy", "Medium", "Hard", "Expert", "Master", "Extreme"]:
        assert tier in text, tier
    # A small board in the site's look: its first row shaded, the empty cell marked.
    board = page.locator("[data-board-view]")
    assert board.is_visible()
    assert page.locator('[data-board-view] [data-cell][data-hint="region"]').count() == 8
    assert page.locator('[data-board-view] [data-cell][data-hint="target"]').count() == 1
    assert no_sideways_scroll(page)
    snap(page, "how-to-play-phone-light", full=True)

    # On a phone "?" opens how to play first; the keys come after it.
    open_new_game(page)
    page.locator('[data-action="help"]').tap()
    page.wait_for_selector("dialog[data-help][open]")
    link = page.locator('dialog[data-help] a[href="/how-to-play/"]')
    assert link.is_visible() and inside(page, 'dialog[data-help] a[href="/how-to-play/"]')
    assert inside(page, "dialog[data-help] h2") and inside(page, "dialog[data-help] .help-rules")
    dialog_text = page.locator("dialog[data-help]").inner_text()
    assert dialog_text.index("How to play") < dialog_text.index("Backspace")
    snap(page, "help-dialog-phone-light")
    close(context, page)


def test_the_first_visit_explanation_goes_for_good_once_dismissed(browser, live_server, stock):
    context, page = phone(browser, live_server)
    open_new_game(page)
    intro = page.locator("[data-intro]")
    assert intro.is_visible() and inside(page, '[data-action="dismiss-intro"]')
    assert 'href="/how-to-play/"' in intro.inner_html()
    snap(page, "intro-phone-light")
    page.locator('[data-action="dismiss-intro"]').tap()
    assert not intro.is_visible()
    page.wait_for_load_state("networkidle")  # the dismissal is kept before the reload
    page.reload()
    ready(page)
    assert not page.locator("[data-intro]").is_visible()
    open_new_game(page)
    assert not page.locator("[data-intro]").is_visible()
    close(context, page)


def test_an_account_keeps_the_dismissal_on_every_device(browser, live_server, stock):
    User.objects.create_user("newt", password=PASSWORD)
    for _device in range(2):
        context, page = phone(browser, live_server, "desktop")
        page.goto(page.base + "/accounts/login/")
        page.fill('input[name="username"]', "newt")
        page.fill('input[name="password"]', PASSWORD)
        page.press('input[name="password"]', "Enter")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        open_new_game(page)
        intro = page.locator("[data-intro]")
        if _device == 0:
            assert intro.is_visible()
            page.locator('[data-action="dismiss-intro"]').click()
            page.wait_for_load_state("networkidle")
        else:
            assert not intro.is_visible()  # another device, the same account
        close(context, page)


def test_the_input_switch_says_in_words_what_each_way_does(browser, live_server, stock):
    context, page = phone(browser, live_server)
    open_new_game(page)
    words = page.locator("[data-input-help]")
    assert words.is_visible() and inside(page, "[data-input-help]")
    assert words.inner_text() == "Tap a cell, then a digit"
    page.locator('[data-action="input-mode"]').tap()
    assert words.inner_text() == "Tap a digit, then cells"
    snap(page, "input-switch-phone-light")
    close(context, page)


def test_sign_up_fits_one_phone_screen_and_works(browser, live_server, stock):
    context, page = phone(browser, live_server)
    page.goto(page.base + "/accounts/signup/")
    assert page.locator('input[name="password2"]').count() == 0
    assert inside(page, 'main form button[type="submit"]')
    rules = page.locator("[data-password-rules]")
    assert rules.is_visible()
    assert "at least 8 characters" in rules.inner_text().lower()
    password = page.locator('input[name="password1"]')
    assert password.get_attribute("type") == "password"
    page.locator("[data-show-password]").tap()
    assert password.get_attribute("type") == "text"
    snap(page, "signup-phone-light")
    page.fill('input[name="username"]', "newt")
    password.fill("a-long-pass-phrase")
    page.locator('main form button[type="submit"]').tap()
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)
    assert User.objects.filter(username="newt").exists()
    assert "newt" in page.locator(".account").inner_text()
    close(context, page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_newcomers_pages_fit_in_both_themes(
    browser, live_server, todays_dailies, device, scheme
):
    context, page = phone(browser, live_server, device, scheme)
    open_new_game(page)
    assert page.locator("[data-intro]").is_visible()
    assert page.locator("[data-input-help]").is_visible()
    shots = {"game-intro": None, "home": "/", "how-to-play": "/how-to-play/"}
    shots |= {"signup": "/accounts/signup/"}
    for name, path in shots.items():
        if path:
            page.goto(page.base + path)
        page.wait_for_load_state("networkidle")
        assert no_sideways_scroll(page), name
        snap(page, f"{name}-{device}-{scheme}", full=True)
    assert inside(page, 'main form button[type="submit"]')
    # Today's cards in even rows: never five and one.
    page.goto(page.base + "/")
    tops = page.eval_on_selector_all(
        ".daily-cards > li", "els => els.map((el) => Math.round(el.getBoundingClientRect().top))"
    )
    per_row = [tops.count(top) for top in sorted(set(tops))]
    assert len(tops) == 6 and len(set(per_row)) == 1, per_row
    close(context, page)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_first_visit_explanation_is_in_view_with_the_board_and_pad(
    browser, live_server, stock, size
):
    """A newcomer sees the words that explain the game without scrolling, on the smallest
    phone and sideways too: the less used controls give way until it is dismissed."""
    page = page_sized(browser, live_server, *SIZES[size])
    open_new_game(page)
    assert page.locator("[data-intro]").is_visible()
    shown = {s: inside(page, s) for s in ("[data-intro]", "[data-board]", '[data-digit="9"]')}
    snap(page, f"intro-{size}")
    assert all(shown.values()), shown
    assert not past_the_edge(page)
    page.locator('[data-action="dismiss-intro"]').click()
    assert page.locator('[data-action="check"]').is_visible()  # the tools are back
    close(page.context, page)
