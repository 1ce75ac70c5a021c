"""The site under faults of its database: PostgreSQL stopped and restarted while players
make moves and start games, on gunicorn's gthread workers as in production."""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import dataclass, field

import pytest

from ...harness import (
    Gunicorn,
    Player,
    PrivatePostgres,
    PrivateRedis,
    background,
    manage,
    production_env,
    wait_until,
)
from ..helpers import replay

pytestmark = pytest.mark.worker  # starts real servers

PLAYERS = 6
NEW_GAME_EVERY = 12  # actions; the others are moves, and a look at the home page
ANSWERS = {  # what each kind of request may get: success, or a clean "try again"
    "move": {200, 409, 503},  # 409: a move the site saved while its answer was lost
    "new game": {302, 503},
    "state": {200, 503},
    "page": {200, 503},
}
API = {"move", "state"}


@dataclass
class Answer:
    """One request a player sent, and how the site answered (-1: it did not)."""

    sent: float
    answered: float
    kind: str
    status: int
    retry_after: str | None = None
    json_error: bool = False  # the body is JSON with an "error" message


@dataclass
class Table:
    """One player at the site: the game in play, every answer, every move accepted."""

    player: Player
    rng: random.Random
    game: int = 0
    version: int = 0
    values: str = ""
    givens: str = ""
    stale: bool = True  # the state must be fetched before the next move
    answers: list[Answer] = field(default_factory=list)
    accepted: list[tuple[int, int, int, int]] = field(default_factory=list)  # game, no, cell, digit

    def ask(self, kind: str, method: str, path: str, body: object = None) -> tuple[int, dict, str]:
        """Send one request and note the answer."""
        sent = time.monotonic()
        try:
            status, raw_headers, text = self.player.send(method, path, body)
        except OSError:  # a timeout or a dropped connection: never acceptable
            self.answers.append(Answer(sent, time.monotonic(), kind, -1))
            return -1, {}, ""
        headers = {name.lower(): value for name, value in raw_headers.items()}
        is_json = headers.get("content-type", "").startswith("application/json")
        error = status >= 400 and is_json and "error" in json.loads(text)
        answer = Answer(sent, time.monotonic(), kind, status, headers.get("retry-after"), error)
        self.answers.append(answer)
        return status, headers, text

    def take(self, state: dict) -> None:
        """Follow the state the site sent."""
        self.version, self.values, self.givens = state["version"], state["values"], state["puzzle"]
        self.stale = state["status"] != "playing"

    def new_game(self) -> None:
        status, headers, _ = self.ask("new game", "POST", "/play/easy/")
        if status == 302:
            self.game, self.stale = int(headers["location"].rstrip("/").split("/")[-1]), True

    def load(self) -> None:
        status, _, text = self.ask("state", "GET", f"/api/games/{self.game}")
        if status == 200:
            self.take(json.loads(text))

    def move(self) -> None:
        """A digit other than the one there into a cell that is not a given."""
        cell = self.rng.choice([c for c, ch in enumerate(self.givens) if ch == "0"])
        digit = self.rng.choice([d for d in range(1, 10) if str(d) != self.values[cell]])
        body = {"cell": cell, "digit": digit, "mode": "value", "version": self.version}
        status, _, text = self.ask("move", "POST", f"/api/games/{self.game}/moves", body)
        if status == 200:
            self.take(json.loads(text))
            self.accepted.append((self.game, self.version, cell, digit))
        elif status == 409:
            self.take(json.loads(text)["state"])
        else:
            self.stale = True

    def play(self, stop: threading.Event) -> None:
        """Moves, a look at the home page, a new game now and then, until told to stop."""
        for turn in range(1, 10**9):
            if stop.is_set():
                return
            if turn % NEW_GAME_EVERY == 0:
                self.new_game()
            elif turn % NEW_GAME_EVERY == NEW_GAME_EVERY // 2:
                self.ask("page", "GET", "/")
            elif self.stale and (not self.givens or turn % 2):
                self.load()
            else:  # with a state that may be stale, as a page with queued moves sends them
                self.move()
            time.sleep(0.02)

    def count(self, kind: str, statuses: set[int], since: float = 0.0) -> int:
        """How many requests of a kind, sent since then, got one of the statuses."""
        return sum(
            a.kind == kind and a.status in statuses and a.sent >= since for a in self.answers
        )


@pytest.fixture
def postgres():
    server = PrivatePostgres()
    yield server
    server.destroy()


@pytest.fixture
def redis_server():
    server = PrivateRedis()
    yield server
    server.stop()


