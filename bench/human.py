"""Human-pace figures: many players each acting on a schedule of their own, whatever the
server does (an open loop), at BENCH_HUMAN_PLAYERS (250) players for BENCH_HUMAN_SECONDS
(20) a level; `python -m bench human --players 250,500,1000 --seconds 60` for more, and
`python -m bench human --players 1000 --join 10 --seconds 60` for a surge.

bench/load.py is a closed loop: each player sends its next request when the last answer
comes, so a slow server is simply sent less, and its figures are throughput. Here a player
thinks for an exponential time (THINK, 5 s on average) between actions and the action is
due then, answered or not: 85% digits, 10% notes, 5% level-1 hints. As the local-first page
does, an action is made on the player's own board at once and queued; the queue is sent
one request at a time over one keep-alive connection, the digits and notes in batches (POST
.../changes) on the page's cadence: EVERY (8) seconds after the first that waits, at once
when MANY (6) wait or a hint waits behind them (--send changes: a batch as soon as the last
is answered, as the page sent before; --send moves: one POST .../moves each). The page's
own requests go too: its look for another device's changes every LOOK (10) seconds while
nothing is on its way and no batch was answered within them (before: whenever nothing was
on its way), and its word that the player is still there (resume) every minute unless a
batch was answered within it (before: every minute). An
action's latency is counted from when it was due (a batched change: from when its batch
was due to go) to the answer of the request that carried it, so a queue anywhere (in the
server, or behind a slow answer) shows as what a player feels. Requests and moves are
counted apart.

Each request carries the stamp nginx gives it (X-Request-Start), so the site sheds what
waited too long as it does behind nginx. The site runs as in production: gunicorn with the
web processes and threads its unit runs (deploy/sudoku-web.service: 4 of 4 threads each;
sudokusite/gunicorn.py's settings, keep-alive included),
DJANGO_DEBUG=0, PostgreSQL (a
scratch database at BENCH_HUMAN_PG_URL, dropped and created afresh), a private Redis as
broker and cache, one Celery worker with as many pool processes as its unit runs
(deploy/sudoku-worker.service), at WORKER_NICE below the web and in the idle scheduling
class as there, and beat. Each player is a new guest: the home page, then by turns one of
today's four daily puzzles or a new master or extreme game from the pools, then its page,
as a browser opens it. The pools' targets are those
shipped and each pool starts at its low mark, so the players' draws keep the worker making
master and extreme puzzles during the run, as on a busy day. The players of a level are
those of the level before and new ones; each knows its puzzle's solution: a digit is right
85% of the time, a wrong one is put right by a later digit, and the last empty cell is
never filled, so no game ends during the run.

By default a level's new players are set up before it, unmeasured, and all start playing
at its start. With --join SECONDS they join during the level instead, evenly over those
seconds (a ramp: --join 10 is a surge), each join due at its time whatever the server
does and measured ("join", from when it was due to the game's state in hand); a join that
fails is tried again after a pause, as a person reloads a page. A player plays once joined.

For each level: the rate of actions offered (due) and achieved (answered with a 2xx inside
the level), errors (any other status, a broken connection, TIMEOUT, or an action still not
answered GRACE seconds after the end), how many requests had to open a new connection, and
per kind of action p50 and p99 latency from when it was due. Then a move's p50 and p99,
errors and timeouts once the level has settled: actions due (requests sent) from --settle
seconds (20) after its start on. The failed requests by cause (timeouts, 5xx answers,
connections broken); requests and moves a player-minute (each player counted from its
join). CPU is read from /proc at the start and end of the level: the server's (gunicorn's
processes, the PostgreSQL backends of the site's database, Redis) per request, the
worker's and beat's as a share of a core with the puzzles the workers made meanwhile, and
this generator's own.

Then the floor (sudokusite/bench_urls.py, served by this site only): the first level's
players (FLOOR_PLAYERS at most), at the same pace, send only digits (one a request, then in
batches) and then only requests to the floor view, which reads the session and commits one
UPDATE, a sixth of a level each, the three twice by turns; the lines compare moves per
second of server CPU with the floor's requests (goal: at least 0.5), once the server's CPU
with nobody acting (measured as long as a third of a level) is taken out of each. Last, the
rows and bytes the run left in the database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import resource
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import engine
from tests import harness

from .common import Connection, Failed, line, postgres_ready, prepare_site, site_env

PG_URL = os.environ.get("BENCH_HUMAN_PG_URL", "postgres://postgres@127.0.0.1:5432/bench_human")
PLAYERS = os.environ.get("BENCH_HUMAN_PLAYERS", "250")
SECONDS = float(os.environ.get("BENCH_HUMAN_SECONDS", "20"))
SETTLE = 20.0  # seconds after a level's start from which it is told again apart (--settle)
THINK = 5.0  # mean seconds between a player's actions
MIX = (("move", 0.85), ("note", 0.10), ("hint", 0.05))
TIMEOUT = 10.0  # seconds a request may take once sent before it counts as failed
# A 503 or 429 with Retry-After: the page keeps what it was sending and sends it again when
# told, the wait taken between these bounds, as the players do here.
RETRY_AFTER = (1.0, 120.0)
# Seconds after a level's end that actions due in it may still take: a page's last batch
# goes on its cadence after the end (the site's longer one, BUSY_SEND_EVERY_MS, is 20 s),
# and then may take a request's TIMEOUT.
GRACE = 35.0
# The floor comparison divides CPU by requests answered: few enough players that a busy
# machine still answers them all, as a request cut short costs CPU and counts no move.
FLOOR_PLAYERS = 100
SETUP_AT_ONCE = 8  # new players set up at a time (home page, daily game, its state)
KINDS = ("move", "note", "hint", "look", "clock", "state", "floor", "join")
# How the page sends (--send): "cadence", as it does today (static/js/game/sync.js): the
# digits and notes that wait go in one batch EVERY seconds after the first (--every), at once
# when MANY wait or help is asked for; "changes", as it did before: a batch as soon as the
# last one is answered; "moves": one request a digit or note. In all three, the page's own
# reads and calls go too (app.js): a look for another device's changes every LOOK seconds
# while nothing of its own is on its way (today's page skips it when a batch's answer came
# within LOOK seconds), and a word that the player is still there (resume) every CLOCK.
SENDS = ("cadence", "changes", "moves")
EVERY = 8.0  # the site's SEND_EVERY_MS
MANY = 6
LOOK = 10.0
CLOCK = 60.0
CHANGES = ("move", "note")
PAGE_CALLS = ("look", "clock")  # the page's own, not the player's actions


@dataclass(frozen=True)
class Send:
    """How a player's page sends: changes in batches or one a request; a batch on a cadence
    of `every` seconds (None: as soon as the last is answered); the page's looks and clock
    calls too (`calls`)."""

    batches: bool
    every: float | None
    calls: bool = True

    @classmethod
    def named(cls, name: str, every: float = EVERY) -> Send:
        """One of SENDS."""
        return {
            "cadence": cls(True, every),
            "changes": cls(True, None),
            "moves": cls(False, None),
        }[name]


CLOCK_TICK = os.sysconf("SC_CLK_TCK")


# CPU from /proc ------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU a process has used so far; None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # the name may hold spaces: split after it
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def descendants(pid: int) -> list[int]:
    """A process and every process below it."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        found.append(current := todo.pop())
        todo += parents.get(current, [])
    return found


