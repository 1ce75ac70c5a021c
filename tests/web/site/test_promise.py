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


def test_only_an_extreme_puzzle_is_graded_with_trial_and_error():
    """Public samples (tests/data: Gordon Royle's top95 list, and a list of the hardest
    known puzzles): the grader's guess ends in the extreme tier, never below it."""
    graded = [engine.grade(p) for p in (*load("top95")[:30], *load("hardest_200")[:10])]
    guessed = [g for g in graded if "Trial and Error" in g.techniques]
    assert guessed and all(g.difficulty == "extreme" for g in guessed)
    assert any(g.difficulty == "master" for g in graded)
