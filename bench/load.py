"""Load figures: whole games played by many players at once while the pool refills, at
BENCH_LOAD_PLAYERS (50, 100, 200) players, one level after the other on the same site.

The site runs as in production, as in bench/web.py: gunicorn with 2 workers, DJANGO_DEBUG=0,
PostgreSQL (a scratch database at BENCH_LOAD_PG_URL, dropped and created afresh) and an
embedded Redis as broker and cache; besides, one Celery worker refills the pools and Celery
beat checks them every 5 s. The easy pool is set to a low mark of 300, a high mark of 1,000
and batches of 50, and stocked to 1,000 before the server starts; the other pools are
stocked to their high marks and today's dailies picked, so no request makes a puzzle.

Each simulated player is a new guest (GET / once, for its CSRF token) who plays easy games
back to back: POST /play/easy/ (a 302 to the game), the game's state, 30 moves (fewer in
the first game, see Player), a hint, and then the moves that finish the game, solved. The
player knows the solution (the engine solves the givens in this process): its first moves
are a wrong digit and its correction, by turns with right ones, and the finish fills every
cell still empty. Each level runs for BENCH_LOAD_SECONDS
(60) after a short warm-up that is not counted, once the easy stock is back at its low mark;
the stock is read from /healthz every second meanwhile. Every answer must be a 2xx (the 302
for a new game): anything else, a broken connection or a request taking longer than TIMEOUT
counts as an error.

The load generator is bench/web.py's: asyncio over raw keep-alive connections, in this one
process, a few percent of a core on this 2-core machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import io
import json
import os
import random
import re
import signal
import tempfile
import time
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import engine
from tests import harness

from .common import (
    Connection,
    Failed,
    Tally,
    line,
    p99,
    postgres_ready,
    prepare_site,
    report,
    site_env,
    timed,
)

PG_URL = os.environ.get("BENCH_LOAD_PG_URL", "postgres://postgres@127.0.0.1:5432/bench_load")
SECONDS = float(os.environ.get("BENCH_LOAD_SECONDS", "60"))
PLAYERS = [int(n) for n in os.environ.get("BENCH_LOAD_PLAYERS", "50,100,200").split(",")]
WARMUP = min(5.0, SECONDS / 10)  # requests made but not counted, at the start of each level
MOVES = 30  # moves a game, then a hint and the moves that solve it
TIMEOUT = 10.0  # seconds a request may take before it counts as failed
LOW, HIGH, BATCH = 300, 1000, 50  # the easy pool's target; stocked to HIGH at the start
REFILL_SECONDS = 300  # how long a level waits for the easy stock to be back at LOW
ENDPOINTS = ("new game", "state", "move", "hint", "finish")
# Players open a new connection for every game (see Player), which goes to whichever gunicorn
# worker accepts it first, most often the less busy one: the workers' CPU time came out at
# 13 s and 9 s, then 11 s and 11 s over 20 s levels of 50 players. So gunicorn is told of
# twice as many clients as the largest level has players: each worker may hold all their
# connections. With web.py's cap of half each, a full worker left a new game's connection in
# the listen queue until a closed one was reaped: new games' p99 was 3.2 s at 50 players.
CLIENTS = 2 * max(PLAYERS)
# The easy target as above; the other pools stocked to their high marks, so that beat has
# nothing to make for them and the worker only ever refills the easy pool.
STOCK_POOLS = f"""
from django.core.management import call_command
from puzzles.models import PoolTarget
PoolTarget.objects.update_or_create(
    difficulty="easy", defaults={{"low": {LOW}, "high": {HIGH}, "batch_size": {BATCH}}}
)
for target in PoolTarget.objects.exclude(difficulty="easy"):
    call_command("seed_pool", difficulty=target.difficulty, count=target.high, top_up=True,
                 now=True)