class CpuMeter:
    """CPU used by groups of processes over a window: each group's processes are looked
    for once a second (backends come and go), and each process counts from its first
    reading (0 for one that appeared during the window) to its last."""

    def __init__(self, groups: dict[str, Callable[[], list[int]]]) -> None:
        self.groups = groups
        self.first: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._sample_until_stopped, daemon=True)

    def __enter__(self) -> CpuMeter:
        self._sample(starting=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join()
        self._sample()

    def _sample_until_stopped(self) -> None:
        while not self.stopping.wait(1.0):
            self._sample()

    def _sample(self, starting: bool = False) -> None:
        for group, pids in self.groups.items():
            with contextlib.suppress(Exception):  # a group that cannot be read this time
                for pid in pids():
                    seconds = cpu_seconds(pid)
                    if seconds is None:
                        continue
                    self.first.setdefault((group, pid), seconds if starting else 0.0)
                    self.last[(group, pid)] = seconds

    def seconds(self, group: str) -> float:
        """CPU seconds the group used over the window."""
        return sum(self.last[key] - self.first[key] for key in self.last if key[0] == group)


class Backends:
    """The pids of the PostgreSQL backends serving the site's database (not this one)."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True)
        self.lock = threading.Lock()

    def __call__(self) -> list[int]:
        with self.lock:
            rows = self.conn.execute(
                "SELECT pid FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        return [pid for (pid,) in rows]

    def made(self) -> dict[str, int]:
        """The puzzles the workers have made so far, by tier."""
        with self.lock:
            rows = self.conn.execute(
                "SELECT difficulty, count(*) FROM puzzles_puzzle WHERE source = 'generated' "
                "GROUP BY difficulty"
            ).fetchall()
        return dict(rows)

    def close(self) -> None:
        self.conn.close()


# The players --------------------------------------------------------------------------


@dataclass
class Tally:
    """What a level measured: per kind of action, latencies in seconds from when it was
    due; actions due, answered in the level, failed; requests and new connections."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    due: int = 0
    achieved: int = 0
    errors: int = 0
    requests: int = 0
    connections: int = 0
    moves: int = 0  # digits and notes stored (a batch may hold several)
    timeouts: int = 0  # requests given up after TIMEOUT
    refused: int = 0  # requests answered with a 5xx (a 503 shed included)
    broken: int = 0  # requests whose connection broke before an answer
    player_seconds: float = 0.0  # the players' time in the level, each from joining
    join_requests: int = 0  # requests of players joining (home page, new game, its state)
    slower: int = 0  # batch answers that asked for the longer cadence (send_every)
    # The same once the level has settled (actions due, requests sent, from settled_from on).
    settled_from: float = math.inf
    settled: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    settled_errors: int = 0
    settled_timeouts: int = 0
    started: float = 0.0  # when the level started (time.monotonic())
    # (seconds from the level's start when due, latency) of each action answered, for
    # --timeline: a move or note's p50 and p99 by the 5 s in which it was due.
    timeline: list[tuple[float, float]] = field(default_factory=list)


class Link:
    """One player's keep-alive connection: a request on a connection the server has closed
    meanwhile (gunicorn closes idle ones after its keep-alive) is sent again on a new one,
    as browsers do; new connections are counted."""

    def __init__(self, port: int, tally: Tally) -> None:
        self.conn = Connection(port)
        self.tally = tally
        self.retry_after: float | None = None  # seconds the last answer said to wait, if any
        self.requests = 0  # requests sent over this link

    async def exchange(self, head: str, body: bytes) -> tuple[int, bytes]:
        streams = self.conn.streams
        if streams is not None and streams[0].at_eof():
            self.conn.close()
        status, _, data = await self.exchange_head(head, body)
        return status, data

    async def exchange_head(self, head: str, body: bytes) -> tuple[int, bytes, bytes]:
        """The same, the answer's head too. A request that times out is counted and not
        sent again: the server may still be working on it."""
        tally = self.tally
        self.retry_after = None
        reused = self.conn.streams is not None
        for attempt in (1, 2):
            if self.conn.streams is None:
                tally.connections += 1
            tally.requests += 1
            self.requests += 1
            sent = time.monotonic()
            try:
                async with asyncio.timeout(TIMEOUT):
                    status, answer, data = await self.conn.exchange(head, body)
            except TimeoutError:
                tally.timeouts += 1
                tally.settled_timeouts += sent >= tally.settled_from
                raise
            except (OSError, asyncio.IncompleteReadError):
                if not reused or attempt == 2:
                    tally.broken += 1
                    raise
                reused = False
                continue
            tally.refused += status >= 500
            self.retry_after = _retry_after(status, answer)
            return status, answer, data
        raise AssertionError("unreachable")


def _retry_after(status: int, answer: bytes) -> float | None:
    """The wait a 503 or 429 answer asks for in its Retry-After (seconds, within
    RETRY_AFTER); None for any other answer, or one without a wait in seconds."""
    found = re.search(rb"\r\nretry-after: *(\d+)\r\n", answer.lower())
    if status not in (429, 503) or found is None:
        return None
    return min(max(float(found.group(1)), RETRY_AFTER[0]), RETRY_AFTER[1])


@dataclass
class Game:
    """A player's game as the player knows it."""

    id: int
    puzzle: str
    solution: str
    values: list[int]
    version: int


def stamp() -> str:
    """The header nginx puts on every request it passes on (deploy/nginx-sudoku.conf): when
    it was received, so that the site sheds what waited too long as it does behind nginx
    (puzzles/site/shedding.py)."""
    return f"X-Request-Start: t={time.time():.3f}\r\n"


class Player:
    """A guest with a daily game, acting every THINK seconds on average."""

    def __init__(self, number: int, port: int, cookie: str, csrf: str, game: Game) -> None:
        self.rng = random.Random(number)
        self.number = number
        self.port, self.cookie, self.csrf, self.game = port, cookie, csrf, game
        self.api = f"/api/games/{game.id}"
        self.device = f"bench-player-{number}"
        self.made = 0  # changes made so far, for their ids
        self.sending = False  # a request of the player's is on its way
        self.answered_at = -math.inf  # when the last one was answered
        # The cadence now (seconds): the site's, or the longer one a strained server's
        # batch answer asked for (send_every), as the page takes it (sync.js askedEvery).
        self.every: float | None = None
        self.own_every: float | None = None
        # The longer cadence the game's page asked for as a strained server served it
        # (data-send-every-asked, seconds): the page starts on it (sync.js).
        self.asked_every: float | None = None

    def head(self, method: str, path: str) -> str:
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        head += f"Cookie: {self.cookie}\r\n{stamp()}"
        if method == "POST":
            head += f"X-CSRFToken: {self.csrf}\r\nContent-Type: application/json\r\n"
        return head

    async def run(
        self,
        tally: Tally,
        start: float,
        until: float,
        mix: tuple,
        send: Send,
        link: Link | None = None,
    ) -> None:
        """Act from start until the end of the level, each action when due: the action is
        made on the player's own board at once and queued, and the queue is sent one
        request at a time as `send` says, over the connection the player joined on, if any;
        the page's own looks and clock calls are queued on their schedule too."""
        link = link or Link(self.port, tally)
        queue: list[tuple[float, str, dict]] = []
        wake, over = asyncio.Event(), asyncio.Event()
        sender = asyncio.create_task(self.send_queue(link, tally, until, queue, wake, over, send))
        page = asyncio.create_task(self.page_calls(start, until, queue, wake, send))
        kinds, weights = zip(*mix, strict=True)
        due = start + self.rng.expovariate(1 / THINK)
        try:
            while due < until:
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                kind = self.rng.choices(kinds, weights)[0]
                tally.due += 1
                queue.append((due, kind, self.plan(kind)))
                wake.set()
                due += self.rng.expovariate(1 / THINK)
            page.cancel()
            over.set()
            wake.set()
            await sender
        finally:
            sender.cancel()
            page.cancel()
            link.conn.close()

    async def page_calls(
        self, start: float, until: float, queue: list, wake: asyncio.Event, send: Send
    ) -> None:
        """The page's own requests: a look every LOOK seconds (today's page: or the longer
        cadence a strained server asked for) while nothing waits or is on its way (today's
        page: nor a batch answered within that time), the clock's word every CLOCK seconds
        (today's page: unless a batch was answered within CLOCK); each on a phase of the
        player's own."""
        if not send.calls:
            return
        look = start + self.rng.uniform(0, LOOK)
        clock = start + self.rng.uniform(0, CLOCK)
        while min(look, clock) < until:
            due = min(look, clock)
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if due == clock:
                clock += CLOCK
                if send.every is None or due - self.answered_at >= CLOCK:
                    queue.append((due, "clock", {}))
                    wake.set()
                continue
            every = max(LOOK, self.every or 0)
            look += every
            fresh = send.every is not None and due - self.answered_at < every
            if not queue and not self.sending and not fresh:
                queue.append((due, "look", {}))
                wake.set()

    async def send_queue(
        self,
        link: Link,
        tally: Tally,
        until: float,
        queue: list,
        wake: asyncio.Event,
        over: asyncio.Event,
        send: Send,
    ) -> None:
        """Send what is queued, oldest first, until the schedule is over and nothing is left;
        each action's latency counted from when it was due to its answer (a change sent on
        the cadence: from when its batch was due to go)."""
        self.every = self.own_every = send.every
        if send.every is not None and self.asked_every is not None:
            self.every = min(60.0, max(send.every, self.asked_every))
        self.asked_every = None  # the page's first cadence only
        while queue or not over.is_set():
            if not queue:
                wake.clear()
                await wake.wait()
                continue
            taken, due = 1, None
            if send.batches and queue[0][1] in CHANGES:
                due = await self.batch_due(queue, wake, send)
                while taken < len(queue) and taken < 200 and queue[taken][1] in CHANGES:
                    taken += 1
                self.sending = True
                ok = await self.send_changes(link, tally, [item[2] for item in queue[:taken]])
            else:
                self.sending = True
                ok = await self.send_one(link, tally, *queue[0][1:])
            self.sending = False
            if not ok and link.retry_after is not None:
                # Turned away before any work: the actions stay queued and go when told.
                await asyncio.sleep(link.retry_after)
                continue
            now = time.monotonic()
            self.answered_at = now if ok else self.answered_at
            for when, kind, _ in queue[:taken]:
                when = max(when, due) if due is not None else when
                settled = when >= tally.settled_from
                if ok:
                    tally.latencies[kind].append(now - when)
                    if kind in CHANGES:
                        tally.timeline.append((when - tally.started, now - when))
                    tally.achieved += now <= until and kind not in PAGE_CALLS
                    if settled:
                        tally.settled[kind].append(now - when)
                else:
                    tally.errors += 1
                    tally.settled_errors += settled
            del queue[:taken]

    async def batch_due(self, queue: list, wake: asyncio.Event, send: Send) -> float:
        """Wait until the changes at the head of the queue are due to go, as the page sends
        them: EVERY (or the longer cadence a strained server asked for) after the first, at
        once when MANY wait or something else (help, the clock) waits behind them; the
        moment they were due. The page stays open once the player's schedule is over: what
        waits then goes on the cadence too (were every page closed in the same second, a
        level's last batches would all meet at once, as no crowd of players sends them)."""
        if send.every is None:
            return queue[0][0]
        while True:
            wake.clear()  # an action queued from here on wakes the wait below
            due = queue[0][0] + (self.every or 0)
            changes = 0
            for when, kind, _ in queue:
                changes += kind in CHANGES
                if kind not in CHANGES or changes >= MANY:
                    due = min(due, when)
                    break
            if time.monotonic() >= due:
                return due
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), due - time.monotonic())

    def plan(self, kind: str) -> dict:
        """An action made on the player's own board now, as the request will say it."""
        if kind not in ("move", "note"):
            return {}
        cell, digit, mode = self.next_move() if kind == "move" else self.next_note()
        if mode == "value":
            self.game.values[cell] = digit
        self.made += 1
        change = {"id": f"b{self.made}", "kind": "move", "cell": cell, "digit": digit}
        return change | {"mode": mode, "base": self.game.version}

    async def send_one(self, link: Link, tally: Tally, kind: str, change: dict) -> bool:
        """One action in a request of its own; whether it was answered with a 2xx."""
        if kind == "floor":
            return await self.post(link, f"{self.api}/floor", {}) is not None
        if kind == "clock":
            return await self.post(link, f"{self.api}/resume", self.seen()) is not None
        if kind == "look":
            return await self.look(link)
        if kind == "hint":
            hint = {"level": 1, **self.seen()}
            return await self.post(link, f"{self.api}/hint", hint) is not None
        payload = {k: change[k] for k in ("cell", "digit", "mode")} | self.seen()
        if await self.post(link, f"{self.api}/moves", payload) is None:
            if link.retry_after is None:  # a move refused, not a request turned away
                await self.resync(link, tally)
                link.retry_after = None  # the move is not sent again, whatever the read heard
            return False
        tally.moves += 1
        return True

    async def send_changes(self, link: Link, tally: Tally, changes: list[dict]) -> bool:
        """Digits and notes in one batch; whether every one was stored."""
        body = {"device": self.device, "changes": changes}
        answer = await self.post(link, f"{self.api}/changes", body)
        if answer is None:
            if link.retry_after is None:  # a batch refused, not a request turned away
                await self.resync(link, tally)
                link.retry_after = None  # the batch is not sent again, whatever the read heard
            return False
        tally.moves += len(answer["applied"])
        if self.every is not None:
            asked = answer.get("send_every")
            tally.slower += asked is not None
            own = self.own_every
            self.every = min(60.0, max(own, asked / 1000)) if isinstance(asked, int) else own
        return not answer["refused"]

    def seen(self) -> dict:
        return {"version": self.game.version}

    def next_move(self) -> tuple[int, int, str]:
        """A wrong digit put right, or a digit in an empty cell (right 85% of the time), or
        with one empty cell left, a digit taken out: the game never ends."""
        game, rng = self.game, self.rng
        open_cells = [c for c, ch in enumerate(game.puzzle) if ch == "0"]
        placed = [c for c in open_cells if game.values[c]]
        wrong = [c for c in placed if game.values[c] != int(game.solution[c])]
        empty = [c for c in open_cells if not game.values[c]]
        if wrong and (rng.random() < 0.5 or len(empty) <= 1):
            cell = rng.choice(wrong)
            return cell, int(game.solution[cell]), "value"
        if len(empty) <= 1:
            return rng.choice(placed), 0, "value"
        cell = rng.choice(empty)
        right = int(game.solution[cell])
        return cell, right if rng.random() < 0.85 else right % 9 + 1, "value"

    def next_note(self) -> tuple[int, int, str]:
        """A note toggled in an empty cell."""
        empty = [c for c, v in enumerate(self.game.values) if not v]
        return self.rng.choice(empty), self.rng.randint(1, 9), "note"

    async def post(self, link: Link, path: str, payload: dict) -> dict | None:
        """A POST with a JSON body; the answer (the version noted), None unless a 2xx."""
        try:
            body = json.dumps(payload).encode()
            status, data = await link.exchange(self.head("POST", path), body)
        except (OSError, ValueError, asyncio.IncompleteReadError, Failed):
            return None
        if not 200 <= status < 300:
            return None
        answer = json.loads(data)
        seen = answer.get("state", answer)
        if "version" in seen:
            self.game.version = seen["version"]
        return answer

    async def look(self, link: Link) -> bool:
        """The page's look for another device's changes: 204 while the game is as it has
        it; the game's state, taken, when it moved on."""
        try:
            path = f"{self.api}/state?since={self.game.version}"
            status, data = await link.exchange(self.head("GET", path), b"")
        except (OSError, ValueError, asyncio.IncompleteReadError, Failed):
            return False
        if status == 200:
            state = json.loads(data)
            self.game.values = [int(ch) for ch in state["values"]]
            self.game.version = state["version"]
        return 200 <= status < 300

    async def catch_up(self) -> None:
        """The game as the server has it, before a level: an action cut short at the end of
        the last one may have been stored or not."""
        link = Link(self.port, Tally())
        try:
            await self.resync(link, Tally())
        finally:
            link.conn.close()

    async def resync(self, link: Link, tally: Tally) -> None:
        """After a failed move, the game as it stands (counted as "state")."""
        began = time.monotonic()
        with contextlib.suppress(OSError, ValueError, asyncio.IncompleteReadError):
            status, data = await link.exchange(self.head("GET", self.api), b"")
            if 200 <= status < 300:
                state = json.loads(data)
                self.game.values = [int(ch) for ch in state["values"]]
                self.game.version = state["version"]
                tally.latencies["state"].append(time.monotonic() - began)


