"""Helpers of the web tests: public sample puzzles graded, games played through the URLs
and the API, a day's dailies, puzzles stocked, heartbeats seen and move logs replayed.
(learning.py holds the puzzles the technique guide's tests store.)"""

from __future__ import annotations

import datetime
import functools
import itertools
import json
import random

from django.test import Client
from django.utils import timezone

import engine
from puzzles.models import Game, Heartbeat, Puzzle
from puzzles.pools.stock import insert_new, puzzle_row

from ..engine.helpers import load

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


def start(client, difficulty: str = "easy") -> Game:
    """Start a game through the site, as the client's player."""
    response = client.post(f"/play/{difficulty}/")
    assert response.status_code == 302, response
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


# Two devices of one player, as the batched changes name them.
PHONE, LAPTOP = "phone-0001", "laptop-0002"


def empty_cells(game: Game) -> list[int]:
    """The cells the puzzle leaves empty."""
    return [c for c, ch in enumerate(game.puzzle.givens) if ch == "0"]


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


# The day the ranking tests play.
NOON = datetime.datetime(2026, 6, 15, 12, 0, tzinfo=datetime.UTC)
DAY = "2026-06-15"


def daily_game(client: Client, difficulty: str = "easy") -> Game:
    """Open the daily of DAY in the tier, as the client's player."""
    response = client.post(f"/daily/{DAY}/{difficulty}/")
    assert response.status_code == 302, response
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def logged_in(user) -> Client:
    """A new client logged in as the user."""
    client = Client()
    client.force_login(user)
    return client


def stock(difficulty: str, n: int, seed: int = 0) -> list[Puzzle]:
    """n fresh puzzles of the difficulty made and stored; all of its puzzles stored."""
    rng = random.Random(seed)
    rows = [puzzle_row(engine.make_puzzle(difficulty, seed=rng)) for _ in range(n)]
    insert_new(rows)
    return list(Puzzle.objects.filter(difficulty=difficulty))


def seen(
    kind: str,
    name: str,
    seconds_ago: float,
    stopped: bool = False,
    broker_lost_seconds_ago: float | None = None,
) -> Heartbeat:
    """A heartbeat row as the process would have written it seconds_ago (and, with
    broker_lost_seconds_ago, a process that has not reached the broker since then)."""
    now = timezone.now()
    when = now - datetime.timedelta(seconds=seconds_ago)
    lost = broker_lost_seconds_ago
    return Heartbeat.objects.create(
        kind=kind,
        name=name,
        pid=4242,
        started_at=when - datetime.timedelta(hours=1),
        seen_at=when,
        stopped_at=when if stopped else None,
        broker_lost_at=None if lost is None else now - datetime.timedelta(seconds=lost),
    )


def replay(givens: str, log: list[list[dict]]) -> tuple[str, list[list[int]]]:
    """The board a log (each move's changes) leads to, from the puzzle, applying each
    change's after side."""
    values = [int(ch) for ch in givens]
    notes: list[list[int]] = [[] for _ in range(81)]
    for changes in log:
        for change in changes:
            values[change["cell"]], notes[change["cell"]] = (
                change["after"][0],
                list(change["after"][1]),
            )
    return "".join(map(str, values)), notes
