"""Web figures: requests per second and latency of the moves API, of the game page, and of a
trivial view (GET /robots.txt, no database) as the framework's ceiling on this machine.

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
import http.client
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Coroutine
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from .common import line

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("BENCH_WEB_PG_URL", "postgres://postgres@127.0.0.1:5432/bench_web")
SECONDS = float(os.environ.get("BENCH_WEB_SECONDS", "30"))
CLIENTS = int(os.environ.get("BENCH_WEB_CLIENTS", "50"))
WARMUP = min(2.0, SECONDS / 10)  # requests made but not counted, at the start of each scenario
WORKERS = 2
# gthread, 4 threads a worker. It keeps connections alive, where the sync worker closes each
# one after its answer and every request pays a TCP connect on both sides, and a worker's
# other threads go on while one waits on PostgreSQL. Measured here (10 s runs, ceiling and
# moves requests/s): sync 2,700 and 340, gthread with 2 threads 4,900 and 360, 4 threads
# 4,800 and 370, 8 threads 4,400 and 320. Each worker takes at most half the players'
# connections (--worker-connections), so that the keep-alive connections, accepted by
# whichever worker is quicker, split evenly: left alone they split 47 to 3 or 2 to 48, and
# the worker with 2 players sat at 40% CPU in the moves scenario.
WORKER_ARGS = ["--worker-class", "gthread", "--threads", "4"]
# Players are split between LOAD_PROCESSES processes, their latencies merged. One is enough:
# on the ceiling, one asyncio process and two gave the same rate (4,400 requests/s on average
# over 6 alternating 10 s runs each), two at 65 us of client CPU a request against 55 us for
# one; http.client in 50 threads reached 3,500 at 140 us a request.
LOAD_PROCESSES = 1
GRACE = 30  # seconds a request may still take after the end before it counts as failed
SCENARIOS = {"moves": "moves API", "game": "game page", "ceiling": "ceiling /robots.txt"}


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


@dataclass
class Tally:
    """What one load process measured: latencies in seconds, and failed requests."""

    counting_from: float = 0.0  # requests that start earlier are the warm-up
    latencies: list[float] = field(default_factory=list)
    errors: int = 0


# The site -----------------------------------------------------------------------------


def _postgres_ready() -> bool:
    """Drop and create the scratch database; False when PostgreSQL does not answer."""
    import psycopg

    server, _, name = PG_URL.rpartition("/")
    try:
        with psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=2) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return True
    except psycopg.Error:
        return False


def _manage(env: dict[str, str], *args: str) -> None:
    """Run a manage.py command quietly; its output only if it fails."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")


def _prepare(env: dict[str, str]) -> None:
    """Schema, static files, a puzzle per player and today's dailies (so / makes none)."""
    _manage(env, "migrate", "--noinput")
    _manage(env, "collectstatic", "--noinput")  # into STATIC_ROOT, var/static
    _manage(env, "seed_pool", "--difficulty", "easy", "--count", str(CLIENTS + 20), "--now")
    _manage(
        env, "shell", "-c", "from puzzles.daily import ensure_daily, today; ensure_daily(today())"
    )