# Setting players up ---------------------------------------------------------------------


SOLUTIONS: dict[str, str] = {}
# What new players start, by turns: one of today's dailies, or a new game from the pools of
# the two tiers only the workers make, as players do all day: their draws keep the worker
# making master and extreme puzzles during the run, as it does in production.
STARTS = (
    ("daily", "easy"),
    ("daily", "medium"),
    ("daily", "hard"),
    ("daily", "expert"),
    ("new", "master"),
    ("new", "extreme"),
)


def _set_cookies(answer: bytes) -> dict[str, str]:
    """The cookies an answer's head sets, name to value."""
    lines = answer.decode("latin-1").split("\r\n")[1:]
    return harness.set_cookies(tuple(line.split(":", 1)) for line in lines if ":" in line)


async def _join(number: int, port: int, day: str, link: Link) -> Player:
    """A guest arriving over link, as a browser does: the home page (cookies, CSRF token),
    a new game (STARTS by turns), its page (the state in it; a game just started needs no
    word to its clock as the page opens). Failed when one of them is not answered as it
    should be."""
    kind, difficulty = STARTS[number % len(STARTS)]
    cookies: dict[str, str] = {}
    token = ""

    async def send(method: str, path: str) -> tuple[int, bytes, bytes]:
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        head += f"Cookie: {harness.cookie_header(cookies)}\r\n{stamp()}"
        if method == "POST":
            head += f"X-CSRFToken: {token}\r\nContent-Type: application/json\r\n"
        status, answer, data = await link.exchange_head(head, b"{}" if method == "POST" else b"")
        cookies.update(_set_cookies(answer))
        return status, answer, data

    status, _, data = await send("GET", "/")
    found = re.search(rb'name="csrf-token" content="([^"]+)"', data)
    if status != 200 or not found:
        raise Failed(f"the home page answered {status}")
    token = found.group(1).decode()
    path = f"/daily/{day}/{difficulty}/" if kind == "daily" else f"/play/{difficulty}/"
    status, answer, _ = await send("POST", path)
    found = re.search(rb"\r\nlocation: [^\r]*/games/(\d+)/", answer.lower())
    if status != 302 or not found:
        raise Failed(f"a new game answered {status}")
    game = int(found.group(1))
    status, _, data = await send("GET", f"/games/{game}/")
    found = re.search(rb'<script id="game-state" type="application/json">(.*?)</script>', data)
    if status != 200 or not found:
        raise Failed(f"the game's page answered {status}")
    state = json.loads(found.group(1))  # its clock running: the page sends no word of it
    puzzle = state["puzzle"]
    if puzzle not in SOLUTIONS:
        SOLUTIONS[puzzle] = engine.solve(puzzle)
    values = [int(ch) for ch in state["values"]]
    known = Game(game, puzzle, SOLUTIONS[puzzle], values, state["version"])
    player = Player(number, port, harness.cookie_header(cookies), token, known)
    asked = re.search(rb'data-send-every-asked="(\d+)"', data)
    player.asked_every = int(asked.group(1)) / 1000 if asked else None
    return player


