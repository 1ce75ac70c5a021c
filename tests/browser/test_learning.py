"""The technique guide, practice, a player's own puzzle and share links, in Chromium, on a
phone (touch) and a desktop; screenshots of each page land in var/screenshots/."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page

from puzzles.learn.examples import refresh_examples
from puzzles.models import Game, Move, TechniqueExample
from puzzles.play.sharing import share_path

from ..web.learning import store_technique_puzzles
from .board_helpers import DEVICES
from .helpers import SCREENSHOTS, open_new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEWSPAPER = """53..7....
6..195...
.98....6.
8...6...3
4..8.3..1
7...2...6
.6....28.
...419..5
....8..79"""


@pytest.fixture
def examples(transactional_db) -> None:
    store_technique_puzzles()
    refresh_examples(scans=200)


def open_page(browser: Browser, live_server, device: str) -> Page:
    context = browser.new_context(**DEVICES[device])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.base = live_server.url
    page.device = device
    return page


def press(page: Page, selector: str) -> None:
    """Tap on a phone, click on a desktop."""
    if page.device == "phone":
        page.locator(selector).first.tap()
    else:
        page.locator(selector).first.click()


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_load_state("networkidle")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{name} scrolls sideways by {overflow}px on {page.device}"
    page.screenshot(path=str(SCREENSHOTS / f"learn-{name}-{page.device}.png"), full_page=True)


def game_of(page: Page) -> Game:
    page.wait_for_url("**/games/*/")
    page.wait_for_selector("[data-game][data-ready]")
    return Game.objects.select_related("puzzle").get(pk=int(page.url.rstrip("/").split("/")[-1]))


def wait_for(condition, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_open_a_technique_and_practise_it_to_the_end(browser, live_server, examples, device):
    page = open_page(browser, live_server, device)
    page.goto(page.base + "/techniques/")
    shot(page, "techniques")
    press(page, '[data-technique="naked-single"] a')
    page.wait_for_selector("[data-board-view]")
    assert page.locator('[data-hint="target"]').count() >= 1
    assert page.locator('[data-hint="cause"]').count() >= 1
    shot(page, "technique")
    press(page, '[data-action="practise"]')
    game = game_of(page)
    example = TechniqueExample.objects.get(slug="naked-single", puzzle=game.puzzle_id)
    (cell, digit), *_ = example.hint["placements"]
    press(page, f'[data-cell="{cell}"]')
    press(page, f'[data-digit="{digit}"]')
    wait_for(lambda: Game.objects.get(pk=game.pk).practice_found_at is not None)
    game.refresh_from_db()
    assert game.practice_unaided and game.values[cell] == str(digit)
    page.wait_for_selector("[data-practice-found]:not([hidden])")  # the page says so
    assert "Found it" in page.locator("[data-message]").inner_text()
    shot(page, "practice-found")
    page.goto(page.base + "/history/?kind=practice")
    assert page.locator(f'a[href="/games/{game.pk}/"]').count() == 1
    shot(page, "history-practice")
    page.goto(page.base + "/stats/")
    assert page.locator('[data-skill="naked-single"][data-unaided="1"]').count() == 1
    shot(page, "stats")
    page.context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_practise_a_step_of_eliminations_by_removing_the_notes(
    browser, live_server, examples, device
):
    page = open_page(browser, live_server, device)
    page.goto(page.base + "/techniques/pointing/")
    press(page, '[data-action="practise"]')
    game = game_of(page)
    example = TechniqueExample.objects.get(slug="pointing", puzzle=game.puzzle_id)
    # Labelled as practice, not as the puzzle's tier, rating and number.
    assert page.locator("[data-practice-label]").is_visible()
    assert page.locator(".game-head [data-rating]").count() == 0
    press(page, '[data-action="notes"]')
    eliminations = example.hint["eliminations"]
    for count, (cell, digit) in enumerate(eliminations, start=1):
        press(page, f'[data-cell="{cell}"]')
        press(page, f'[data-digit="{digit}"]')
        wait_for(lambda c=cell, d=digit: d not in Game.objects.get(pk=game.pk).notes[c])
        if count < len(eliminations):  # each one said as it is found
            page.wait_for_function(
                "n => document.querySelector('[data-practice-progress]').textContent"
                ".includes(`${n} found so far`)",
                arg=count,
            )
    wait_for(lambda: Game.objects.get(pk=game.pk).practice_found_at is not None)
    page.wait_for_selector("[data-practice-more]:not([hidden])")
    press(page, "[data-action-next-practice]")  # offers the next one
    page.wait_for_url("**/games/*/")
    page.wait_for_selector("[data-game][data-ready]")
    assert (
        Game.objects.exclude(pk=game.pk).get(pk=int(page.url.rstrip("/").split("/")[-1])).practice
    )
    page.context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_paste_a_newspaper_puzzle_and_play_a_move(browser, live_server, transactional_db, device):
    page = open_page(browser, live_server, device)
    page.goto(page.base + "/play/custom/")
    page.fill("#puzzle", "53..7....\n6..195...\n.98....6.")  # too short: refused
    press(page, '[data-action="play-custom"]')
    page.wait_for_selector("[data-error]")
    assert "81" in page.locator("[data-error]").inner_text()
    shot(page, "custom-refused")
    page.fill("#puzzle", "8........." + "." * 71)
    press(page, '[data-action="play-custom"]')
    page.wait_for_selector("[data-differ-board]")  # where two solutions differ, no full grid
    assert page.locator("[data-differ]").count() >= 2
    shot(page, "custom-two-solutions")
    page.fill("#puzzle", NEWSPAPER)
    press(page, '[data-action="play-custom"]')
    game = game_of(page)
    assert game.puzzle.source == "player"
    press(page, '[data-cell="2"]')
    press(page, f'[data-digit="{game.puzzle.solution[2]}"]')
    wait_for(lambda: Game.objects.get(pk=game.pk).values[2] == game.puzzle.solution[2])
    page.context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_shared_link_opened_in_a_second_browser(browser, live_server, transactional_db, device):
    first = open_page(browser, live_server, "desktop")
    first.goto(first.base + "/play/custom/")
    first.fill("#puzzle", NEWSPAPER)
    first.click('[data-action="play-custom"]')
    mine = game_of(first)
    link = first.base + share_path(mine.puzzle_id)
    second = open_page(browser, live_server, device)
    second.goto(link)
    html = second.content()
    assert mine.puzzle.solution not in html
    shot(second, "share")
    press(second, '[data-action="play-shared"]')
    theirs = game_of(second)
    assert theirs.pk != mine.pk and theirs.puzzle_id == mine.puzzle_id
    assert mine.puzzle.solution not in second.content()
    for page in (first, second):
        page.context.close()
        assert not page.errors, page.errors


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_finished_game_shows_its_grade_and_replays_the_players_moves(
    browser, live_server, examples, stock, device
):
    page = open_page(browser, live_server, device)
    page.goto(page.base + "/")
    press(page, "[data-new-game=easy]")
    page.wait_for_selector("[data-game][data-ready]")
    game = game_of(page)
    assert page.locator("[data-rating]").inner_text() == f"{game.puzzle.score:.1f}"
    solution = game.puzzle.solution
    blanks = [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"]
    for cell in blanks:
        press(page, f'[data-cell="{cell}"]')
        press(page, f'[data-digit="{solution[cell]}"]')
    page.wait_for_selector('[data-status="solved"]')
    hardest = page.locator("[data-final-hardest] a")
    assert hardest.get_attribute("href").startswith("/techniques/")
    press(page, '[data-action="replay"]')
    slider = page.locator("[data-replay-slider]")
    slider.wait_for()
    assert slider.get_attribute("max") == str(len(blanks))
    values = lambda: "".join(  # noqa: E731
        page.eval_on_selector_all("[data-cell]", "cs => cs.map(c => c.dataset.value)")
    )
    assert values() == game.puzzle.givens  # the first frame: the puzzle as given
    slider.fill(str(len(blanks)))
    assert values() == solution  # the last frame: the finished board
    told = page.locator("[data-replay-count]").inner_text()
    assert f"Move {len(blanks)} of {len(blanks)}" in told
    press(page, '[data-action="replay-prev"]')
    assert values().count("0") == 1
    shot(page, f"replay-{device}")
    press(page, '[data-action="replay-close"]')
    assert values() == solution
    page.context.close()
    assert not page.errors, page.errors


def test_a_long_replay_comes_a_page_at_a_time_and_steps_across_pages(page, stock):
    """250 moves (a note put in and taken out again and again): the slider's far end and
    the steps across a page's edge draw frames fetched as they are reached."""
    game = open_new_game(page)
    cell = game.puzzle.givens.index("0")
    empty, one = [0, [], False, []], [0, [1], False, []]
    Move.objects.bulk_create(
        Move(
            game=game,
            number=n,
            kind="note",
            cell=cell,
            digit=1,
            changes=[{"cell": cell, "before": empty, "after": one}]
            if n % 2
            else [{"cell": cell, "before": one, "after": empty}],
        )
        for n in range(1, 251)
    )
    Game.objects.filter(pk=game.pk).update(moves_applied=250, moves_logged=250)
    page.reload()
    page.wait_for_selector("[data-game][data-ready]")
    page.click('[data-action="give-up"]')
    page.click("[data-confirm-ok]")
    page.wait_for_selector('[data-status="gave_up"]')
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/replay" in r.url else None)
    page.click('[data-action="replay"]')
    slider = page.locator("[data-replay-slider]")
    slider.wait_for()
    assert slider.get_attribute("max") == "250"
    told = page.locator("[data-replay-count]")
    notes = page.locator(f'[data-cell="{cell}"]')
    slider.fill("250")
    page.wait_for_function(
        "() => /Move 250 of 250/.test(document.querySelector('[data-replay-count]').textContent)"
    )
    assert (notes.get_attribute("data-notes") or "") == ""
    slider.fill("200")
    page.wait_for_function(
        "() => /Move 200 of 250/.test(document.querySelector('[data-replay-count]').textContent)"
    )
    page.click('[data-action="replay-prev"]')  # 199: the page before
    page.wait_for_function(
        "() => /Move 199 of 250/.test(document.querySelector('[data-replay-count]').textContent)"
    )
    assert notes.get_attribute("data-notes") == "1"
    assert "Move 199" in told.inner_text()
    assert all("count=100" in url for url in asked) and len(asked) >= 3
