"""Chains drawn on the candidates, in Chromium: a forcing chain's and an alternating
inference chain's hint on the game page mark the candidates they make true and false
(data-hint-on, data-hint-off) and draw their links (data-hint-link, data-from, data-to) at
levels 2 and 3, none of it at level 1; the guide's example draws the same on its board.

The puzzle is line 7 of the top95 list (tests/data/top95.txt, from Norvig's essay): its
solve takes an alternating inference chain, then a contradiction forcing chain (the
positions of tests/engine/technique_positions.json). Practice games start at each.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

import engine
from puzzles.learn.examples import refresh_examples
from puzzles.models import TechniqueExample
from puzzles.pools import stock

from ..engine.helpers import load
from .board_helpers import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOP95_7 = load("top95")[6]
HOOKS = "[data-hint-on], [data-hint-off], [data-hint-link]"
AXE = Axe()


def serious(page) -> list[str]:
    """What axe-core finds serious or critical on the page as it stands."""
    page.wait_for_load_state("networkidle")
    found = AXE.run(page, options={"resultTypes": ["violations"]}).response["violations"]
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']]}"
        for v in found
        if v.get("impact") in ("serious", "critical")
    ]


@pytest.fixture
def chain_examples(transactional_db) -> None:
    """The puzzle stored, and the guide's examples found in its solve."""
    made = engine.Generated(TOP95_7, engine.solve(TOP95_7), engine.grade(TOP95_7))
    stock.insert_new([stock.puzzle_row(made)])
    refresh_examples(scans=3)
    found = set(TechniqueExample.objects.values_list("slug", flat=True))
    assert {"forcing-chain", "alternating-inference-chain"} <= found, found


def hint_level(page, level: int) -> None:
    action = "hint" if level == 1 else "hint-more"
    page.locator(f'[data-action="{action}"]').click()
    page.wait_for_selector(f"[data-hint-panel][data-hint-level='{level}']")


def drawn(page) -> dict:
    """The chain's hooks on the board: cells with candidates on and off, and the links."""
    return page.evaluate(
        """() => ({
            on: [...document.querySelectorAll('[data-board] [data-hint-on]')].map(
                (c) => [+c.dataset.cell, c.dataset.hintOn]),
            off: [...document.querySelectorAll('[data-board] [data-hint-off]')].map(
                (c) => [+c.dataset.cell, c.dataset.hintOff]),
            links: [...document.querySelectorAll('[data-board] [data-hint-link]')].map(
                (l) => [l.dataset.hintLink, l.dataset.from, l.dataset.to]),
        })"""
    )


@pytest.mark.parametrize(
    ("slug", "name", "first_link", "target"),
    [
        # The forcing chain starts on the cell it takes 7 out of: drawn from level 3 only.
        ("forcing-chain", "contradiction forcing chain", ["weak", "1:7", "9:7"], 1),
        (
            "alternating-inference-chain",
            "alternating inference chain",
            ["strong", "11:5", "10:5"],
            None,
        ),
    ],
)
def test_a_chains_hint_draws_its_candidates_and_links_from_level_two(
    page, chain_examples, slug, name, first_link, target
):
    page.goto(page.base + f"/techniques/{slug}/")
    # The guide's board draws the chain as well.
    guide = page.evaluate(
        "() => document.querySelectorAll('[data-board-view] [data-hint-link]').length"
    )
    assert guide >= 2
    assert page.locator("[data-board-view] [data-hint-on]").count()
    assert page.locator("[data-board-view] [data-hint-off]").count()
    assert page.locator("[data-chain] li").count() >= 3  # told link by link
    shot(page, f"chain-{slug}-guide")
    assert not serious(page)
    page.locator('[data-action="practise"]').click()
    page.wait_for_url("**/games/*/")
    page.wait_for_selector("[data-game][data-ready]")

    hint_level(page, 1)
    assert name in page.locator("[data-hint-technique]").inner_text().lower()
    assert page.locator(HOOKS).count() == 0  # level 1 gives nothing of the chain away
    for level in (2, 3):
        hint_level(page, level)
        marks = drawn(page)
        assert marks["on"] and marks["off"], marks
        assert len(marks["links"]) >= 2
        if level == 3 or target is None:
            assert first_link in marks["links"]
        else:  # level 2 draws nothing on the cell that will change
            assert target not in [cell for cell, _ in marks["on"] + marks["off"]]
            ends = [int(end.split(":")[0]) for _, *pair in marks["links"] for end in pair]
            assert target not in ends
        for cell, digits in marks["on"] + marks["off"]:
            notes = page.get_attribute(f'[data-cell="{cell}"]', "data-notes")
            assert set(digits) <= set(notes), (cell, digits, notes)
        kinds = {kind for kind, _, _ in marks["links"]}
        assert kinds <= {"strong", "weak"}
        # Strong links are drawn solid, weak ones dashed.
        dashes = page.evaluate(
            """() => [...document.querySelectorAll('[data-hint-link]')].map(
                (l) => [l.dataset.hintLink, getComputedStyle(l).strokeDasharray])"""
        )
        for kind, dash in dashes:
            assert (dash in ("none", "")) == (kind == "strong"), (kind, dash)
    # Told link by link at the last level: the notation and each link in words.
    chain = page.locator("[data-hint-chain]")
    assert chain.is_visible()
    chain.locator("summary").click()
    assert page.locator("[data-hint-chain] [data-chain-links] li").count() >= 3
    notation = page.locator("[data-hint-chain] [data-chain-notation]").inner_text()
    assert ("->" in notation) if slug == "forcing-chain" else (" = " in notation)
    shot(page, f"chain-{slug}-hint-3")
    assert not serious(page)
    page.emulate_media(color_scheme="dark")
    assert not serious(page)  # the chain's colours read in the dark theme too
    shot(page, f"chain-{slug}-hint-3-dark")
    page.locator('[data-action="hint-close"]').click()
    page.wait_for_function("() => !document.querySelector('[data-hint-link]')")
    assert page.locator(HOOKS).count() == 0


def test_the_walkthrough_draws_and_tells_each_chain(page, chain_examples):
    page.goto(page.base + "/techniques/forcing-chain/")
    page.locator('[data-action="practise"]').click()
    page.wait_for_selector("[data-game][data-ready]")
    page.locator('[data-action="give-up"]').click()
    page.wait_for_selector("dialog[data-confirm][open]")
    page.locator("[data-confirm-ok]").click()
    page.wait_for_selector('[data-status="gave_up"]')
    page.locator('[data-action="show-how"]').click()
    page.wait_for_selector("[data-walkthrough]:not([hidden])")
    seen = set()
    for _ in range(40):
        words = page.locator("[data-walk-step]").inner_text().lower()
        for name in ("contradiction forcing chain", "alternating inference chain"):
            if words.startswith("a ") and f"({name})" in words and name not in seen:
                seen.add(name)
                marks = drawn(page)
                assert marks["on"] and marks["off"] and len(marks["links"]) >= 2, name
                assert page.locator("[data-walk-chain]").is_visible()
                assert page.locator("[data-walk-chain] [data-chain-links] li").count() >= 3
        if len(seen) == 2 or page.locator('[data-action="walk-next"]').is_disabled():
            break
        page.locator('[data-action="walk-next"]').click()
    assert seen == {"contradiction forcing chain", "alternating inference chain"}
    # Back on the board, the chain goes.
    page.locator('[data-action="walk-close"]').click()
    page.wait_for_function("() => !document.querySelector('[data-hint-link]')")