async def _new_players(first: int, count: int, port: int, day: str) -> list[Player]:
    """Players set up before a level, SETUP_AT_ONCE at a time, not measured."""
    gate = asyncio.Semaphore(SETUP_AT_ONCE)

    async def one(number: int) -> Player:
        async with gate:
            link = Link(port, Tally())
            try:
                return await _join(number, port, day, link)
            finally:
                link.conn.close()

    return list(await asyncio.gather(*(one(n) for n in range(first, first + count))))


def ramp(count: int, start: float, join: float) -> list[float]:
    """When each of count new players joins: evenly over join seconds from start."""
    return [start + join * i / count for i in range(count)]


async def _arrive(
    number: int, due: float, port: int, day: str, tally: Tally, until: float, play: Callable
) -> Player | None:
    """A new player joining when due, whatever the server does, the join measured from
    then to the game's state in hand ("join"). A join turned away with a Retry-After comes
    again when told, as the page does; one that fails otherwise is tried again after a
    pause, as a person reloads a page, until the level ends. Then the player plays."""
    pauses = random.Random(-1 - number)
    tally.due += 1
    while time.monotonic() < until:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        link = Link(port, tally)
        try:
            player = await _join(number, port, day, link)
        except (Failed, OSError, ValueError, asyncio.IncompleteReadError):
            tally.join_requests += link.requests
            link.conn.close()
            if link.retry_after is not None:
                await asyncio.sleep(link.retry_after)
                continue
            tally.errors += 1
            tally.settled_errors += due >= tally.settled_from
            due += pauses.expovariate(1 / THINK)
            if due < until:
                tally.due += 1
            continue
        tally.join_requests += link.requests
        now = time.monotonic()
        tally.latencies["join"].append(now - due)
        tally.achieved += now <= until
        if due >= tally.settled_from:
            tally.settled["join"].append(now - due)
        await play(player, now, link)
        return player
    return None


