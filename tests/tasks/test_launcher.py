"""`make run`'s launcher: every way it is told to stop leaves no process behind."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from sudokusite.launcher import ROOT, free_port

pytestmark = pytest.mark.worker


def _parent_of(pid: int) -> int | None:
    """The parent pid of a live process; None once it is gone or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, ppid = stat.rsplit(")", 1)[1].split()[:2]
    return None if state in ("Z", "X") else int(ppid)


def _descendants(root: int) -> set[int]:
    """Every live process below root, children and their children."""
    parents = {
        int(entry.name): _parent_of(int(entry.name))
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit()
    }
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if _parent_of(pid) is not None}


def _healthz(port: int) -> dict | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
            return json.loads(response.read())
    except OSError:
        return None


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGHUP], ids=["SIGINT", "SIGHUP"])
def test_the_launcher_stops_everything_it_started(tmp_path, signum):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
        "RUN_ADDRESS": f"127.0.0.1:{port}",
        "WORKER_START_CHECKS": "0",
    }
    manage = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(manage, cwd=ROOT, env=env, check=True, timeout=120)
    with (tmp_path / "launcher.log").open("w") as log:
        launcher = subprocess.Popen(
            [sys.executable, "-m", "sudokusite.launcher"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    started: set[int] = set()
    try:
        deadline = time.monotonic() + 90
        while (health := _healthz(port)) is None or health["broker"] != "ok":
            assert launcher.poll() is None, (tmp_path / "launcher.log").read_text()
            assert time.monotonic() < deadline, "the site never answered with its broker up"
            time.sleep(0.5)
        started = _descendants(launcher.pid)
        assert len(started) >= 4  # Redis, worker, beat, web (and their own children)
        launcher.send_signal(signum)
        assert launcher.wait(timeout=60) == 0
        deadline = time.monotonic() + 10  # init reaps what the children left, just after
        while _alive(started) and time.monotonic() < deadline:
            time.sleep(0.2)
        log = (tmp_path / "launcher.log").read_text()
        assert not _alive(started), log[-3000:]
        assert "did not stop in time" not in log  # each stopped when asked, none killed
        assert _healthz(port) is None
    finally:
        for pid in _alive(started | {launcher.pid}):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        launcher.wait()
