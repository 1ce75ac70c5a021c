"""Many cells selected at once (issue 35), on a phone by touch and on a desktop by keyboard
and mouse: three cells selected by a drag and coloured as one move, two selected (Ctrl+click
on a desktop, a drag on a phone) given a corner mark as one move, a centre mark in one;
each undone by one undo and done again; then a reload, a stretch offline and a second device
of the same player: every mark and colour as it was, on the page and in the game's state.
Screenshots of a board with several cells selected; axe-core finds nothing serious."""

from __future__ import annotations

import itertools
import time

import pytest

from .helpers import SCREENSHOTS, go_offline, go_online, log_in, open_new_game, wait_saved
from .test_marks import Player, hooks, serious, server_marks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def selected(page) -> list[int]:
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-cell][aria-selected="true"]')]
            .map((el) => Number(el.dataset.cell)).sort((a, b) => a - b)"""
    )


def centre_of(page, cell: int) -> tuple[float, float]:
    box = page.locator(f'[data-cell="{cell}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page, cells: list[int], touch: bool) -> None:
    """A finger or the mouse drawn from the first cell over the others."""
    points = [centre_of(page, cell) for cell in cells]
    if not touch:
        page.mouse.move(*points[0])
        page.mouse.down()
        for x, y in points[1:]:
            page.mouse.move(x, y, steps=4)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)
    # The events' own times, a slow finger's (50 ms a step, still at the end before it
    # lifts): a quick one would fling, and a tap during a fling only stops it.
    moment = [time.time()]

    def touch(kind: str, x: float, y: float, after: float = 0.05) -> None:
        moment[0] += after
        point = [{"x": x, "y": y, "id": 1}] if kind != "touchEnd" else []
        body = {"type": kind, "touchPoints": point, "timestamp": moment[0]}
        cdp.send("Input.dispatchTouchEvent", body)

    touch("touchStart", *points[0])
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        for step in range(1, 5):
            touch("touchMove", x0 + (x1 - x0) * step / 4, y0 + (y1 - y0) * step / 4)
    touch("touchEnd", *points[-1], after=0.5)
    cdp.detach()


def heard(page) -> str:
    page.wait_for_function("() => document.querySelector('[data-announce]').textContent !== ''")
    return page.locator("[data-announce]").text_content()


@pytest.mark.parametrize(
    "viewport, touch",
    [({"width": 390, "height": 844}, True), ({"width": 1280, "height": 800}, False)],
)
def test_many_cells_take_marks_and_colours_as_one_move(
    browser, live_server, stock, alice, viewport, touch
):
    size = f"{viewport['width']}x{viewport['height']}"
    context = browser.new_context(viewport=viewport, has_touch=touch, reduced_motion="reduce")
    page = context.new_page()
    page.base = live_server.url
    log_in(page, "alice", "wonderland-42")
    game = open_new_game(page)
    page.locator('[data-action="dismiss-intro"]').click()
    givens = game.puzzle.givens
    # Three empty cells side by side in a row, for a drag across them.
    start = next(i for i in range(81) if i % 9 <= 6 and givens[i : i + 3] == "000")
    a, b, c = start, start + 1, start + 2
    play = Player(page, touch)

    # A drag selects the three; each says so, the count is heard; a colour paints them all.
    play.cell(a)
    drag(page, [a, b, c], touch)
    assert selected(page) == [a, b, c]
    assert heard(page) == "3 cells selected"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(SCREENSHOTS / f"selection-{size}-{scheme}.png"))
        assert serious(page) == [], scheme
    page.emulate_media(color_scheme="light")
    play.action("colour", "o")
    play.colour(4)
    page.wait_for_function(f"() => document.querySelector('[data-cell=\"{c}\"]').dataset.colour")

    # Two selected (Ctrl+click on a desktop, a drag on a phone) take a corner mark at once.
    play.cell(a)
    assert selected(page) == [a]
    if touch:
        drag(page, [a, b], touch)
    else:
        page.locator(f'[data-cell="{b}"]').click(modifiers=["Control"])
    assert selected(page) == [a, b]
    play.action("corner", "x")
    play.digit(2)
    # A centre mark in one.
    play.cell(c)
    assert selected(page) == [c]
    play.action("centre", "m")
    play.digit(5)
    wait_saved(page)
    expected = {
        str(a): {"corner": "2", "colour": "4"},
        str(b): {"corner": "2", "colour": "4"},
        str(c): {"centre": "5", "colour": "4"},
    }
    stored = {
        str(a): {"corner": [2], "colour": 4},
        str(b): {"corner": [2], "colour": 4},
        str(c): {"centre": [5], "colour": 4},
    }
    assert hooks(page) == expected
    assert server_marks(page, game.pk) == stored
    page.screenshot(path=str(SCREENSHOTS / f"selection-marked-{size}.png"))

    # One undo takes back each move, on every cell it made (the hook looked at, then all).
    undone = [
        (
            (c, "centre"),
            {
                a: {"corner": "2", "colour": "4"},
                b: {"corner": "2", "colour": "4"},
                c: {"colour": "4"},
            },
        ),
        ((a, "corner"), {a: {"colour": "4"}, b: {"colour": "4"}, c: {"colour": "4"}}),
        ((b, "colour"), {}),
    ]
    for (cell, name), shown in undone:
        play.action("undo", "Control+z")
        page.wait_for_function(
            "([cell, name]) => !document.querySelector(`[data-cell='${cell}']`).dataset[name]",
            arg=[cell, name],
        )
        assert hooks(page) == {str(k): v for k, v in shown.items()}
    wait_saved(page)
    assert server_marks(page, game.pk) == {}
    for _ in undone:
        play.action("redo", "Control+y")
    wait_saved(page)
    assert hooks(page) == expected
    assert server_marks(page, game.pk) == stored

    # A reload: all as it was.
    page.reload()
    page.wait_for_selector("[data-game][data-ready]")
    assert hooks(page) == expected

    # Offline and back: two cells' colour cleared offline, as one move, is kept and sent.
    go_offline(context)
    page.wait_for_function(
        "() => /Offline/.test(document.querySelector('[data-saved]').textContent)"
    )
    play.cell(a)
    drag(page, [a, b], touch)
    assert selected(page) == [a, b]
    if not page.locator("[data-palette]").is_visible():  # the palette stays open on a reload
        play.action("colour", "o")
    play.colour(0)
    for cell in (a, b):
        del expected[str(cell)]["colour"]
        del stored[str(cell)]["colour"]
    assert hooks(page) == expected
    go_online(context)
    wait_saved(page)
    assert hooks(page) == expected
    assert server_marks(page, game.pk) == stored

    # A second device of the same player sees them all.
    other = browser.new_context(viewport=viewport, has_touch=touch)
    second = other.new_page()
    second.base = live_server.url
    log_in(second, "alice", "wonderland-42")
    second.goto(f"{live_server.url}/games/{game.pk}/")
    second.wait_for_selector("[data-game][data-ready]")
    assert hooks(second) == expected
    other.close()
    context.close()


def swipe(page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger drawn slowly from one point to another (drag's way, by points)."""
    cdp = page.context.new_cdp_session(page)
    moment = time.time()
    (x0, y0), (x1, y1) = start, end
    events = [("touchStart", x0, y0)]
    events += [("touchMove", x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8) for k in range(1, 9)]
    for kind, x, y in [*events, ("touchEnd", x1, y1)]:
        moment += 0.05
        point = [{"x": x, "y": y, "id": 1}] if kind != "touchEnd" else []
        body = {"type": kind, "touchPoints": point, "timestamp": moment}
        cdp.send("Input.dispatchTouchEvent", body)
    cdp.detach()


