"""The human-pace benchmark (bench/human.py) tells what a surge does: players joining over a
ramp, the figures once the level has settled, timeouts apart from other failures, requests
a player-minute and the worker's share of a core; its worker runs as production's does, and
the players' games keep it making master and extreme puzzles."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
import time

import pytest

from bench import human
from bench.human import Game, Level, Link, Player, Tally

from ..harness import ROOT, PrivatePostgres


def run_apart(coroutine):
    """The coroutine run to its end on an event loop of its own thread: a test process that
    has driven the browser (Playwright's sync API) has a loop running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_new_players_join_evenly_over_the_ramp():
    assert human.ramp(4, 10.0, 2.0) == [10.0, 10.5, 11.0, 11.5]
    assert human.ramp(3, 5.0, 0.0) == [5.0, 5.0, 5.0]  # --join 0: all at once


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--players", "10,ten"], "--players takes numbers"),
        (["--players", "100,50"], "smallest first"),
        (["--players", "0"], "at least 1 player"),
        (["--join", "70", "--seconds", "60"], "--join must be between 0 and --seconds"),
        (["--join", "-1"], "--join must be between 0 and --seconds"),
        (["--settle", "-5"], "--settle must not be below 0"),
        (["--seconds", "0"], "--seconds must be above 0"),
        (["--every", "-1"], "--every must be between 0 and 60"),
        (["--web-processes", "0"], "--web-processes must be at least 1"),
        (["--send", "bursts"], "invalid choice"),
    ],
)
def test_bad_options_get_a_clear_error(argv, said, capsys):
    with pytest.raises(SystemExit) as stopped:
        human._arguments(argv)
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err


def test_the_surge_options_are_read():
    options = human._arguments(["--players", "30,60", "--join", "5", "--seconds", "15"])
    assert (options.levels, options.join, options.seconds, options.settle) == ([30, 60], 5, 15, 20)
    assert human._arguments([]).join is None  # set up before the level, as before
    # gunicorn as its unit runs it, unless told.
    assert human.production_web() == (2, 4)
    assert human._arguments(["--web-processes", "4"]).web_processes == 4
    # The page as it sends today, on the site's cadence.
    assert (human._arguments([]).send, human._arguments([]).every) == ("cadence", 8.0)
    assert human.Send.named("cadence", 5.0) == human.Send(True, 5.0)
    assert human.Send.named("changes") == human.Send(True, None)
    assert human.Send.named("moves") == human.Send(False, None)


def test_a_level_tells_the_settled_figures_the_failures_a_player_minute_and_the_worker(capsys):
    tally = Tally(requests=120, moves=90, player_seconds=600.0, timeouts=3, refused=4, broken=1)
    tally.join_requests = 30
    tally.latencies["move"] = [0.010] * 99 + [2.0]
    tally.settled["move"] = [0.010] * 50
    tally.settled_errors, tally.settled_timeouts = 2, 1
    cpu = {"gunicorn": 1.0, "postgres": 0.5, "redis": 0.0, "worker": 6.0, "beat": 0.3}
    level = Level("10 players", 10, 60.0, tally, cpu, 1.0, settle=20.0)
    level.made = {"master": 4, "extreme": 2, "easy": 0}
    human._report(level)
    lines = {re.split(r"\s{2,}", out)[0]: out for out in capsys.readouterr().out.splitlines()}
    settled = lines["human 10 players after 20 s"]
    assert re.search(r"move p50 10\.0 ms\s+p99 10\.0 ms\s+n=50\s+errors 2\s+timeouts 1", settled)
    assert re.search(r"p99 2,000 ms", lines["human 10 players move"])  # the whole level
    assert re.search(r"timeouts 3\s+5xx 4\s+broken 1", lines["human 10 players failures"])
    # 120 requests and 90 moves over 10 player-minutes.
    a_player = lines["human 10 players a player"]
    at_play = r"9\.0 at play \(joins apart\)"
    assert re.search(
        rf"12\.0 requests a minute\s+{at_play}\s+9\.0 moves a minute\s+10 player-", a_player
    )
    worker = lines["human 10 players worker"]
    made = r"made 6 puzzles \(master 4, extreme 2\)"
    assert re.search(rf"0\.10 of a core\s+beat 0\.01\s+{made}", worker)


