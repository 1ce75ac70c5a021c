"""The worker's puzzle making never takes CPU a player needs: its pool processes, which
make the puzzles, run at a lower CPU priority (WORKER_NICE) than the web and than the
worker's own main process (which only takes tasks and keeps the heartbeat), and in Linux's
idle scheduling class (WORKER_IDLE)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ..harness import WorkerProcess, production_env, wait_until
from .helpers import broker_url, database_url, set_targets

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def nice(pid: int) -> int:
    """A process's nice level, as /proc tells it (the 19th field of its stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


@pytest.mark.parametrize(("level", "idle"), [("", ""), ("7", "0")])
def test_the_pool_processes_that_make_puzzles_run_at_a_lower_priority(level, idle):
    set_targets()  # no pool wants a refill: the worker stays idle
    env = production_env(database_url(), broker_url())
    env |= {"WORKER_NICE": level} if level else {}
    env |= {"WORKER_IDLE": idle} if idle else {}
    worker = WorkerProcess(env, concurrency=2)
    try:
        wait_until(lambda: len(children(worker.process.pid)) == 2, 30, "the pool's processes")
        main = worker.process.pid
        expected = nice(main) + (int(level) if level else 10)
        assert [nice(child) for child in children(main)] == [min(expected, 19)] * 2
        assert nice(main) == os.getpriority(os.PRIO_PROCESS, 0)  # the main one as started
        # The idle class by default, the normal one when turned off; the main process
        # always in the normal one.
        policy = os.SCHED_OTHER if idle == "0" else os.SCHED_IDLE
        assert [os.sched_getscheduler(child) for child in children(main)] == [policy] * 2
        assert os.sched_getscheduler(main) == os.SCHED_OTHER
    finally:
        worker.stop()