"""

T = TypeVar("T")


@dataclass
class Level:
    """What one level measured."""

    players: int
    tallies: dict[str, Tally]  # by endpoint
    stock: list[int | None]  # the fresh easy stock, read once a second (None: read failed)
    start_stock: int  # the fresh easy stock when the level began

    def per_second(self, endpoint: str) -> float:
        """Requests per second counted for an endpoint."""
        return len(self.tallies[endpoint].latencies) / SECONDS

    @property
    def moves_per_second(self) -> float:
        """Moves of every kind (playing and finishing) per second."""
        return self.per_second("move") + self.per_second("finish")

    @property
    def errors(self) -> int:
        """Failed requests, all endpoints together."""
        return sum(tally.errors for tally in self.tallies.values())


# The site -----------------------------------------------------------------------------


def _env(redis_url: str) -> dict[str, str]:
    """The environment of every process of the site; beat checks the pools every 5 s."""
    return site_env(PG_URL, redis_url) | {"REFILL_INTERVAL_SECONDS": "5"}


def _prepare(env: dict[str, str]) -> None:
    """Schema, static files, the pools' targets and stock, today's dailies."""
    seed_easy = ("seed_pool", "--difficulty", "easy", "--count", str(HIGH), "--now")
    prepare_site(env, ("shell", "-c", STOCK_POOLS), seed_easy)


def _start_celery(env: dict[str, str], scratch: Path, started: list) -> None:
    """One Celery worker (one process) and beat, each on the list of processes to stop as
    soon as it runs, so that an interruption while the worker gets ready leaves nothing."""
    # No start checks: they would send refill_pools and ensure_daily, and the preparation
    # has just stocked every pool and picked today's dailies, so they would find nothing to
    # do. Off, the worker is as one that has been up for a long while: every refill during
    # the run is one that beat (every 5 s) or a new game taking the pool below 300 started.
    started.append(worker := harness.WorkerProcess(env | {"WORKER_START_CHECKS": "0"}, wait=False))
    worker.ready()
    started.append(harness.Beat(env, scratch))


def _easy_stock(port: int) -> int:
    """The fresh easy stock, as GET /healthz tells it."""
    return json.loads(harness.Player(port, TIMEOUT).send("GET", "/healthz")[2])["pools"]["easy"]


def _wait_for_stock(port: int) -> int:
    """Wait until the fresh easy stock is back at its low mark; the stock then."""
    deadline = time.monotonic() + REFILL_SECONDS
    while (stock := _easy_stock(port)) < LOW:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the easy stock is still {stock} after {REFILL_SECONDS} s")
        time.sleep(1)
    return stock


# The players --------------------------------------------------------------------------


def _open_sessions(port: int, count: int) -> list[tuple[dict[str, str], str]]:
    """New guests, each having opened the home page once: their cookies and CSRF tokens."""
    guests = [harness.Player(port, timeout=30) for _ in range(count)]
    for guest in guests:
        guest.open_home()
    return [(guest.cookies, guest.token) for guest in guests]


async def _within(seconds: float, request: Awaitable[T]) -> T:
    """Await a request, which fails with TimeoutError (an OSError) if it takes too long."""
    async with asyncio.timeout(seconds):
        return await request


async def _redirect(conn: Connection, head: str) -> bytes:
    """Send a request that must answer a 302; the answer's head."""
    status, answer, _ = await conn.exchange(head)
    if status != 302:
        raise Failed(str(status))
    return answer


def _state(answer: bytes | None) -> dict | None:
    """The game's state from an API answer's body, if there is one."""
    return None if answer is None else json.loads(answer)


def _headers(answer: bytes) -> http.client.HTTPMessage:
    """The headers of an answer's head."""
    return http.client.parse_headers(io.BytesIO(answer.split(b"\r\n", 1)[1]))


