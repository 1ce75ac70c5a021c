"""Warm at start: every web process and every Celery worker has loaded the engine's
compiled kernels before it serves its first request or takes its first task; a web process
then freezes what it loaded out of the garbage collector's walks."""

from __future__ import annotations

import re

import pytest

from ..harness import Gunicorn, Player, WorkerProcess, production_env, wait_until
from .helpers import broker_url, database_url, set_targets

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

WARMED = re.compile(r"\[(\d+)\] \[INFO\] engine warmed up in \d+ ms")
FROZEN = re.compile(r"engine warmed up in \d+ ms; (\d+) objects frozen")


def test_each_web_process_warms_the_engine_before_it_serves():
    set_targets()  # no pool wants a refill: the worker stays idle
    env = production_env(database_url(), broker_url())
    site = Gunicorn(env, workers=2)
    try:
        # Ready means a request was answered; by then both processes have booted.
        wait_until(lambda: len(set(WARMED.findall(site.output()))) == 2, 60, "two warm-ups")
        booted = set(re.findall(r"Booting worker with pid: (\d+)", site.output()))
        assert set(WARMED.findall(site.output())) == booted
        # Django, the views and the engine's tables: well over 50,000 objects each.
        frozen = [int(n) for n in FROZEN.findall(site.output())]
        assert len(frozen) == 2 and min(frozen) > 50_000, frozen
        assert Player(site.port).send("GET", "/healthz")[0] == 200
    finally:
        site.stop()


def test_a_celery_worker_warms_the_engine_before_its_pool_starts():
    set_targets()
    worker = WorkerProcess(production_env(database_url(), broker_url()))
    try:
        log = worker.output()
        assert "engine warmed up in" in log
        assert log.index("engine warmed up in") < log.index("ready.")
    finally:
        worker.stop()