def test_a_level_shorter_than_its_settling_tells_no_settled_line(capsys):
    cpu = dict.fromkeys(("gunicorn", "postgres", "redis", "worker", "beat"), 0.0)
    human._report(Level("5 players", 5, 15.0, Tally(requests=1), cpu, 0.0, settle=20.0))
    assert "after 20 s" not in capsys.readouterr().out


async def _serve(answers: list[bytes | None]) -> tuple[asyncio.Server, list[bytes]]:
    """A server that answers each request it reads with the next of answers (None: never
    answers); the requests it read."""
    heard: list[bytes] = []

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
                length = re.search(rb"content-length: *(\d+)", head.lower())
                await reader.readexactly(int(length.group(1)) if length else 0)
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            heard.append(head)
            answer = answers.pop(0)
            if answer is None:
                await asyncio.sleep(60)
                return
            writer.write(answer)
            await writer.drain()

    return await asyncio.start_server(client, "127.0.0.1", 0), heard


OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"
SHED = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Length: 2\r\n\r\n{}"


def test_a_request_that_times_out_is_counted_and_not_sent_again(monkeypatch):
    monkeypatch.setattr(human, "TIMEOUT", 0.5)

    async def run() -> tuple[Tally, list[bytes]]:
        server, heard = await _serve([OK, SHED, None])
        tally = Tally()
        link = Link(server.sockets[0].getsockname()[1], tally)
        try:
            assert (await link.exchange("GET / HTTP/1.1\r\n", b""))[0] == 200
            assert (await link.exchange("GET / HTTP/1.1\r\n", b""))[0] == 503
            with pytest.raises(TimeoutError):
                await link.exchange("GET / HTTP/1.1\r\n", b"")
        finally:
            link.conn.close()
            server.close()
        return tally, heard

    tally, heard = run_apart(run())
    assert len(heard) == 3  # the one that timed out was sent once
    assert (tally.requests, tally.timeouts, tally.refused, tally.broken) == (3, 1, 1, 0)


BATCH = b'{"applied": ["b1"], "refused": [], "version": 2}'
STORED = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(BATCH), BATCH)
SHED_ONE = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 2\r\n\r\n{}"


def test_a_batch_turned_away_with_retry_after_is_kept_and_sent_when_told():
    """As the page does: no state read, no error, the same change sent again after the
    wait, and counted as stored once the server took it."""

    async def run() -> tuple[Tally, list[bytes]]:
        server, heard = await _serve([SHED_ONE, STORED])
        port = server.sockets[0].getsockname()[1]
        tally = Tally()
        player = Player(0, port, "sessionid=x", "token", Game(1, "0" * 81, "1" * 81, [0] * 81, 1))
        link = Link(port, tally)
        change = {"id": "b1", "kind": "move", "cell": 0, "digit": 5, "mode": "value", "base": 1}
        queue = [(asyncio.get_running_loop().time(), "move", change)]
        over = asyncio.Event()
        over.set()
        try:
            send = human.Send(True, None, calls=False)
            await player.send_queue(link, tally, math.inf, queue, asyncio.Event(), over, send)
        finally:
            link.conn.close()
            server.close()
        return tally, heard

    tally, heard = run_apart(run())
    assert [h.split(b" ", 2)[:2] for h in heard] == [[b"POST", b"/api/games/1/changes"]] * 2
    assert (tally.errors, tally.refused, tally.moves, len(tally.latencies["move"])) == (0, 1, 1, 1)


def _stored(*ids: str) -> bytes:
    body = json.dumps({"applied": list(ids), "refused": [], "version": 9}).encode()
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)