class Player:
    """A guest playing easy games back to back until time is up, each game over a new
    keep-alive connection. A connection held for a whole level stays with the worker that
    accepted it: at 50 players the workers' CPU time split 6 s to 17 s over 20 s; opened
    anew every game, connections keep going to the worker that has time for them.

    The first game stops after a random number of moves, so that the players are spread
    over a game's steps from the start: started together, they stayed in step, and all 200
    asked for a new game, then for a hint, at the same moment."""

    def __init__(
        self,
        session: tuple[dict[str, str], str],
        port: int,
        until: float,
        tallies: dict[str, Tally],
        first_moves: int,
    ) -> None:
        self.jar, self.csrf = session
        self.port, self.until, self.tallies = port, until, tallies
        self.first_moves = first_moves
        self.conn = Connection(port)

    @property
    def over(self) -> bool:
        """Whether time is up."""
        return time.monotonic() >= self.until

    async def run(self) -> None:
        """Games, one after another, until time is up."""
        moves = self.first_moves
        while not self.over:
            if not await self.play(moves):
                await asyncio.sleep(0.5)  # no game to play: don't hammer the site
            self.conn.close()
            moves = MOVES

    async def play(self, moves: int) -> bool:
        """One game: start it, read it, make the moves, take a hint, solve it; cut short when
        time is up. False when the game could not be started or read."""
        game = await self.new_game()
        if game is None:
            return False
        api = f"/api/games/{game}"
        answer = await self.call("state", "GET", api)
        if answer is None:
            return False
        state = json.loads(answer)
        solution = engine.solve(state["puzzle"])
        state = await self.make_moves(api, state, solution, moves)
        hint = {"level": 1, "version": state["version"]}
        state = _state(await self.call("hint", "POST", f"{api}/hint", hint)) or state
        await self.finish(api, state, solution)
        return True

    async def finish(self, api: str, state: dict, solution: str) -> None:
        """Fill every cell still empty or wrong with its digit: the game ends solved."""
        for cell in range(81):
            if self.over or state["status"] != "playing":
                return
            if state["values"][cell] == solution[cell]:
                continue
            move = {"cell": cell, "digit": int(solution[cell]), "version": state["version"]}
            answer = await self.call("finish", "POST", f"{api}/moves", move)
            state = _state(answer) or _state(await self.call("state", "GET", api)) or state

    async def new_game(self) -> int | None:
        """POST /play/easy/, a 302 to the new game: its id; None on failure or once time is up."""
        if self.over:
            return None
        head = self.head("POST", "/play/easy/", "application/x-www-form-urlencoded")
        request = _within(TIMEOUT, _redirect(self.conn, head))
        answer = await timed(self.tallies["new game"], self.until, request)
        if answer is None:
            return None
        headers = _headers(answer)
        # The session cookie, on the guest's first game.
        self.jar |= harness.set_cookies(headers.items())
        return int(re.fullmatch(r"/games/(\d+)/", headers["Location"]).group(1))

    async def make_moves(self, api: str, state: dict, solution: str, moves: int) -> dict:
        """Moves on cells empty at the start, in order: every other cell first gets a wrong
        digit and then its own; the rest their own at once. Each sends the version last
        seen; the state after them."""
        plan = []
        for n, cell in enumerate(i for i, ch in enumerate(state["puzzle"]) if ch == "0"):
            right = int(solution[cell])
            if n % 2 == 0:
                plan.append((cell, right % 9 + 1))  # a wrong digit, put right next
            plan.append((cell, right))
        for cell, digit in plan[:moves]:
            if self.over:
                break
            move = {"cell": cell, "digit": digit, "mode": "value", "version": state["version"]}
            answer = await self.call("move", "POST", f"{api}/moves", move)
            # Failed (counted) or time is up: go on from the game's state.
            state = _state(answer) or _state(await self.call("state", "GET", api)) or state
        return state

    async def call(
        self, endpoint: str, method: str, path: str, payload: dict | None = None
    ) -> bytes | None:
        """A request to the API timed under its endpoint, with a JSON payload if any: the
        answer's body; None on failure or once time is up."""
        if self.over:
            return None
        body = b"" if payload is None else json.dumps(payload).encode()
        head = self.head(method, path, "application/json" if payload is not None else None)
        request = _within(TIMEOUT, self.conn.request(head, body))
        return await timed(self.tallies[endpoint], self.until, request)

    def head(self, method: str, path: str, content_type: str | None = None) -> str:
        """A request's head, up to the Content-Length the connection adds."""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        head += f"Cookie: {harness.cookie_header(self.jar)}\r\n"
        if method == "POST":
            head += f"X-CSRFToken: {self.csrf}\r\nContent-Type: {content_type}\r\n"
        return head


# The load -----------------------------------------------------------------------------


async def _sample_stock(port: int, until: float, samples: list[int | None]) -> None:
    """The fresh easy stock from /healthz, once a second until the end (None for a read
    that failed)."""
    conn = Connection(port)
    head = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    tick = time.monotonic()
    while tick < until:
        samples.append(None)
        with contextlib.suppress(Failed, OSError, ValueError, asyncio.IncompleteReadError):
            samples[-1] = json.loads(await _within(TIMEOUT, conn.request(head)))["pools"]["easy"]
        tick += 1
        await asyncio.sleep(max(0.0, tick - time.monotonic()))
    conn.close()