# A level --------------------------------------------------------------------------------


@dataclass
class Level:
    label: str
    players: int
    seconds: float
    tally: Tally
    cpu: dict[str, float]  # CPU seconds by group over the level
    generator: float  # this process's CPU seconds over the level
    settle: float = math.inf  # seconds after the start from which the level counts as settled
    made: dict[str, int] = field(default_factory=dict)  # puzzles the workers made, by tier
    joined: list[Player] = field(default_factory=list)  # the players who joined during it

    @property
    def server(self) -> float:
        return self.cpu["gunicorn"] + self.cpu["postgres"] + self.cpu["redis"]

    def __add__(self, other: Level) -> Level:
        """Two runs of the same players as one."""
        a, b = self.tally, other.tally
        tally = Tally(
            {kind: a.latencies[kind] + b.latencies[kind] for kind in KINDS},
            **{f: getattr(a, f) + getattr(b, f) for f in FIELDS},
        )
        cpu = {group: self.cpu[group] + other.cpu[group] for group in self.cpu}
        seconds, generator = self.seconds + other.seconds, self.generator + other.generator
        return Level(self.label, self.players, seconds, tally, cpu, generator)


FIELDS = (
    *("due", "achieved", "errors", "requests", "connections", "moves"),
    *("timeouts", "refused", "broken", "player_seconds", "slower"),
)