def test_a_finger_on_the_board_selects_and_elsewhere_scrolls_the_page(
    browser, live_server, stock, alice
):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, reduced_motion="reduce"
    )
    page = context.new_page()
    page.base = live_server.url
    log_in(page, "alice", "wonderland-42")
    game = open_new_game(page)
    page.locator('[data-action="dismiss-intro"]').click()
    # Room to scroll: the page taller than the screen (as with the hint panel open).
    page.evaluate("() => { document.body.style.paddingBottom = '900px'; }")
    givens = game.puzzle.givens
    top = next(i for i in range(27, 81) if i % 9 <= 6 and givens[i : i + 3] == "000")
    page.locator(f'[data-cell="{top}"]').tap()
    # Up the board: the cells are selected, the page stays where it was.
    swipe(page, centre_of(page, top + 2), centre_of(page, top))
    assert page.evaluate("() => window.scrollY") == 0
    assert selected(page) == [top, top + 1, top + 2]
    # Up the controls under it: the page scrolls.
    box = page.locator("[data-digit='5']").bounding_box()
    x = box["x"] + box["width"] / 2
    swipe(page, (x, box["y"] + box["height"] / 2), (x, 150))
    page.wait_for_function("() => window.scrollY > 100")
    context.close()


def test_keys_extend_keep_one_and_select_every_empty_cell(browser, live_server, stock, alice):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    page.base = live_server.url
    log_in(page, "alice", "wonderland-42")
    game = open_new_game(page)
    page.locator('[data-action="dismiss-intro"]').click()
    givens = game.puzzle.givens
    start = next(i for i in range(81) if i % 9 <= 6 and givens[i : i + 3] == "000")
    page.locator(f'[data-cell="{start}"]').click()
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    assert selected(page) == [start, start + 1, start + 2]
    assert heard(page) == "3 cells selected"
    # A digit on all three, one move; one undo takes it back.
    page.keyboard.press("6")
    page.wait_for_function(
        f"() => document.querySelector('[data-cell=\"{start}\"]').dataset.value === '6'"
    )
    values = [
        page.get_attribute(f'[data-cell="{c}"]', "data-value") for c in range(start, start + 3)
    ]
    assert values == ["6", "6", "6"]
    page.keyboard.press("Control+z")
    page.wait_for_function(
        f"() => document.querySelector('[data-cell=\"{start}\"]').dataset.value === '0'"
    )
    values = [
        page.get_attribute(f'[data-cell="{c}"]', "data-value") for c in range(start, start + 3)
    ]
    assert values == ["0", "0", "0"]
    # Esc keeps the primary cell, the last one reached.
    page.keyboard.press("Escape")
    assert selected(page) == [start + 2]
    # Ctrl+A: every empty cell.
    page.keyboard.press("Control+a")
    assert selected(page) == [i for i, ch in enumerate(givens) if ch == "0"]
    # A drag let go off the board keeps the cells it passed over.
    page.locator(f'[data-cell="{start}"]').click()
    page.mouse.move(*centre_of(page, start))
    page.mouse.down()
    page.mouse.move(*centre_of(page, start + 1), steps=4)
    page.mouse.move(640, 30)  # one jump, over no other cell
    page.mouse.up()
    assert selected(page) == [start, start + 1]
    wait_saved(page)
    context.close()
