"""Puzzles in stock and helpers to play them through the URLs."""

from __future__ import annotations

import datetime
import functools
import itertools
import json
import random

import pytest
from django.utils import timezone

import engine
from puzzles.accounts import limits
from puzzles.models import Difficulty, Game, Puzzle
from puzzles.pools import stock

from ..engine.conftest import load


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Every test starts with no attempts counted, whatever ran before it."""
    limits.clear_all()
    yield
    limits.clear_all()


# Tiers taken from public samples rather than made: an extreme puzzle takes the generator
# seconds, and these grade at once.
SAMPLED = {"master": "top95", "extreme": "hardest_200"}


def graded(puzzle: str) -> engine.Generated:
    """A known puzzle as the generator would give it."""
    return engine.Generated(puzzle, engine.solve(puzzle), engine.grade(puzzle))


@functools.cache
def samples_of(name: str, difficulty: str, count: int) -> tuple[str, ...]:
    """The first puzzles of a public sample file that grade in the tier."""
    tier = (p for p in load(name) if engine.grade(p).difficulty == difficulty)
    found = tuple(itertools.islice(tier, count))
    if len(found) < count:
        raise LookupError(f"fewer than {count} {difficulty} puzzles in {name}")
    return found


def sample_of(difficulty: str) -> engine.Generated:
    """A puzzle of the tier from its public sample file."""
    return graded(samples_of(SAMPLED[difficulty], difficulty, 1)[0])


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


def start(client, difficulty: str = "easy") -> Game:
    """Start a game through the site, as the client's player."""
    response = client.post(f"/play/{difficulty}/")
    assert response.status_code == 302, response
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def post(client, game: Game | int, action: str, body: object = None, **extra):
    """POST JSON to a game's API endpoint."""
    pk = game.pk if isinstance(game, Game) else game
    data = body if isinstance(body, (str, bytes)) else json.dumps(body or {})
    return client.post(f"/api/games/{pk}/{action}", data, content_type="application/json", **extra)


def state(client, game: Game | int) -> dict:
    pk = game.pk if isinstance(game, Game) else game
    response = client.get(f"/api/games/{pk}")
    assert response.status_code == 200
    return response.json()


def play_to_the_end(client, game: Game, clock=None, over: float = 0) -> dict:
    """Fill every empty cell with its solution digit, move by move; with a stopped clock
    (time_machine's), the moves spread evenly over `over` seconds of it, as a person
    places digits (all at one instant they come faster than a person could place them)."""
    puzzle = game.puzzle
    current = state(client, game)
    cells = [
        cell
        for cell, ch in enumerate(puzzle.givens)
        if ch == "0" and current["values"][cell] != puzzle.solution[cell]
    ]
    began = timezone.now()
    for n, cell in enumerate(cells, 1):
        if clock is not None:
            clock.move_to(began + datetime.timedelta(seconds=over * n / len(cells)))
        response = post(
            client,
            game,
            "moves",
            {
                "cell": cell,
                "digit": int(puzzle.solution[cell]),
                "mode": "value",
                "version": current["version"],
            },
        )
        assert response.status_code == 200, response.json()
        current = response.json()
    return current


@pytest.fixture
def player(client, alice):
    """A client logged in as alice."""
    client.force_login(alice)
    return client
