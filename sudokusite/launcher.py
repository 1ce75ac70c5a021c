"""`make run`: the web server, a Celery worker, Celery beat and, when REDIS_URL is unset, an
embedded Redis on a free local port; Ctrl-C stops them all.

Each child runs in a session of its own, so that the terminal's signals reach this launcher
only, which then stops the children in order and waits for them, leaving nothing behind.
Whatever ends the launcher (Ctrl-C, SIGTERM, the terminal closing with SIGHUP, SIGQUIT, a
child exiting, an error) stops every child's process group the same way, SIGKILL following
SIGTERM after a grace period. The signal handlers only take note: no signal can cut the
start of a child from its place on the list, nor the stopping half-way.

The embedded Redis is the one child whose exit stops nothing: it is started again on the
same port (it holds nothing that must survive; beat sends the pools' checks again), unless
it keeps dying.

Why not a Procfile runner such as honcho: it stops its processes on SIGINT and SIGTERM
only, so closing the terminal (SIGHUP) or SIGQUIT would end it and leave its children
running; it stops everything when any process exits, so it cannot start the embedded Redis
again; it cannot pick Redis's free port at start and hand REDIS_URL to the others; and it
kills after a fixed 5 s rather than after each child had its grace period.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sudokusite.processes import (
    ROOT,
    beat_command,
    free_port,
    redis_command,
    say,
    signal_group,
    stop,
    wait_for_port,
    worker_command,
)

# Where the embedded Redis and beat keep their files; a test gives each launcher its own.
VAR = Path(os.environ.get("RUN_VAR_DIR") or ROOT / "var")
# The signals that end the launcher. The children, in sessions of their own, get none of
# them from the terminal: the launcher passes the word on.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
POLL_SECONDS = 0.2
# An embedded Redis that dies more often than this within a minute is not restarted again.
REDIS_RESTARTS_PER_MINUTE = 5


def spawn(
    processes: list[tuple[str, subprocess.Popen]], name: str, command: list[str], **options
) -> subprocess.Popen:
    """Start a child in a session of its own and put it on the list of those to stop."""
    process = subprocess.Popen(command, start_new_session=True, **options)
    processes.append((name, process))
    return process


def stop_all(processes: list[tuple[str, subprocess.Popen]]) -> None:
    """The site's processes first, then Redis: a worker shutting down hands the tasks it
    had not started back to the broker."""
    try:
        stop([entry for entry in processes if entry[0] != "redis"])
    finally:
        stop([entry for entry in processes if entry[0] == "redis"])


def site_commands(address: str) -> dict[str, list[str]]:
    """The worker, beat and web server command lines."""
    return {
        "worker": worker_command(concurrency=2),
        "beat": beat_command(VAR / "celerybeat-schedule"),
        "web": [sys.executable, "manage.py", "runserver", address],
    }


def start_children(
    processes: list[tuple[str, subprocess.Popen]], env: dict[str, str], requested: list[int]
) -> None:
    """Redis when REDIS_URL is unset, then the site's processes; none more once a stop
    signal came."""
    VAR.mkdir(parents=True, exist_ok=True)
    if not env.get("REDIS_URL"):
        port = free_port()
        spawn(processes, "redis", redis_command(port, VAR / "redis"))
        wait_for_port(port)
        env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        say(f"embedded Redis on {env['REDIS_URL']}")
    address = env.get("RUN_ADDRESS", "127.0.0.1:8000")
    for name, command in site_commands(address).items():
        if requested:
            return
        spawn(processes, name, command, cwd=ROOT, env=env)
    say(f"\nThe site answers at http://{address}/ — Ctrl-C stops everything.\n")


def restart_redis(processes: list[tuple[str, subprocess.Popen]], index: int) -> bool:
    """Start the embedded Redis at processes[index], which exited, again on its port, in
    its place on the list; False if it does not come back."""
    old = processes[index][1]
    port = int(old.args[old.args.index("--port") + 1])
    signal_group(old, signal.SIGKILL)  # anything it left in its group
    say(
        f"embedded Redis exited with status {old.returncode}; starting it again on port {port}",
        error=True,
    )
    processes[index] = ("redis", subprocess.Popen(old.args, start_new_session=True))
    try:
        wait_for_port(port)
    except RuntimeError as error:
        say(f"embedded Redis did not come back: {error}; stopping", error=True)
        return False
    say(f"embedded Redis is back on redis://127.0.0.1:{port}/0")
    return True


def supervise(processes: list[tuple[str, subprocess.Popen]], requested: list[int]) -> int:
    """Wait for a stop signal (0) or for a child to exit (1). An embedded Redis that exits
    is started again, unless it keeps dying."""
    restarts: list[float] = []
    while not requested:
        for index, (name, process) in enumerate(processes):
            if process.poll() is None:
                continue
            now = time.monotonic()
            restarts = [t for t in restarts if now - t < 60]
            if name == "redis" and len(restarts) < REDIS_RESTARTS_PER_MINUTE:
                restarts.append(now)
                if restart_redis(processes, index):
                    continue
                return 1
            say(f"{name} exited with status {process.returncode}; stopping", error=True)
            return 1
        time.sleep(POLL_SECONDS)
    say(f"\n{signal.Signals(requested[0]).name}: stopping...")
    return 0


def main() -> int:
    """Start everything, wait for a stop signal or a child's exit, stop everything."""
    requested: list[int] = []

    def on_signal(signum, frame):
        # Only noted: an exception raised here could land in the middle of a cleanup.
        requested.append(signum)

    # Set explicitly: a shell that starts us in the background leaves SIGINT ignored.
    for sig in STOP_SIGNALS:
        signal.signal(sig, on_signal)
    processes: list[tuple[str, subprocess.Popen]] = []
    try:
        start_children(processes, dict(os.environ), requested)
        return supervise(processes, requested)
    finally:
        stop_all(processes)
        # Python puts the default handlers back as it exits (but leaves ignored signals
        # ignored): a late signal must not turn a clean stop into death by signal.
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)


if __name__ == "__main__":
    sys.exit(main())
