"""Web figures: requests per second and latency of the moves API, of the game page, and of a
trivial view (GET /robots.txt, no database) as the framework's ceiling on this machine; and
of the game page shed, as under a surge (its X-Request-Start stamp past SHED_AFTER_MS: a 503
with Retry-After, before any work).

The site runs as in production: gunicorn with 2 workers, DJANGO_DEBUG=0 (static files from
whitenoise's manifest), PostgreSQL (a scratch database at BENCH_WEB_PG_URL, dropped and
created afresh) and an embedded Redis. Each simulated player is a guest with a session and a
game of its own, on puzzles stocked before the server starts. BENCH_WEB_CLIENTS (50) players
keep one request each in flight for BENCH_WEB_SECONDS (30) per scenario, after a short
warm-up that is not counted. Every player keeps its one game through all scenarios, so its
move log grows with each move made (a couple of hundred moves by the end of a default run).

The machine has 2 cores for gunicorn, PostgreSQL and the load generator together, so the
load generator is kept as light as it can be: asyncio over raw keep-alive connections.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
from collections.abc import Coroutine
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from tests import harness

from .common import (
    GRACE,
    Connection,
    Failed,
    Tally,
    line,
    postgres_ready,
    prepare_site,
    report,
    site_env,
    timed,
)

PG_URL = os.environ.get("BENCH_WEB_PG_URL", "postgres://postgres@127.0.0.1:5432/bench_web")
SECONDS = float(os.environ.get("BENCH_WEB_SECONDS", "30"))
CLIENTS = int(os.environ.get("BENCH_WEB_CLIENTS", "50"))
WARMUP = min(2.0, SECONDS / 10)  # requests made but not counted, at the start of each scenario
# Players are split between LOAD_PROCESSES processes, their latencies merged. One is enough:
# on the ceiling, one asyncio process and two gave the same rate (4,400 requests/s on average
# over 6 alternating 10 s runs each), two at 65 us of client CPU a request against 55 us for
# one; http.client in 50 threads reached 3,500 at 140 us a request.
LOAD_PROCESSES = 1
SCENARIOS = {
    "moves": "moves API",
    "game": "game page",
    "ceiling": "ceiling /robots.txt",
    "shed": "shed game page",
}


@dataclass(frozen=True)
class Player:
    """A guest as the load generator knows it: its cookies, CSRF token and game."""

    cookie: str
    csrf: str
    game: int
    cells: tuple[int, ...]  # cells empty at the start (no givens): where moves go
    version: int

    @property
    def api(self) -> str:
        """The game's state in the API."""
        return f"/api/games/{self.game}"


# The site -----------------------------------------------------------------------------


def _prepare(env: dict[str, str]) -> None:
    """Schema, static files, a puzzle per player and today's dailies (so / makes none)."""
    prepare_site(env, ("seed_pool", "--difficulty", "easy", "--count", str(CLIENTS + 20), "--now"))


# The players --------------------------------------------------------------------------


def _new_player(port: int) -> Player:
    """A guest who opens the home page and starts an easy game."""
    guest = harness.Player(port, timeout=30, keep_alive=True)
    try:
        game = guest.start_game("easy")
        state = json.loads(guest.send("GET", f"/api/games/{game}")[2])
    finally:
        guest.close()
    cells = tuple(i for i, ch in enumerate(state["puzzle"]) if ch == "0")
    return Player(harness.cookie_header(guest.cookies), guest.token, game, cells, state["version"])


# The load -----------------------------------------------------------------------------


def _head(method: str, path: str, player: Player, port: int, json_body: bool = False) -> str:
    """A request's head, up to the Content-Length the connection adds."""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {player.cookie}\r\n"
    if json_body:
        head += f"X-CSRFToken: {player.csrf}\r\nContent-Type: application/json\r\n"
    return head


