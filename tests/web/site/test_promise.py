"""What every page's footer and the rules promise of the puzzles is what the grader does:
one solution each, and logic alone up to master; an extreme puzzle may need a candidate
tried to its dead end (trial and error), which the footer says rather than hides."""

from __future__ import annotations

import re

import pytest

import engine

from ...engine.helpers import load

pytestmark = pytest.mark.django_db


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_footer_and_the_rules_promise_logic_up_to_master_only(client):
    footer = words(client.get("/").content.decode().split('class="site-footer"')[1])
    assert "exactly one solution" in footer
    assert "every one can be reached by logic" not in footer
    assert "Easy to master" in footer and "extreme" in footer and "trial and error" in footer
    rules = words(client.get("/how-to-play/").content.decode())
    assert "no guessing needed" not in rules or "up to master" in rules


def test_the_hardest_samples_are_graded_extreme_by_logic_without_a_guess():
    """Public samples (tests/data: Gordon Royle's top95 list, and a list of the hardest
    known puzzles): nested forcing chains solve what the grader once guessed at."""
    graded = [engine.grade(p) for p in (*load("top95")[:30], *load("hardest_200")[:10])]
    assert not [g for g in graded if "Trial and Error" in g.techniques]
    assert all(g.difficulty == "extreme" for g in graded[30:])
    assert any(g.difficulty == "master" for g in graded)