def stored_games(postgres: PrivatePostgres) -> dict[int, tuple]:
    """Every game's givens, board and counters, and its move log, straight from the database."""
    rows = postgres.query(
        'SELECT g.id, p.givens, g."values", g.notes, g.version, g.moves_applied, g.moves_logged '
        "FROM puzzles_game g JOIN puzzles_puzzle p ON p.id = g.puzzle_id"
    )
    moves = postgres.query(
        "SELECT game_id, number, kind, cell, digit, changes FROM puzzles_move "
        "ORDER BY game_id, number"
    )
    return {row[0]: (*row[1:], [m[1:] for m in moves if m[0] == row[0]]) for row in rows}


def assert_no_accepted_move_lost(tables: list[Table], games: dict[int, tuple]) -> None:
    """Each move that got a 200 is in its game's log, in its place; each board is its log
    replayed; no log has a gap."""
    for table in tables:
        for game, number, cell, digit in table.accepted:
            log = games[game][-1]
            assert (number, "value", cell, digit) in [m[:4] for m in log], (game, number)
    for givens, values, notes, version, applied, logged, log in games.values():
        assert [m[0] for m in log] == list(range(1, len(log) + 1))
        assert version == applied == logged == len(log)
        replayed_values, replayed_notes = replay(givens, [m[4] for m in log])
        assert values == replayed_values
        assert (notes if len(notes) == 81 else [[] for _ in range(81)]) == replayed_notes


def test_a_postgres_restart_fails_requests_cleanly_and_the_site_recovers_by_itself(
    postgres, redis_server
):
    env = production_env(postgres.url, redis_server.url)
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "seed_pool", "--difficulty", "easy", "--count", "40", "--now")
    site = Gunicorn(env)  # gthread workers
    try:
        tables = [Table(Player(site.port, timeout=20), random.Random(i)) for i in range(PLAYERS)]
        for table in tables:
            table.game = table.player.start_game()
        stop, clock = threading.Event(), {}

        def all_have(kind: str, statuses: set[int], least: int, since: str = "") -> bool:
            return all(t.count(kind, statuses, clock.get(since, 0)) >= least for t in tables)

        with background(*(lambda t=t: t.play(stop) for t in tables), stop=stop) as failures:

            def wait_for(condition, what: str) -> None:
                """Wait for the condition, or stop at once if a player's thread failed."""
                wait_until(lambda: bool(failures) or condition(), seconds=120, what=what)
                assert not failures, "a player stopped playing"

            wait_for(lambda: all_have("move", {200}, 5), "play under way")
            clock["stopping"] = time.monotonic()
            postgres.stop()
            clock["down"] = time.monotonic()
            wait_for(
                lambda: all(all_have(kind, {503}, 3, "down") for kind in ANSWERS),
                "every player meeting the outage in every kind of request, a few times",
            )
            health = Player(site.port).send("GET", "/healthz")
            assert health[0] == 503 and json.loads(health[2])["database"] == "down", health
            clock["starting"] = time.monotonic()
            postgres.start()
            clock["up"] = time.monotonic()
            wait_for(
                lambda: all_have("move", {200}, 10, "up") and all_have("new game", {302}, 1, "up"),
                "moves and new games after the restart",
            )

        answers = [a for t in tables for a in t.answers]
        wrong = [a for a in answers if a.status not in ANSWERS[a.kind]]
        # Never a 500, never a hang or a dropped connection.
        assert not wrong, (wrong[:10], site.output()[-4000:])
        refusals = [a for a in answers if a.status == 503]
        assert all(a.retry_after for a in refusals), "a 503 without Retry-After"
        assert all(a.json_error for a in refusals if a.kind in API), "an API 503 without JSON"
        # Refused only while the database was going down, down, or not yet back.
        late = [a for a in refusals if a.answered < clock["stopping"] or a.sent >= clock["up"]]
        errors = sorted({line for line in site.output().splitlines() if "Error" in line})
        assert not late, (late, clock, errors)
        down = [a for a in answers if clock["down"] <= a.sent < clock["starting"]]
        assert {a.status for a in down} == {503}  # nothing pretends to work while it is down
        assert site.process.poll() is None  # the same gunicorn throughout

        health = Player(site.port).send("GET", "/healthz")
        assert health[0] == 200 and json.loads(health[2])["database"] == "ok", health
        games = stored_games(postgres)
        assert_no_accepted_move_lost(tables, games)
        for table in tables:  # and each player's view agrees with the database
            status, _, text = table.player.send("GET", f"/api/games/{table.game}")
            assert status == 200
            assert json.loads(text)["version"] == games[table.game][3]
    finally:
        site.stop()
