"""Workers and the site under faults: Redis stopped while players play, the database
connection dropped in the middle of a seed job and of a refill batch."""

from __future__ import annotations

import json
import os
import re
import signal
import time

import pytest
import redis
from django.utils import timezone

import engine
from puzzles.pools.stock import insert_new, puzzle_row

from ..harness import (
    Beat,
    Gunicorn,
    HeldWrites,
    Player,
    PrivatePostgres,
    PrivateRedis,
    WorkerProcess,
    manage,
    production_env,
    wait_until,
    wait_until_idle,
)
from .helpers import database_url, fresh, set_targets

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def stock(difficulty: str, count: int) -> None:
    """Exactly count fresh puzzles of the difficulty: the rest marked served, or more made."""
    from puzzles.models import Puzzle

    served = Puzzle.objects.fresh(difficulty).values_list("pk", flat=True)[count:]
    Puzzle.objects.filter(pk__in=list(served)).update(served_at=timezone.now())
    missing = count - fresh(difficulty)
    if missing > 0:
        made = [engine.make_puzzle(difficulty, seed=seed) for seed in range(100, 100 + missing)]
        insert_new([puzzle_row(m) for m in made])


@pytest.fixture
def redis_server():
    server = PrivateRedis()
    yield server
    server.stop()


def test_with_redis_stopped_players_play_on_and_refills_resume_when_it_returns(redis_server):
    set_targets(easy=(6, 10, 5))
    env = production_env(database_url(), redis_server.url) | {"REFILL_INTERVAL_SECONDS": "1"}
    processes = [WorkerProcess(env), Beat(env), Gunicorn(env)]
    site = processes[-1]
    try:
        wait_until(lambda: fresh("easy") == 10, what="the pool filled through the private Redis")
        redis_server.stop()
        # Nobody waits on the broker: each request answers well inside the client's
        # timeout, far shorter than the broker's connection timeouts added up.
        player = Player(site.port, timeout=5)
        assert player.send("GET", "/")[0] == 200  # picks today's dailies: one easy puzzle
        stock = fresh("easy")
        status, _, body = player.send("GET", "/healthz")
        assert status == 200 and json.loads(body)["broker"] == "down"
        games = [player.start_game() for _ in range(5)]  # from stock, below the low mark
        for game in games:
            status, _, body = player.send("GET", f"/api/games/{game}")
            state = json.loads(body)
            cell = state["puzzle"].index("0")
            move = {"cell": cell, "digit": 1, "mode": "value", "version": state["version"]}
            assert player.send("POST", f"/api/games/{game}/moves", move)[0] == 200
        assert fresh("easy") == stock - 5 < 6
        time.sleep(3)
        assert fresh("easy") == stock - 5  # no refill without the broker
        redis_server.start()
        wait_until(lambda: fresh("easy") == 10, seconds=90, what="refills resumed by themselves")
        assert json.loads(player.send("GET", "/healthz")[2])["broker"] == "ok"
    finally:
        for process in reversed(processes):
            process.stop()


def test_a_dropped_database_connection_mid_job_loses_and_duplicates_nothing(redis_server):
    postgres = PrivatePostgres()
    try:
        env = production_env(postgres.url, redis_server.url)
        manage(env, "migrate", "--noinput", "-v0")
        worker = WorkerProcess(env)
        try:
            with HeldWrites(postgres.url) as held:
                manage(env, "seed_pool", "--difficulty", "expert", "--count", "60")
                held.wait_for_waiter()  # the first chunk made, its transaction open
                assert postgres.cut_connections(keep=held.pid) > 0

            def job() -> tuple:
                return postgres.query("SELECT state, done, requested FROM puzzles_seedjob")[0]

            wait_until(lambda: job()[0] == "done", seconds=120, what="the job finished")
            wait_until_idle(redis_server.url)
            assert job()[1:] == (60, 60)
            assert postgres.query(
                "SELECT count(*), count(DISTINCT givens) FROM puzzles_puzzle"
            ) == [(60, 60)]
            output = worker.output()
            assert "terminating connection" in output or "closed the connection" in output
            assert "Retry in" in output  # the chunk failed on the dropped connection: redone
        finally:
            worker.stop()
    finally:
        postgres.destroy()