def _run_level(
    label: str,
    players: list[Player],
    seconds: float,
    meter: Callable[[], CpuMeter],
    mix: tuple,
    send: Send,
    arrivals: Arrivals | None = None,
    settle: float = math.inf,
    made: Callable[[], dict[str, int]] | None = None,
) -> Level:
    """The players acting for seconds, and the arrivals' new players joining over the
    ramp; what they and /proc measured."""
    tally = Tally()
    joining = list(arrivals.numbers) if arrivals else []

    async def catch_up() -> None:
        gate = asyncio.Semaphore(SETUP_AT_ONCE)

        async def one(player: Player) -> None:
            async with gate:
                await player.catch_up()

        await asyncio.gather(*(one(p) for p in players))

    async def run() -> list[Player]:
        start = time.monotonic() + 0.2
        until = start + seconds
        tally.settled_from = start + settle
        tally.started = start

        async def play(player: Player, begin: float, link: Link | None = None) -> None:
            await player.run(tally, begin, until, mix, send, link)

        tasks = [asyncio.create_task(play(p, start)) for p in players]
        tally.player_seconds = len(players) * seconds
        if arrivals:
            times = ramp(len(joining), start, arrivals.seconds)
            for number, due in zip(joining, times, strict=True):
                port, day = arrivals.port, arrivals.day
                arrive = _arrive(number, due, port, day, tally, until, play)
                tasks.append(asyncio.create_task(arrive))
                tally.player_seconds += max(0.0, until - due)
        done, late = await asyncio.wait(tasks, timeout=until + GRACE - time.monotonic())
        for task in late:  # an action still unanswered long after the end
            task.cancel()
            tally.errors += 1
        # A bug in the generator, not the site, raises here.
        return [p for task in done if isinstance(p := task.result(), Player)]

    cpu_meter = meter()  # once the web processes are idle
    asyncio.run(catch_up())  # not measured: the meter starts on entering
    made_before = made() if made else {}
    before = resource.getrusage(resource.RUSAGE_SELF)
    with cpu_meter as cpu:
        joined = asyncio.run(run())
    after = resource.getrusage(resource.RUSAGE_SELF)
    generator = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    groups = {group: cpu.seconds(group) for group in cpu.groups}
    made_after = made() if made else {}
    level = Level(label, len(players) + len(joining), seconds, tally, groups, generator)
    level.settle, level.joined = settle, joined
    level.made = {tier: n - made_before.get(tier, 0) for tier, n in made_after.items()}
    return level


@dataclass
class Arrivals:
    """New players joining during a level, evenly over seconds (a ramp), on the site at
    port, to play today's (day) puzzles."""

    numbers: range
    seconds: float
    port: int
    day: str