async def _mover(conn: Connection, player: Player, port: int, until: float, tally: Tally) -> None:
    """Moves on the player's own game: a digit in an empty cell, then clearing it, next cell;
    never the last digit, so the game never ends. Each move sends the version last seen."""
    head = _head("POST", f"/api/games/{player.game}/moves", player, port, json_body=True)
    version, turn = player.version, 0
    while time.monotonic() < until:
        cell = player.cells[turn // 2 % len(player.cells)]
        digit = 1 + turn // 2 % 9 if turn % 2 == 0 else 0
        body = json.dumps({"cell": cell, "digit": digit, "mode": "value", "version": version})
        state = await timed(tally, until, conn.request(head, body.encode()))
        if state is None:  # the error is counted; go on from the game as it stands
            state = await timed(tally, until, conn.request(_head("GET", player.api, player, port)))
            turn += turn % 2  # the next turn places a digit
        else:
            turn += 1
        if state is not None:
            version = json.loads(state)["version"]


async def _getter(conn: Connection, head: str, until: float, tally: Tally) -> None:
    """The same GET over and over."""
    while time.monotonic() < until:
        await timed(tally, until, conn.request(head))


async def _shed(conn: Connection, head: str) -> bytes:
    """A request the site should turn away: its body, or Failed when it was not a 503."""
    status, _, data = await conn.exchange(head)
    if status != 503:
        raise Failed(str(status))
    return data


async def _shed_getter(conn: Connection, head: str, until: float, tally: Tally) -> None:
    """The same GET over and over, each stamped as received by nginx a minute ago."""
    stamped = f"{head}X-Request-Start: t={time.time() - 60:.3f}\r\n"
    while time.monotonic() < until:
        await timed(tally, until, _shed(conn, stamped))


def _client(
    scenario: str, conn: Connection, player: Player, port: int, until: float, tally: Tally
) -> Coroutine[None, None, None]:
    """The loop one player runs in a scenario."""
    if scenario == "moves":
        return _mover(conn, player, port, until, tally)
    if scenario == "shed":
        head = _head("GET", f"/games/{player.game}/", player, port)
        return _shed_getter(conn, head, until, tally)
    path = f"/games/{player.game}/" if scenario == "game" else "/robots.txt"
    return _getter(conn, _head("GET", path, player, port), until, tally)


async def _load(port: int, scenario: str, players: list[Player], start: float) -> Tally:
    """Some players, each on a connection of its own, from start to the end of the scenario."""
    tally = Tally(counting_from=start + WARMUP)
    until = start + WARMUP + SECONDS
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    conns = [Connection(port) for _ in players]
    tasks = [
        asyncio.create_task(_client(scenario, conn, player, port, until, tally))
        for conn, player in zip(conns, players, strict=True)
    ]
    done, hung = await asyncio.wait(tasks, timeout=until + GRACE - time.monotonic())
    for task in hung:  # a request that never got its answer
        task.cancel()
        tally.errors += 1
    for task in done:
        task.result()  # a bug in the load generator, not the site: raise it
    for conn in conns:
        conn.close()
    return tally


def _load_process(port: int, scenario: str, players: list[Player], start: float) -> Tally:
    """One load process's share of the players."""
    return asyncio.run(_load(port, scenario, players, start))


def _run_scenario(port: int, scenario: str, players: list[Player]) -> tuple[float, Tally]:
    """Requests per second over the counted window, and the tallies of the load processes
    merged (latencies sorted)."""
    start = time.monotonic() + 0.5  # every process starts at once
    with ProcessPoolExecutor(LOAD_PROCESSES, mp_context=get_context("fork")) as pool:
        shares = [players[i::LOAD_PROCESSES] for i in range(LOAD_PROCESSES)]
        jobs = [pool.submit(_load_process, port, scenario, share, start) for share in shares]
        tallies = [job.result() for job in jobs]
    latencies = sorted(t for tally in tallies for t in tally.latencies)
    errors = sum(tally.errors for tally in tallies)
    return len(latencies) / SECONDS, Tally(start + WARMUP, latencies, errors)


def main() -> None:
    """Serve the site, make the players, run each scenario, stop everything."""
    print("== web")
    if not postgres_ready(PG_URL):
        print("(PostgreSQL did not answer at BENCH_WEB_PG_URL: skipped)")
        return
    started: list[harness.PrivateRedis | harness.Gunicorn] = []
    with tempfile.TemporaryDirectory(prefix="bench-web-") as scratch:
        try:
            started.append(redis := harness.PrivateRedis(Path(scratch)))
            env = site_env(PG_URL, redis.url)
            _prepare(env)
            started.append(site := harness.Gunicorn(env, clients=CLIENTS, echo=True))
            players = [_new_player(site.port) for _ in range(CLIENTS)]
            rates = {}
            for scenario, label in SCENARIOS.items():
                rates[scenario], tally = _run_scenario(site.port, scenario, players)
                report(f"web {label}", rates[scenario], tally)
        finally:
            for server in reversed(started):
                server.stop()
    ratio = rates["moves"] / rates["ceiling"]
    line("web moves API / ceiling", f"{ratio:.2f}", "goal: at least 0.5")
    line("web shed / game page", f"{rates['shed'] / rates['game']:.1f}", "answered at once")
