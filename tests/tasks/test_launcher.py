"""`make run`'s launcher: every way it ends leaves no process behind."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import select
import signal
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sudokusite.processes import ROOT, free_port

from ..harness import Player, manage

pytestmark = pytest.mark.worker

START_SECONDS = 90
EXIT_SECONDS = 60  # the launcher's grace period for its children is 15 s, twice over


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, session id) of a live process; None once it is gone or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, ppid, _group, session = stat.rsplit(")", 1)[1].split()[:4]
    return None if state in ("Z", "X") else (int(ppid), int(session))


def _processes() -> dict[int, tuple[int, int]]:
    """Every live process: pid -> (parent pid, session id)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            found[int(entry.name)] = stat
    return found


def _descendants(root: int, processes: dict[int, tuple[int, int]]) -> set[int]:
    """Every process below root: its children, theirs, and so on."""
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, (parent, _) in processes.items() if parent in frontier} - found
        found |= frontier
    return found


def _take_terminal() -> None:
    """In the launcher, before it runs: make its stdin, a pseudo-terminal, the controlling
    terminal of its new session, as a terminal window's is for `make run`."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _healthz(port: int) -> dict | None:
    """What /healthz tells, when the site answers it with a 200."""
    try:
        status, _, text = Player(port, timeout=2).send("GET", "/healthz")
    except OSError:
        return None
    return json.loads(text) if status == 200 else None


class Launcher:
    """`python -m sudokusite.launcher` with a scratch SQLite database, var folder and port,
    optionally in a terminal of its own. It notes the session of every process it sees
    below the launcher (each child leads one), so that any process left over, even one
    whose parent died, is found and, should the test fail, killed."""

    def __init__(self, folder: Path, terminal: bool) -> None:
        self.port = free_port()
        self.log = folder / "launcher.log"
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
        env |= {
            "DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}",
            "RUN_ADDRESS": f"127.0.0.1:{self.port}",
            "RUN_VAR_DIR": str(folder / "var"),
            "WORKER_START_CHECKS": "0",
        }
        manage(env, "migrate", "--noinput", "-v0", timeout=120)
        self.sessions: set[int] = set()
        self.terminal: int | None = None
        command = [sys.executable, "-m", "sudokusite.launcher"]
        if terminal:
            self.terminal, tty = os.openpty()
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdin=tty,
                stdout=tty,
                stderr=tty,
                start_new_session=True,
                preexec_fn=_take_terminal,
            )
            os.close(tty)
            self._closing = threading.Event()
            self._copier = threading.Thread(target=self._copy_terminal, daemon=True)
            self._copier.start()
        else:
            with self.log.open("w") as out:
                self.process = subprocess.Popen(
                    command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
                )

    def _copy_terminal(self) -> None:
        """What the launcher and its children write to the terminal, into the log."""
        with self.log.open("ab") as out:
            while not self._closing.is_set():
                if select.select([self.terminal], [], [], 0.1)[0]:
                    try:
                        out.write(os.read(self.terminal, 65536))
                    except OSError:  # every process let go of the terminal
                        return

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def note_family(self) -> None:
        """Remember the sessions of the processes now below the launcher."""
        processes = _processes()
        below = _descendants(self.process.pid, processes)
        ours = {os.getsid(0), self.process.pid}  # this test's session; the launcher's own
        self.sessions |= {processes[pid][1] for pid in below} - ours

    def left(self) -> set[int]:
        """The live processes in the children's sessions."""
        return {pid for pid, (_, s) in _processes().items() if s in self.sessions}

    def wait_until_serving(self) -> None:
        """Return once the site answers with its broker up; note who is running."""
        deadline = time.monotonic() + START_SECONDS
        while (health := _healthz(self.port)) is None or health["broker"] != "ok":
            self.note_family()
            assert self.process.poll() is None, self.output()[-3000:]
            assert time.monotonic() < deadline, "the site never answered with its broker up"
            time.sleep(0.5)
        self.note_family()

    def child(self, word: str) -> int:
        """The pid of the launcher's child whose command line has word in it."""
        for pid, (parent, _) in _processes().items():
            if parent == self.process.pid:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                if word.encode() in command:
                    return pid
        raise AssertionError(f"no {word} below the launcher")

    def hang_up(self) -> None:
        """Close the terminal, as closing its window does: the kernel sends SIGHUP."""
        if self.terminal is not None:
            self._closing.set()
            self._copier.join()
            os.close(self.terminal)
            self.terminal = None

    def assert_all_stopped(self, status: int) -> None:
        """The launcher exited with status, and nothing it started is left."""
        assert self.process.wait(timeout=EXIT_SECONDS) == status, self.output()[-3000:]
        deadline = time.monotonic() + 10  # init reaps what exited just now
        while self.left() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not self.left(), self.output()[-3000:]
        assert _healthz(self.port) is None

    def clean_up(self) -> None:
        """Kill whatever is still running, the launcher first, so a failed test leaves
        nothing either."""
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait()
        for pid in self.left():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.hang_up()