def _start_gunicorn(env: dict[str, str], port: int) -> subprocess.Popen:
    """gunicorn on 127.0.0.1:port in a process group of its own."""
    command = [sys.executable, "-m", "gunicorn", "sudokusite.wsgi", "--workers", str(WORKERS)]
    command += [*WORKER_ARGS, "--worker-connections", str(-(-CLIENTS // WORKERS))]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)


def _wait_until_serving(server: subprocess.Popen, port: int, seconds: float = 30) -> None:
    """Return once the site answers /robots.txt with a 200; fail if gunicorn exits, time runs
    out or the answer is another status."""
    deadline = time.monotonic() + seconds
    while (status := _get_status(port, "/robots.txt")) is None:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with status {server.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the site did not answer on port {port} within {seconds} s")
        time.sleep(0.1)
    if status != 200:
        raise RuntimeError(f"GET /robots.txt answered {status}, not 200")


def _get_status(port: int, path: str) -> int | None:
    """The status of a GET, None when nothing answers."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    except OSError:
        return None
    finally:
        conn.close()


# The players --------------------------------------------------------------------------


def _cookies(response: http.client.HTTPResponse) -> dict[str, str]:
    """The cookies a response sets, name to value."""
    pairs = (header.split(";", 1)[0] for header in response.headers.get_all("Set-Cookie") or [])
    return dict(pair.strip().split("=", 1) for pair in pairs)


def _new_player(port: int) -> Player:
    """A guest who opens the home page and starts an easy game."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/")
    response = conn.getresponse()
    html = response.read().decode()
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    if response.status != 200 or token is None:
        raise RuntimeError(f"GET / answered {response.status}, without a CSRF token")
    jar, csrf = _cookies(response), token.group(1)
    headers = {"X-CSRFToken": csrf, "Content-Type": "application/x-www-form-urlencoded"}
    conn.request("POST", "/play/easy/", body=b"", headers={**headers, "Cookie": _header(jar)})
    response = conn.getresponse()
    response.read()
    if response.status != 302:
        raise RuntimeError(f"POST /play/easy/ answered {response.status}")
    jar |= _cookies(response)
    game = int(re.search(r"/games/(\d+)/", response.headers["Location"]).group(1))
    conn.request("GET", f"/api/games/{game}", headers={"Cookie": _header(jar)})
    state = json.loads(conn.getresponse().read())
    conn.close()
    cells = tuple(i for i, ch in enumerate(state["puzzle"]) if ch == "0")
    return Player(_header(jar), csrf, game, cells, state["version"])


def _header(jar: dict[str, str]) -> str:
    """A Cookie header."""
    return "; ".join(f"{name}={value}" for name, value in jar.items())


# The load -----------------------------------------------------------------------------


class Failed(Exception):
    """A request answered with a status that is not 2xx."""


class Connection:
    """One keep-alive HTTP/1.1 connection over asyncio streams, reopened when the server
    closes it; just enough HTTP for this site's answers (always with Content-Length)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, head: str, body: bytes = b"") -> bytes:
        """Send a request (head without the final blank line) and return the answer's body."""
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        try:
            writer.write(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
            answer = (await reader.readuntil(b"\r\n\r\n")).lower()
            start = answer.index(b"\r\ncontent-length:") + 17
            data = await reader.readexactly(int(answer[start : answer.index(b"\r\n", start)]))
        except (OSError, ValueError, asyncio.IncompleteReadError):
            self.close()
            raise
        if b"\r\nconnection: close" in answer:
            self.close()
        if not answer.startswith(b"http/1.1 2"):
            raise Failed(answer[9:12].decode())
        return data

    def close(self) -> None:
        """Drop the connection; the next request opens a new one."""
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


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
        state = await _timed(tally, until, conn.request(head, body.encode()))
        if state is None:  # the error is counted; go on from the game as it stands
            state = await _timed(tally, until, conn.request(_head("GET", player.api, player, port)))
            turn += turn % 2  # the next turn places a digit
        else:
            turn += 1
        if state is not None:
            version = json.loads(state)["version"]


async def _getter(conn: Connection, head: str, until: float, tally: Tally) -> None:
    """The same GET over and over."""
    while time.monotonic() < until:
        await _timed(tally, until, conn.request(head))


async def _timed(tally: Tally, until: float, request: Awaitable[bytes]) -> bytes | None:
    """Await a request; its latency if it started after the warm-up and ended in time, or
    its failure; the answer's body, None on failure."""
    start = time.monotonic()
    try:
        body = await request
    except (Failed, OSError, ValueError, asyncio.IncompleteReadError):
        tally.errors += 1
        return None
    end = time.monotonic()
    if start >= tally.counting_from and end <= until:
        tally.latencies.append(end - start)
    return body


def _client(
    scenario: str, conn: Connection, player: Player, port: int, until: float, tally: Tally
) -> Coroutine[None, None, None]:
    """The loop one player runs in a scenario."""
    if scenario == "moves":
        return _mover(conn, player, port, until, tally)
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


def _report(label: str, per_second: float, tally: Tally) -> None:
    """One line of figures."""
    times = tally.latencies
    p99 = times[int(len(times) * 0.99)] if times else float("nan")
    median = statistics.median(times) if times else float("nan")
    line(
        label,
        f"{per_second:,.0f} requests/s",
        f"median {median * 1e3:.1f} ms",
        f"p99 {p99 * 1e3:.1f} ms",
        f"errors {tally.errors}",
    )


def main() -> None:
    """Serve the site, make the players, run each scenario, stop everything."""
    print("== web")
    if not _postgres_ready():
        print("(PostgreSQL did not answer at BENCH_WEB_PG_URL: skipped)")
        return
    from sudokusite.launcher import free_port, start_redis, stop, wait_for_port

    processes: list[tuple[str, subprocess.Popen]] = []
    with tempfile.TemporaryDirectory(prefix="bench-web-") as scratch:
        try:
            redis_port, port = free_port(), free_port()
            processes.append(("redis", start_redis(redis_port, Path(scratch))))
            wait_for_port(redis_port)
            env = _site_env(redis_port)
            _prepare(env)
            processes.append(("gunicorn", _start_gunicorn(env, port)))
            _wait_until_serving(processes[-1][1], port)
            players = [_new_player(port) for _ in range(CLIENTS)]
            rates = {}
            for scenario, label in SCENARIOS.items():
                rates[scenario], tally = _run_scenario(port, scenario, players)
                _report(f"web {label}", rates[scenario], tally)
        finally:
            stop(processes)
    ratio = rates["moves"] / rates["ceiling"]
    line("web moves API / ceiling", f"{ratio:.2f}", "goal: at least 0.5")


def _site_env(redis_port: int) -> dict[str, str]:
    """The environment of the site's processes: production settings, scratch services."""
    return {
        **os.environ,
        "DATABASE_URL": PG_URL,
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_HTTPS": "0",  # plain HTTP on the loopback: no redirect, no secure-only cookies
    }