async def _load(port: int, sessions: list[tuple[dict[str, str], str]], start_stock: int) -> Level:
    """The players, each playing from now to the end of the level, and the stock sampled."""
    counting_from = time.monotonic() + WARMUP
    until = counting_from + SECONDS
    tallies = {endpoint: Tally(counting_from=counting_from) for endpoint in ENDPOINTS}
    first_moves = random.Random(len(sessions))  # the same spread at every run
    players = [
        Player(session, port, until, tallies, first_moves.randint(0, MOVES)) for session in sessions
    ]
    stock: list[int | None] = []
    try:
        await asyncio.gather(
            _sample_stock(port, until, stock), *(player.run() for player in players)
        )
    finally:
        for player in players:
            player.conn.close()
    return Level(len(players), tallies, stock, start_stock)


def _run_level(port: int, players: int) -> Level:
    """Wait for the easy stock, open the players' sessions, run the load."""
    start_stock = _wait_for_stock(port)
    return asyncio.run(_load(port, _open_sessions(port, players), start_stock))


def _report(level: Level) -> None:
    """The level's lines: moves per second and the stock, then each endpoint."""
    read = [n for n in level.stock if n is not None]
    low = min(read, default=None)
    dry = ["THE POOL RAN DRY"] if low == 0 else []
    unread = len(level.stock) - len(read)
    dry += [f"{unread} stock reads failed"] if unread else []
    line(
        f"load {level.players} players",
        f"{level.moves_per_second:,.0f} moves/s",
        f"fresh easy min {low}",
        f"at start {level.start_stock}",
        *dry,
    )
    for endpoint in ENDPOINTS:
        report(
            f"load {level.players} {endpoint}", level.per_second(endpoint), level.tallies[endpoint]
        )


def _compare(levels: list[Level]) -> None:
    """Moves per second and the moves' p99 across the levels, on one line."""
    players = " / ".join(str(level.players) for level in levels)
    rates = " / ".join(f"{level.moves_per_second:,.0f}" for level in levels)
    p99s = " / ".join(f"{p99(level.tallies['move'].latencies) * 1e3:.0f}" for level in levels)
    line(f"load {players} players", f"{rates} moves/s", f"move p99 {p99s} ms")
    errors = sum(level.errors for level in levels)
    dry = sum(0 in level.stock for level in levels)
    line("goal: no errors", "met" if errors == 0 else f"MISSED: {errors} errors")
    line("goal: stock never at zero", "met" if dry == 0 else f"MISSED at {dry} levels")


@contextlib.contextmanager
def _interruptible() -> Iterator[None]:
    """Ctrl-C and SIGTERM raise KeyboardInterrupt, so that the cleanup runs either way (set
    explicitly: a shell that starts us in the background leaves SIGINT ignored)."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    handlers = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: interrupt}
    previous = {sig: signal.signal(sig, handler) for sig, handler in handlers.items()}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def _uninterrupted() -> Iterator[None]:
    """Neither Ctrl-C nor SIGTERM cuts what runs inside (the cleanup)."""
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def main() -> None:
    """Serve the site with its worker and beat, run each level, stop everything."""
    print("== load")
    if not postgres_ready(PG_URL):
        print("(PostgreSQL did not answer at BENCH_LOAD_PG_URL: skipped)")
        return
    started: list[harness.PrivateRedis | harness.Child] = []
    levels: list[Level] = []
    with tempfile.TemporaryDirectory(prefix="bench-load-") as scratch, _interruptible():
        try:
            started.append(redis := harness.PrivateRedis(Path(scratch)))
            env = _env(redis.url)
            _prepare(env)
            _start_celery(env, Path(scratch), started)
            started.append(site := harness.Gunicorn(env, clients=CLIENTS, echo=True))
            for players in PLAYERS:
                levels.append(_run_level(site.port, players))
                _report(levels[-1])
        finally:
            with _uninterrupted():
                for server in reversed(started):
                    server.stop()
    _compare(levels)