@pytest.fixture
def launch(tmp_path) -> Iterator[Callable[..., Launcher]]:
    """Start the launcher and wait until the site answers; clean up after the test."""
    started: list[Launcher] = []

    def start(terminal: bool = False) -> Launcher:
        launcher = Launcher(tmp_path, terminal)
        started.append(launcher)
        launcher.wait_until_serving()
        assert len(launcher.sessions) == 4  # Redis, worker, beat, web
        return launcher

    yield start
    for launcher in started:
        launcher.note_family()  # anything started since
        launcher.clean_up()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGHUP], ids=["SIGINT", "SIGHUP"])
def test_a_stop_signal_stops_everything_the_launcher_started(launch, signum):
    launcher = launch()
    launcher.process.send_signal(signum)
    launcher.assert_all_stopped(0)
    assert "did not stop in time" not in launcher.output()  # each stopped when asked


def test_closing_the_terminal_stops_everything(launch):
    launcher = launch(terminal=True)
    launcher.hang_up()  # from here on, writing to the terminal fails
    launcher.assert_all_stopped(0)


def test_signals_arriving_while_it_stops_do_not_cut_the_stopping_short(launch):
    launcher = launch()
    launcher.process.send_signal(signal.SIGTERM)
    deadline, sent = time.monotonic() + EXIT_SECONDS, 0
    while launcher.process.poll() is None and time.monotonic() < deadline:
        if "stopping" in launcher.output():  # while it stops its children
            launcher.process.send_signal(signal.SIGTERM)
            launcher.process.send_signal(signal.SIGINT)
            sent += 2
        time.sleep(0.05)
    launcher.assert_all_stopped(0)
    assert sent > 0
    assert "did not stop in time" not in launcher.output()


def test_a_child_that_dies_stops_everything_else(launch):
    launcher = launch()
    os.killpg(launcher.child("worker"), signal.SIGKILL)
    launcher.assert_all_stopped(1)
    assert "worker exited with status -9" in launcher.output()


def _redis_children(launcher: Launcher) -> list[int]:
    """The pids of the embedded Redis servers below the launcher."""
    return [
        pid
        for pid, (parent, _) in _processes().items()
        if parent == launcher.process.pid
        and Path(f"/proc/{pid}/comm").read_text().strip() == "redis-server"
    ]


def test_an_embedded_redis_that_dies_is_started_again_on_the_same_port(launch):
    launcher = launch()
    port = re.search(r"embedded Redis on redis://127\.0\.0\.1:(\d+)/0", launcher.output())[1]
    (first,) = _redis_children(launcher)
    os.killpg(first, signal.SIGKILL)
    deadline = time.monotonic() + START_SECONDS
    while (
        (health := _healthz(launcher.port)) is None
        or health["broker"] != "ok"
        or not ([pid for pid in _redis_children(launcher) if pid != first])
    ):
        assert launcher.process.poll() is None, launcher.output()[-3000:]
        assert time.monotonic() < deadline, "the embedded Redis never came back"
        time.sleep(0.2)
    (second,) = _redis_children(launcher)
    assert f"127.0.0.1:{port}" in Path(f"/proc/{second}/cmdline").read_text()  # its title
    assert f"starting it again on port {port}" in launcher.output()
    launcher.note_family()
    launcher.process.send_signal(signal.SIGINT)
    launcher.assert_all_stopped(0)
