"""The web tests' fixtures: rate limits cleared, puzzles in stock, a logged-in player.
Their helpers are in helpers.py."""

from __future__ import annotations

import random

import pytest

import engine
from puzzles.accounts import limits
from puzzles.models import Difficulty, Puzzle
from puzzles.pools import stock

from .helpers import SAMPLED, sample_of


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Every test starts with no attempts counted, whatever ran before it."""
    limits.clear_all()
    yield
    limits.clear_all()


@pytest.fixture
def stocked(db) -> dict[str, list[Puzzle]]:
    """A few fresh puzzles of every difficulty."""
    rng = random.Random(2026)
    rows = [
        stock.puzzle_row(engine.make_puzzle(d, seed=rng))
        for d in ("easy", "easy", "easy", "medium", "medium", "hard", "hard", "expert", "expert")
    ]
    rows += [stock.puzzle_row(sample_of(d)) for d in SAMPLED]
    stock.insert_new(rows)
    return {d: list(Puzzle.objects.filter(difficulty=d)) for d in Difficulty.values}


@pytest.fixture
def player(client, alice):
    """A client logged in as alice."""
    client.force_login(alice)
    return client
