"""What every page's footer and the rules promise of the puzzles is what the grader does:
one solution each, and logic alone for every tier the site makes (extreme by nested forcing
chains); trial and error only for a typed-in puzzle that needs it, which the footer says
rather than hides."""

from __future__ import annotations

import re

import pytest

import engine

from ...engine.helpers import load

pytestmark = pytest.mark.django_db


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_footer_and_the_rules_promise_logic_for_every_tier_made(client):
    footer = words(client.get("/").content.decode().split('class="site-footer"')[1])
    assert "exactly one solution" in footer
    assert "extreme included, can be solved by logic alone" in footer
    assert "only a puzzle you type in may need trial and error" in footer
    rules = words(client.get("/how-to-play/").content.decode())
    assert "no guessing needed, from easy to extreme" in rules


def test_the_hardest_samples_are_graded_extreme_by_logic_without_a_guess():
    """Public samples (tests/data: Gordon Royle's top95 list, and a list of the hardest
    known puzzles): nested forcing chains solve what the grader once guessed at."""
    graded = [engine.grade(p) for p in (*load("top95")[:30], *load("hardest_200")[:10])]
    assert not [g for g in graded if "Trial and Error" in g.techniques]
    assert all(g.difficulty == "extreme" for g in graded[30:])
    assert any(g.difficulty == "master" for g in graded)