def _play(answers: list[bytes], changes: list[tuple[float, str]], every: float) -> tuple:
    """A player's queue sent on a cadence of `every` seconds to a server answering
    `answers`, the changes queued at their offsets (seconds from the start) as the player
    makes them; the requests the server heard, their bodies, the tally, the start."""

    async def run() -> tuple:
        server, heard = await _serve(list(answers))
        port = server.sockets[0].getsockname()[1]
        tally = Tally()
        player = Player(0, port, "sessionid=x", "token", Game(1, "0" * 81, "1" * 81, [0] * 81, 1))
        link = Link(port, tally)
        queue: list = []
        wake, over = asyncio.Event(), asyncio.Event()
        start = time.monotonic()
        send = human.Send(True, every, calls=False)
        sender = asyncio.create_task(
            player.send_queue(link, tally, math.inf, queue, wake, over, send)
        )
        try:
            for at, kind in changes:
                await asyncio.sleep(max(0.0, start + at - time.monotonic()))
                queue.append((start + at, kind, player.plan(kind)))
                wake.set()
            over.set()
            wake.set()
            await asyncio.wait_for(sender, 10)
        finally:
            link.conn.close()
            server.close()
        return heard, tally, start

    return run_apart(run())


def test_changes_at_human_pace_go_in_one_batch_on_the_cadence():
    heard, tally, _ = _play(
        [_stored("b1", "b2", "b3")], [(0, "move"), (0.1, "note"), (0.2, "move")], 0.6
    )
    assert len(heard) == 1  # three changes, one request
    assert b"/changes" in heard[0]
    # Each change's latency from when its batch was due (0.6 s after the first), not from
    # when it was made: a few ms against a local server, not hundreds.
    assert len(tally.latencies["move"]) == 2 and len(tally.latencies["note"]) == 1
    assert max(tally.latencies["move"] + tally.latencies["note"]) < 0.3


def test_many_changes_or_a_hint_behind_them_go_at_once():
    changes = [(0.01 * i, "move") for i in range(human.MANY)]
    answers = [_stored(*(f"b{i + 1}" for i in range(human.MANY)))]
    heard, tally, _ = _play(answers, changes, 30.0)
    assert len(heard) == 1  # well before the 30 s cadence
    assert tally.moves == human.MANY
    hint = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"
    heard, _, _ = _play([_stored("b1"), hint], [(0, "move"), (0.05, "hint")], 30.0)
    assert [h.split(b" ")[1].rsplit(b"/", 1)[1] for h in heard] == [b"changes", b"hint"]


def test_the_page_looks_for_news_unless_a_batch_answered_within_the_look():
    async def run(send: human.Send, answered: float) -> list[str]:
        player = Player(0, 1, "sessionid=x", "token", Game(1, "0" * 81, "1" * 81, [0] * 81, 1))
        player.answered_at = time.monotonic() + answered
        queue: list = []
        start = time.monotonic()
        task = asyncio.create_task(
            player.page_calls(start, start + 0.5, queue, asyncio.Event(), send)
        )
        await asyncio.wait_for(task, 5)
        return [kind for _, kind, _ in queue]

    original = human.LOOK, human.CLOCK
    human.LOOK, human.CLOCK = 0.2, 0.3
    try:
        fresh = run_apart(run(human.Send(True, 8.0), answered=10.0))  # answered "just now"
        before = run_apart(run(human.Send(True, None), answered=10.0))
        stale = run_apart(run(human.Send(True, 8.0), answered=-10.0))
        none = run_apart(run(human.Send(True, 8.0, calls=False), answered=-10.0))
    finally:
        human.LOOK, human.CLOCK = original
    # Nothing drains the queue here: a look waits while something of the page's does.
    assert "look" not in fresh  # today's page: the batch's answer was the news
    assert "look" in before  # the page before looked whatever it had heard
    assert "look" in stale
    assert "clock" not in fresh  # the batch's answer told the server's clock too
    assert "clock" in before and "clock" in stale
    assert none == []