def _settle(gunicorn: Callable[[], list[int]], seconds: float = 120) -> None:
    """Wait until the web processes are idle: after a level the machine could not keep up
    with, they are still working through requests the players gave up on, and would both
    bill the next level for them and store moves behind the players' backs."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        before = sum(filter(None, map(cpu_seconds, gunicorn())))
        time.sleep(1.0)
        if sum(filter(None, map(cpu_seconds, gunicorn()))) - before < 0.05:
            return


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.0f} ms" if seconds >= 0.1 else f"{seconds * 1e3:.1f} ms"


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else math.nan


def _report_timeline(level: Level) -> None:
    """A digit or note's p50 and p99 by the 5 s of the level in which it was due: where a
    ramp or a burst strains the site."""
    windows: dict[int, list[float]] = {}
    for due, latency in level.tally.timeline:
        windows.setdefault(int(due // 5), []).append(latency)
    for window, times in sorted(windows.items()):
        line(
            f"human {level.label} from {window * 5} s",
            f"p50 {_ms(statistics.median(times))}",
            f"p99 {_ms(percentile(times, 0.99))}",
            f"n={len(times)}",
        )


def _report(level: Level) -> None:
    t, seconds = level.tally, level.seconds
    answered = sum(len(v) for k, v in t.latencies.items() if k not in ("state", *PAGE_CALLS))
    new = t.connections / t.requests if t.requests else 0.0
    line(
        f"human {level.label}",
        f"offered {t.due / seconds:,.1f}/s",
        f"achieved {t.achieved / seconds:,.1f}/s",
        f"errors {t.errors}",
        f"{t.requests / seconds:,.1f} requests/s",
        f"{t.moves / seconds:,.1f} moves/s",
        f"new connections {new:.0%}",
    )
    for kind in KINDS:
        times = t.latencies[kind]
        if times:
            line(
                f"human {level.label} {kind}",
                f"p50 {_ms(statistics.median(times))}",
                f"p99 {_ms(percentile(times, 0.99))}",
                f"n={len(times)}",
            )
    if level.settle < seconds:
        moves = t.settled["move"]
        line(
            f"human {level.label} after {level.settle:g} s",
            f"move p50 {_ms(statistics.median(moves)) if moves else '-'}",
            f"p99 {_ms(percentile(moves, 0.99)) if moves else '-'}",
            f"n={len(moves)}",
            f"errors {t.settled_errors}",
            f"timeouts {t.settled_timeouts}",
        )
    minutes = t.player_seconds / 60
    line(
        f"human {level.label} failures",
        f"timeouts {t.timeouts}",
        f"5xx {t.refused}",
        f"broken {t.broken}",
        f"answers asking for the longer cadence {t.slower}",
    )
    per_minute = 1 / max(minutes, 1e-9)
    line(
        f"human {level.label} a player",
        f"{t.requests * per_minute:,.1f} requests a minute",
        f"{(t.requests - t.join_requests) * per_minute:,.1f} at play (joins apart)",
        f"{t.moves * per_minute:,.1f} moves a minute",
        f"{minutes:,.0f} player-minutes",
    )
    per = 1 / max(t.requests, 1)
    cpu = level.cpu
    line(
        f"human {level.label} server CPU",
        f"{_ms(level.server * per)} a request",
        f"gunicorn {cpu['gunicorn'] * per * 1e3:.1f}",
        f"PostgreSQL {cpu['postgres'] * per * 1e3:.1f}",
        f"Redis {cpu['redis'] * per * 1e3:.2f}",
        f"worker+beat {cpu['worker'] + cpu['beat']:.1f} s",
    )
    made = ", ".join(f"{tier} {n}" for tier, n in level.made.items() if n)
    line(
        f"human {level.label} worker",
        f"{cpu['worker'] / seconds:.2f} of a core",
        f"beat {cpu['beat'] / seconds:.2f}",
        f"made {sum(level.made.values())} puzzles" + (f" ({made})" if made else ""),
    )
    line(
        f"human {level.label} generator",
        f"{_ms(level.generator / max(answered, 1))} an action",
        f"{level.generator / seconds:.0%} of a core",
    )


def _idle(meter: Callable[[], CpuMeter], seconds: float) -> float:
    """Server CPU seconds a second with nobody acting (the players' connections still
    open): what the web processes, the database and Redis spend whatever the load."""
    with meter() as cpu:
        time.sleep(seconds)
    return sum(cpu.seconds(group) for group in ("gunicorn", "postgres", "redis")) / seconds


def _report_floor(floor: Level, *stored: tuple[Level, str], idle: float) -> None:
    """Moves per second of server CPU against the floor's requests, from the same players
    at the same pace: each way of storing moves, then the floor. The floor's players send
    a request every few seconds, so a fixed cost (idle, the server's CPU a second with
    nobody acting) would weigh as much as the requests themselves: it is taken out of each
    before the two are compared, and said."""

    def busy(level: Level) -> float:
        return max(level.server - idle * level.seconds, 1e-9)

    line("human idle server CPU", f"{idle * 1e3:.1f} ms a second", "taken out below")
    floor_rate = floor.tally.requests / busy(floor)
    for level, _ in (*stored, (floor, "")):
        t = level.tally
        times = [x for kind in ("move", "floor") for x in t.latencies[kind]]
        line(
            f"human {level.label}",
            f"p50 {_ms(statistics.median(times)) if times else '-'}",
            f"p99 {_ms(percentile(times, 0.99))}",
            f"errors {t.errors}",
            f"{t.requests / level.seconds:,.1f} requests/s",
            f"{_ms(busy(level) / max(t.requests, 1))} server CPU a request",
            f"{_ms(busy(level) / max(t.moves, 1))} a move" if t.moves else "",
        )
    for level, what in stored:
        rate = level.tally.moves / busy(level)
        ratio = rate / floor_rate
        line(
            f"human {what} / floor",
            f"{rate:,.0f} vs {floor_rate:,.0f} a CPU-second",
            f"{ratio:.2f}",
            "goal: at least 0.5",
            "met" if ratio >= 0.5 else "MISSED",
        )


def _report_growth(url: str) -> None:
    """What the run left in the database: rows, and bytes a row (table, indexes and TOAST,
    dead row versions included, as they stand before any vacuum)."""
    import psycopg

    tables = {
        "moves": "puzzles_move",
        "receipts": "puzzles_changereceipt",
        "games": "puzzles_game",
        "sessions": "django_session",
    }
    with psycopg.connect(url, autocommit=True) as conn:
        for name, table in tables.items():
            rows, size = conn.execute(
                f"SELECT count(*), pg_total_relation_size('{table}') FROM {table}"
            ).fetchone()
            each = f"{size / rows:,.0f} bytes a row" if rows else ""
            line(f"human database {name}", f"{rows:,} rows", f"{size / 1e6:,.1f} MB", each)


# The site -------------------------------------------------------------------------------

# The pools' targets as shipped, each pool stocked to its low mark before the run: the
# players' master and extreme games (STARTS) draw on them from the first, and beat and the
# worker refill them during the run, as in production on a busy day.
STOCK_POOLS = """
from django.core.management import call_command
from puzzles.pools.stock import targets
for target in targets().values():
    call_command("seed_pool", difficulty=target.difficulty, count=target.low, top_up=True,
                 now=True)
"""
WORKER_UNIT = harness.ROOT / "deploy" / "sudoku-worker.service"
WEB_UNIT = harness.ROOT / "deploy" / "sudoku-web.service"


def production_web(unit: Path = WEB_UNIT) -> tuple[int, int]:
    """The web processes and threads each that gunicorn runs in production (its unit's
    --workers and --threads)."""
    text = unit.read_text()
    workers = re.search(r"^ExecStart=.* --workers (\d+)", text, re.MULTILINE)
    threads = re.search(r"^ExecStart=.* --threads (\d+)", text, re.MULTILINE)
    return int(workers.group(1)), int(threads.group(1))


def production_concurrency(unit: Path = WORKER_UNIT) -> int:
    """The pool processes a worker runs in production: its unit's --concurrency."""
    found = re.search(r"^ExecStart=.* --concurrency (\d+)", unit.read_text(), re.MULTILINE)
    if found is None:
        raise RuntimeError(f"no --concurrency on the ExecStart line of {unit}")
    return int(found.group(1))


