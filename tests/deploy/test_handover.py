"""The web unit's reload (docs/upgrades.md): gunicorn started as sudoku-web.service starts
it, from the `current` link; the link switched to another release; the unit's ExecReload
run. Afterwards every web process runs in the release switched to, every request made
meanwhile was answered, and the new master told systemd it is the main process now (on
the unit's notify socket, here one the test reads)."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import socket
import subprocess
import threading
from pathlib import Path

from sudokusite.processes import free_port, wait_for_port
from tests.harness import Player, wait_until

from .test_files import DEPLOY, PREFIX, release_folder

UNIT = DEPLOY / "sudoku-web.service"


def unit_lines(key: str) -> list[str]:
    return [
        line.removeprefix(f"{key}=")
        for line in UNIT.read_text().splitlines()
        if line.startswith(f"{key}=")
    ]


def gunicorn_processes(under: Path) -> dict[int, str]:
    """The gunicorn masters and web processes running in a folder under `under` (this
    test's own, whatever else runs on the machine): pid to that folder."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            home = os.readlink(entry / "cwd")
        except OSError:
            continue
        running = any(part.endswith(b"/gunicorn") for part in command) and state != "Z"
        if running and home.startswith(f"{under}/"):
            found[int(entry.name)] = home
    return found


def pid_parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_a_reload_hands_the_web_to_the_release_switched_to(tmp_path):
    prefix = tmp_path / "srv-sudoku"
    old = release_folder(prefix / "releases" / "old")
    new = release_folder(prefix / "releases" / "new")
    current = prefix / "current"
    current.symlink_to("releases/old")
    port = free_port()
    env = {
        key: value.replace(PREFIX, str(prefix))
        for line in unit_lines("Environment")
        for key, value in (line.split("=", 1),)
    }
    env = {
        **os.environ,
        **env,
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
        "GUNICORN_READY_DIR": str(tmp_path / "ready"),
        "DJANGO_DEBUG": "1",
    }
    (start,) = unit_lines("ExecStart")
    command = shlex.split(start.replace(PREFIX, str(prefix)))
    command[command.index("--bind") + 1] = f"127.0.0.1:{port}"
    command[command.index("--workers") + 1] = "2"
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    env["NOTIFY_SOCKET"] = str(tmp_path / "notify")
    log = (tmp_path / "gunicorn.log").open("w")
    master = subprocess.Popen(command, cwd=current, env=env, stdout=log, stderr=log)
    try:
        wait_for_port(port, 120)
        player = Player(port)
        wait_until(lambda: len(list((tmp_path / "ready").iterdir())) == 2, 120, "web ready")
        answers: list[int] = []
        done = threading.Event()

        def play() -> None:
            while not done.is_set():
                answers.append(player.send("GET", "/robots.txt")[0])

        playing = threading.Thread(target=play)
        playing.start()
        (current.parent / "switch").symlink_to("releases/new")
        (current.parent / "switch").rename(current)
        (reload,) = unit_lines("ExecReload")
        reload = reload.replace(PREFIX, str(prefix)).replace("$MAINPID", str(master.pid))
        result = subprocess.run(
            shlex.split(reload), env=env, capture_output=True, text=True, timeout=300
        )
        master.wait(timeout=60)
        done.set()
        playing.join(timeout=60)
        assert result.returncode == 0, result.stderr
        serving = gunicorn_processes(prefix)
        assert set(serving.values()) == {str(new)}, (serving, str(old))
        assert len(serving) == 3  # the new master and its two web processes
        assert answers and set(answers) == {200}, answers
        told = []
        notify.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            while True:
                told.append(notify.recv(4096).decode())
        (new_master,) = [pid for pid in serving if pid_parent(pid) not in serving]
        assert f"MAINPID={new_master}" in told, told
    finally:
        for pid in gunicorn_processes(prefix):
            os.kill(pid, signal.SIGTERM)
        if master.poll() is None:
            master.kill()
        log.close()
        notify.close()