@pytest.mark.worker
@pytest.mark.slow
def test_a_surge_runs_against_the_production_setup():
    """A tiny surge end to end: players join over a ramp during the level, the worker runs
    as its unit does, and the players' games draw on the pools the worker refills."""
    postgres = PrivatePostgres()
    try:
        url = f"postgres://postgres@127.0.0.1:{postgres.port}/bench_human"
        env = {**os.environ, "BENCH_HUMAN_PG_URL": url}
        options = ["--players", "12", "--join", "3", "--seconds", "8", "--settle", "4"]
        run = subprocess.run(
            [sys.executable, "-m", "bench", "human", *options, "--no-floor"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=540,
        )
        assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
        lines = {re.split(r"\s{2,}", out)[0]: out for out in run.stdout.splitlines()}
        pool = human.production_concurrency()
        assert pool == 2  # as deploy/sudoku-worker.service runs it
        worker = lines["human worker"]
        main_nice = int(re.search(r"main process nice (\d+)", worker).group(1))
        assert f"{pool} pool processes" in worker
        assert re.search(rf"\bnice {min(main_nice + 10, 19)}\s", worker)  # WORKER_NICE below
        assert re.search(r"\bclass idle\s", worker)  # and in the idle class (WORKER_IDLE)
        assert re.search(r"2 processes\s+4 threads each", lines["human web"])  # as its unit
        assert "human 12 players join" in lines  # joins measured during the level
        for name in ("after 4 s", "failures", "a player", "worker", "server CPU"):
            assert f"human 12 players {name}" in lines, run.stdout
        assert "of a core" in lines["human 12 players worker"]

        import psycopg

        with psycopg.connect(url) as conn:
            targets = dict(
                conn.execute("SELECT difficulty, high FROM puzzles_pooltarget").fetchall()
            )
            drawn = conn.execute(
                "SELECT count(*) FROM puzzles_game g JOIN puzzles_puzzle p ON p.id = g.puzzle_id "
                "WHERE p.difficulty IN ('master', 'extreme') AND p.source = 'generated'"
            ).fetchone()[0]
        assert targets["master"] > 0 and targets["extreme"] > 0  # as shipped, not emptied
        assert drawn > 0  # players' games on the tiers the worker makes ahead
    finally:
        postgres.destroy()


def test_a_batch_answer_asking_for_the_longer_cadence_is_taken_as_the_page_takes_it():
    body = {"applied": ["b1"], "refused": [], "version": 2, "send_every": 1500}
    slower = json.dumps(body)
    answer = f"HTTP/1.1 200 OK\r\nContent-Length: {len(slower)}\r\n\r\n{slower}".encode()
    changes = [(0, "move"), (0.35, "move"), (0.4, "note"), (1.5, "move")]
    heard, tally, _ = _play([answer, _stored("b2", "b3", "b4")], changes, 0.3)
    # The second batch waited 1.5 s from its first change (0.35 s), not 0.3 s: the change
    # at 1.5 s (the schedule's last, which sends what waits) went with it.
    assert len(heard) == 2 and tally.slower == 1 and tally.moves == 4


def test_what_waits_goes_on_the_cadence_once_the_players_schedule_is_over():
    """A page stays open at a level's end: its last changes go when their batch is due, not
    at once (every page's in the same second would be a burst no crowd of players sends),
    and a level waits for them: its grace covers a strained server's cadence (20 s) and a
    request's time."""
    heard, tally, start = _play([_stored("b1")], [(0, "move")], 1.5)
    assert len(heard) == 1 and tally.moves == 1
    assert time.monotonic() - start >= 1.5  # sent on the cadence, after the schedule ended
    assert tally.latencies["move"][0] < 1.0  # counted from when the batch was due
    assert human.GRACE >= 20 + human.TIMEOUT