def test_a_dropped_database_connection_mid_batch_loses_and_duplicates_nothing(redis_server):
    postgres = PrivatePostgres()
    try:
        env = production_env(postgres.url, redis_server.url)
        manage(env, "migrate", "--noinput", "-v0")
        postgres.query("UPDATE puzzles_pooltarget SET low = 0, high = 0 RETURNING id")
        postgres.query(
            "UPDATE puzzles_pooltarget SET low = 30, high = 30, batch_size = 15 "
            "WHERE difficulty = 'hard' RETURNING id"
        )
        worker = WorkerProcess(env)
        try:
            with HeldWrites(postgres.url) as held:
                manage(
                    env,
                    "shell",
                    "-c",
                    "from puzzles.pools.tasks import refill_pools; refill_pools()",
                )
                held.wait_for_waiter()  # the batch made, its transaction open, not committed
                assert postgres.cut_connections(keep=held.pid) > 0
                assert postgres.query("SELECT count(*) FROM puzzles_puzzle") == [(0,)]
            assert "stored" not in worker.output()

            def stock() -> int:
                return postgres.query(
                    "SELECT count(*) FROM puzzles_puzzle "
                    "WHERE difficulty = 'hard' AND served_at IS NULL"
                )[0][0]

            wait_until(lambda: stock() == 30, seconds=120, what="the pool refilled")
            wait_until_idle(redis_server.url)  # a batch redone after the cut adds nothing
            rows = postgres.query("SELECT givens, solution, canonical_key FROM puzzles_puzzle")
            assert len(rows) == 30 and len({g for g, _, _ in rows}) == 30
            for givens, solution, key in rows:
                assert engine.count_solutions(givens) == 1 and engine.solve(givens) == solution
                assert key == engine.canonical(givens)
            output = worker.output()
            assert "terminating connection" in output or "closed the connection" in output
            assert "Retry in" in output  # the batch failed on the dropped connection: redone
        finally:
            worker.stop()
    finally:
        postgres.destroy()


def test_a_redis_hiccup_during_a_new_game_leaves_no_lock_that_outlives_a_beat_period(
    redis_server,
):
    """Redis frozen (SIGSTOP) while a new game takes the pool below its low mark: the
    request's refill lock times out in the site but is still set when Redis resumes. That
    stray lock expires within a beat period, and beat then repairs the pool."""
    interval = 4
    set_targets(easy=(5, 8, 8))
    env = production_env(database_url(), redis_server.url) | {
        "REFILL_INTERVAL_SECONDS": str(interval)
    }
    # One web thread: the request in the hiccup reuses the connections of the one before,
    # as a busy site's would, so its command waits in the socket for Redis to resume.
    worker, site = WorkerProcess(env), Gunicorn(env, workers=1, threads=1)
    processes = [worker, site]
    try:
        player = Player(site.port)
        assert player.send("GET", "/")[0] == 200  # today's dailies picked, token in hand
        stock("easy", 5)
        player.start_game()  # 4 left: a round refills the pool through the worker
        wait_until(lambda: fresh("easy") == 8, what="the first round")
        client = redis.Redis.from_url(redis_server.url)
        wait_until(lambda: not client.keys("*pool-refill:easy*"), what="the round let go")
        stock("easy", 5)  # at the low mark: nothing to refill yet
        os.kill(redis_server.process.pid, signal.SIGSTOP)
        try:
            player.start_game()  # 4 left: the refill lock is asked of a frozen Redis
        finally:
            os.kill(redis_server.process.pid, signal.SIGCONT)
        assert fresh("easy") == 4
        wait_until(lambda: client.keys("*pool-refill:easy*"), what="the frozen request's lock set")
        (key,) = client.keys("*pool-refill:easy*")
        assert 0 < client.pttl(key) <= interval * 1000  # dead within a beat period
        processes.append(Beat(env))  # beat from here on: the repair is beat's
        wait_until(lambda: fresh("easy") >= 5, seconds=90, what="beat repaired the pool")
        assert re.search(
            r"refill_pools\[[^]]+\] succeeded in [^:]+: \{'easy': \d+\}", worker.output()
        )
    finally:
        for process in reversed(processes):
            process.stop()