def nice(pid: int) -> int | None:
    """A process's nice level, as /proc tells it; None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[16])


def _report_worker(pid: int) -> None:
    """How the worker runs: its pool processes, which make the puzzles, and their nice
    levels against the main process's (the web's)."""
    children = descendants(pid)[1:]
    pool = [n for n in map(nice, children) if n is not None]
    line(
        "human worker",
        f"{len(pool)} pool processes",
        f"nice {', '.join(map(str, sorted(set(pool))))}",
        f"class {', '.join(sorted(set(map(_policy, children))))}",
        f"main process nice {nice(pid)}",
    )


def _policy(pid: int) -> str:
    """A process's scheduling class: "idle" (SCHED_IDLE), "normal", or "gone"."""
    try:
        policy = os.sched_getscheduler(pid)
    except OSError:
        return "gone"
    return "idle" if policy == getattr(os, "SCHED_IDLE", -1) else "normal"


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench human")
    parser.add_argument("--players", default=PLAYERS, help="levels, e.g. 250,500,1000")
    parser.add_argument("--seconds", type=float, default=SECONDS, help="seconds a level")
    parser.add_argument(
        "--join",
        type=float,
        default=None,
        help="seconds over which a level's new players join, measured, during the level (a "
        "ramp; 0: all at its start); by default they are set up before it, unmeasured",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=SETTLE,
        help="seconds after a level's start from which its figures are told again apart",
    )
    parser.add_argument("--no-floor", action="store_true", help="skip the floor comparison")
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="a digit or note's p50 and p99 by the 5 s of each level in which it was due",
    )
    parser.add_argument(
        "--floor-players",
        type=int,
        default=FLOOR_PLAYERS,
        help="players in the floor comparison (the first level's, at most)",
    )
    parser.add_argument(
        "--send",
        choices=SENDS,
        default="cadence",
        help="digits and notes in batches on the page's cadence (as it sends them today), in "
        "a batch as soon as the last is answered (as it did before), or one a request",
    )
    parser.add_argument(
        "--web-processes",
        type=int,
        default=None,
        help="gunicorn's web processes (by default as deploy/sudoku-web.service runs them)",
    )
    parser.add_argument(
        "--every",
        type=float,
        default=EVERY,
        help="seconds of the cadence (the site's SEND_EVERY_MS), with --send cadence",
    )
    options = parser.parse_args(argv)
    try:
        options.levels = [int(n) for n in options.players.split(",")]
    except ValueError:
        parser.error(f"--players takes numbers separated by commas, not {options.players!r}")
    if any(n < 1 for n in options.levels) or options.levels != sorted(options.levels):
        parser.error("--players takes levels of at least 1 player, smallest first")
    if options.seconds <= 0:
        parser.error("--seconds must be above 0")
    if options.join is not None and not 0 <= options.join <= options.seconds:
        parser.error("--join must be between 0 and --seconds")
    if options.settle < 0:
        parser.error("--settle must not be below 0")
    if options.web_processes is not None and options.web_processes < 1:
        parser.error("--web-processes must be at least 1")
    if not 0 <= options.every <= 60:
        parser.error("--every must be between 0 and 60 seconds")
    return options


def main(argv: list[str] | None = None) -> None:
    """Serve the site with its worker and beat, run each level and the floor, stop."""
    options = _arguments(argv or [])
    levels = options.levels
    print("== human")
    if not postgres_ready(PG_URL):
        print("(PostgreSQL did not answer at BENCH_HUMAN_PG_URL: skipped)")
        return
    started: list = []
    with tempfile.TemporaryDirectory(prefix="bench-human-") as scratch:
        backends = None
        try:
            started.append(redis := harness.PrivateRedis(Path(scratch)))
            env = site_env(PG_URL, redis.url) | {"BENCH_FLOOR_VIEW": "1"}
            env |= {"WORKER_START_CHECKS": "0"}
            prepare_site(env, ("shell", "-c", STOCK_POOLS))
            concurrency = production_concurrency()
            started.append(worker := harness.WorkerProcess(env, concurrency, wait=False))
            worker.ready()
            _report_worker(worker.process.pid)
            started.append(beat := harness.Beat(env, Path(scratch)))
            workers, threads = production_web()
            workers = options.web_processes or workers
            started.append(site := harness.Gunicorn(env, workers, threads, echo=True))
            line("human web", f"{workers} processes", f"{threads} threads each")
            backends = Backends(PG_URL)
            groups = {
                "gunicorn": lambda: descendants(site.process.pid),
                "postgres": backends,
                "redis": lambda: [redis.process.pid],
                "worker": lambda: descendants(worker.process.pid),
                "beat": lambda: descendants(beat.process.pid),
            }
            day = json.loads(harness.manage(env, "shell", "-c", _TODAY).split()[-1])
            send = Send.named(options.send, options.every)

            def meter() -> CpuMeter:
                _settle(groups["gunicorn"])
                return CpuMeter(groups)

            players: list[Player] = []
            numbered = 0  # players numbered so far, those whose join failed included
            for count in levels:
                more = range(numbered, numbered + max(0, count - len(players)))
                numbered = more.stop
                arrivals = None
                if options.join is None:
                    players += asyncio.run(_new_players(more.start, len(more), site.port, day))
                else:
                    arrivals = Arrivals(more, options.join, site.port, day)
                label = f"{count} players"
                level = _run_level(
                    label,
                    players[:count],
                    options.seconds,
                    meter,
                    MIX,
                    send,
                    arrivals,
                    options.settle,
                    backends.made,
                )
                _report(level)
                if options.timeline:
                    _report_timeline(level)
                players += sorted(level.joined, key=lambda p: p.number)
            if not options.no_floor:
                n = min(levels[0], options.floor_players)
                ways = {
                    f"{n} digits, moves": ((("move", 1),), Send(False, None, calls=False)),
                    f"{n} digits, batches": ((("move", 1),), Send(True, None, calls=False)),
                    f"{n} floor": ((("floor", 1),), Send(False, None, calls=False)),
                }
                # Each way twice, by turns: a machine whose other load changes meanwhile
                # weighs on all three alike.
                runs = [
                    _run_level(label, players[:n], options.seconds / 6, meter, mix, way)
                    for _ in range(2)
                    for label, (mix, way) in ways.items()
                ]
                moves, batch, floor = (runs[i] + runs[i + 3] for i in range(3))
                idle = _idle(meter, options.seconds / 3)
                _report_floor(floor, (moves, "move"), (batch, "batched move"), idle=idle)
            _report_growth(PG_URL)
        finally:
            if backends is not None:
                backends.close()
            for server in reversed(started):
                server.stop()


_TODAY = "import json; from puzzles.pools.daily import today; print(json.dumps(str(today())))"
