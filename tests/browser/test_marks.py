"""Corner and centre marks and colours (issue 35), on a phone by touch and on a desktop by
keyboard and mouse: cells coloured, corner marks in two cells and centre marks in one, a
candidate coloured, each undone and done again; then a reload, a stretch offline and a
second device of the same player: every mark and colour as it was, on the page and in the
game's state. Screenshots of the palette and of a coloured board with marks, light and
dark; axe-core finds nothing serious with the new controls open."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from .helpers import SCREENSHOTS, go_offline, go_online, log_in, open_new_game, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Axe()
HOOKS = ("corner", "centre", "colour", "candidateColours")


def hooks(page) -> dict[int, dict]:
    """Every cell's marks as the page shows them, cells without any left out."""
    return page.evaluate(
        """names => {
            const found = {};
            for (const el of document.querySelectorAll("[data-cell]")) {
                const marks = {};
                for (const name of names) if (el.dataset[name]) marks[name] = el.dataset[name];
                if (Object.keys(marks).length) found[el.dataset.cell] = marks;
            }
            return found;
        }""",
        list(HOOKS),
    )


def server_marks(page, game_id: int) -> dict:
    return page.evaluate(
        "id => fetch(`/api/games/${id}`).then(r => r.json()).then(s => s.marks)", game_id
    )


def serious(page) -> list[str]:
    page.wait_for_load_state("networkidle")
    found = AXE.run(page, options={"resultTypes": ["violations"]}).response["violations"]
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']]}"
        for v in found
        if v.get("impact") in ("serious", "critical")
    ]


class Player:
    """Taps on a phone, keys and clicks on a desktop."""

    def __init__(self, page, touch: bool) -> None:
        self.page, self.touch = page, touch

    def press(self, selector: str, key: str | None = None) -> None:
        if self.touch:
            self.page.locator(selector).tap()
        elif key:
            self.page.keyboard.press(key)
        else:
            self.page.locator(selector).click()

    def cell(self, i: int) -> None:
        self.press(f'[data-cell="{i}"]')

    def digit(self, d: int) -> None:
        self.press(f'[data-digit="{d}"]', str(d))

    def action(self, name: str, key: str | None = None) -> None:
        self.press(f'[data-action="{name}"]', key)

    def colour(self, n: int) -> None:
        self.press(f'[data-colour-pick="{n}"]')


@pytest.mark.parametrize(
    "viewport, touch",
    [({"width": 390, "height": 844}, True), ({"width": 1280, "height": 800}, False)],
)
def test_marks_and_colours_are_kept_like_notes(browser, live_server, stock, alice, viewport, touch):
    size = f"{viewport['width']}x{viewport['height']}"
    # No transitions: the screenshots show the theme switched to, not half-way.
    context = browser.new_context(viewport=viewport, has_touch=touch, reduced_motion="reduce")
    page = context.new_page()
    page.base = live_server.url
    log_in(page, "alice", "wonderland-42")
    game = open_new_game(page)
    # The marks' controls give way to the first-visit explanation until it is dismissed.
    assert not page.locator('[data-action="corner"]').is_visible()
    page.locator('[data-action="dismiss-intro"]').click()
    givens = game.puzzle.givens
    a, b, c = [i for i, ch in enumerate(givens) if ch == "0"][:3]
    given = givens.index(next(ch for ch in givens if ch != "0"))
    play = Player(page, touch)

    # Colours: the palette opens, a colour paints the selected cell, given or not.
    play.cell(a)
    play.action("colour", "o")
    assert page.locator('[data-action="colour"]').get_attribute("aria-expanded") == "true"
    assert page.locator("[data-palette]").is_visible()
    assert page.locator("[data-colour-pick]").count() == 10
    play.colour(3)
    play.cell(given)
    play.colour(5)
    # Corner marks in two cells, a centre mark in one.
    play.action("corner", "x")
    assert page.locator('[data-action="corner"]').get_attribute("aria-pressed") == "true"
    play.cell(a)
    play.digit(1)
    play.cell(b)
    play.digit(1)
    play.digit(7)
    play.action("centre", "m")
    assert page.locator('[data-action="corner"]').get_attribute("aria-pressed") == "false"
    play.cell(c)
    play.digit(3)
    play.digit(8)
    # A candidate coloured: candidate colouring on, colour 2, digit 8.
    play.action("colour-candidates")
    play.colour(2)
    play.digit(8)
    wait_saved(page)
    expected = {
        str(a): {"corner": "1", "colour": "3"},
        str(b): {"corner": "17"},
        str(c): {"centre": "38", "candidateColours": "8:2"},
        str(given): {"colour": "5"},
    }
    assert hooks(page) == expected
    label = page.get_attribute(f'[data-cell="{b}"]', "aria-label")
    assert "corner marks 1 7" in label
    assert "colour 3" in page.get_attribute(f'[data-cell="{a}"]', "aria-label")
    stored = {
        str(a): {"corner": [1], "colour": 3},
        str(b): {"corner": [1, 7]},
        str(c): {"centre": [3, 8], "candidates": [[8, 2]]},
        str(given): {"colour": 5},
    }
    assert server_marks(page, game.pk) == stored
    # Not a digit anywhere.
    assert page.get_attribute(f'[data-cell="{a}"]', "data-value") == "0"

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(SCREENSHOTS / f"marks-{size}-{scheme}.png"))
        page.locator("[data-palette]").screenshot(
            path=str(SCREENSHOTS / f"marks-palette-{size}-{scheme}.png")
        )
        assert serious(page) == [], scheme
    page.emulate_media(color_scheme="light")

    # Each undone, newest first (the hook as it was before it, "" for none), then done again.
    undone = [
        (c, "candidateColours", ""),
        (c, "centre", "3"),
        (c, "centre", ""),
        (b, "corner", "1"),
        (b, "corner", ""),
        (a, "corner", ""),
        (given, "colour", ""),
        (a, "colour", ""),
    ]
    shown = {cell: dict(marks) for cell, marks in expected.items()}
    for cell, name, was in undone:
        play.action("undo", "Control+z")
        page.wait_for_function(
            "([cell, name, was]) => "
            "(document.querySelector(`[data-cell='${cell}']`).dataset[name] || '') === was",
            arg=[cell, name, was],
        )
        if was:
            shown[str(cell)][name] = was
        else:
            del shown[str(cell)][name]
        shown = {k: v for k, v in shown.items() if v}
        assert hooks(page) == shown
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

    # Offline and back: a mark made offline is kept, sent, and nothing is lost.
    go_offline(context)
    page.wait_for_function(
        "() => /Offline/.test(document.querySelector('[data-saved]').textContent)"
    )
    play.cell(b)
    play.action("corner", "x")
    play.digit(4)
    expected[str(b)]["corner"] = "147"
    stored[str(b)]["corner"] = [1, 4, 7]
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
