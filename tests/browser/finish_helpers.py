"""Helpers of the tests of the end of a game: a game brought one cell short of its solve
on the server, and the page solving it."""

from __future__ import annotations

from django.db.models import F
from playwright.sync_api import expect

from puzzles.models import Game

from .helpers import solution_of


def blanks_of(game: Game) -> list[int]:
    return [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"]


def all_but(page, game: Game, left: list[int]) -> None:
    """The game's board on the server filled with the solution but for the cells left, and
    the page opened on it again."""
    solution = solution_of(game)
    values = "".join("0" if i in left else solution[i] for i in range(81))
    values = "".join(g if g != "0" else v for g, v in zip(game.puzzle.givens, values, strict=True))
    Game.objects.filter(pk=game.pk).update(values=values, version=F("version") + 1)
    page.reload()
    page.wait_for_selector("[data-game][data-ready]")


def place(page, cell: int, digit: str) -> None:
    target = page.locator(f'[data-cell="{cell}"]')
    if "selected" not in (target.get_attribute("class") or ""):
        target.click()
    page.click(f'[data-digit="{digit}"]')


def finish(page, game: Game) -> None:
    """The game solved on the page from one cell short."""
    last = blanks_of(game)[-1]
    all_but(page, game, [last])
    place(page, last, solution_of(game)[last])
    page.wait_for_selector('[data-status="solved"]')
    expect(page.locator("[data-finished]")).to_be_visible()
