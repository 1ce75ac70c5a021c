"""Servers and site processes the fault tests start, stop and break: a private PostgreSQL
(initdb in a temporary folder), a private Redis, gunicorn, Celery beat, and a small HTTP
player that keeps its own cookies."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from sudokusite.launcher import free_port, start_redis, stop, wait_for_port

ROOT = Path(__file__).resolve().parents[1]
PG_VERSIONS = (
    sorted(os.listdir("/usr/lib/postgresql")) if Path("/usr/lib/postgresql").exists() else []
)
PG_BIN = Path("/usr/lib/postgresql") / (PG_VERSIONS[-1] if PG_VERSIONS else "15") / "bin"


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class PrivatePostgres:
    """A throwaway PostgreSQL cluster on a free port, that the test may stop and restart."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="sudoku-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        subprocess.run(
            _as_postgres(
                [str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"]
            ),
            check=True,
            capture_output=True,
        )
        self.start()
        subprocess.run(
            _as_postgres(
                [
                    str(PG_BIN / "createdb"),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "-U",
                    "postgres",
                    "sudoku",
                ]
            ),
            check=True,
            capture_output=True,
        )

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/sudoku"

    def _ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        command = [
            str(PG_BIN / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.dir / "log"),
            "-w",
            *args,
        ]
        subprocess.run(_as_postgres(command), check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        self._ctl("start")

    def stop(self) -> None:
        self._ctl("stop", "-m", "fast")

    def query(self, sql: str) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            return conn.execute(sql).fetchall()

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._ctl("stop", "-m", "immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivateRedis:
    """A Redis server on a fixed free port, stopped and started again on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="sudoku-redis-"))
        self.process: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = start_redis(self.port, self.dir)
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            stop([("redis", self.process)])
            self.process = None


def manage(env: dict[str, str], *args: str) -> str:
    """Run a management command in a child process with env; its output."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def production_env(database_url: str, redis_url: str) -> dict[str, str]:
    """The environment of a production-like site on those servers, static files collected."""
    static = tempfile.mkdtemp(prefix="sudoku-static-")
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_DEBUG": "0",
        "DJANGO_HTTPS": "0",
        "DJANGO_SECRET_KEY": "fault-tests-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_STATIC_ROOT": static,
        "WORKER_START_CHECKS": "0",
        "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    manage(env, "collectstatic", "--noinput", "-v0")
    return env


class Gunicorn:
    """The site under gunicorn, as in production."""

    def __init__(self, env: dict[str, str], workers: int = 2) -> None:
        self.port = free_port()
        self.log = Path(tempfile.mkstemp(prefix="gunicorn-", suffix=".log")[1])
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "sudokusite.wsgi",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{self.port}",
            "--timeout",
            "30",
            "--graceful-timeout",
            "5",
        ]
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_for_port(self.port, seconds=30)

    def stop(self) -> None:
        stop([("gunicorn", self.process)])


class Beat:
    """Celery beat, sending refill_pools every REFILL_INTERVAL_SECONDS."""

    def __init__(self, env: dict[str, str]) -> None:
        schedule = Path(tempfile.mkdtemp(prefix="beat-")) / "schedule"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "sudokusite",
                "beat",
                "--schedule",
                str(schedule),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def stop(self) -> None:
        stop([("beat", self.process)])


@dataclass
class Player:
    """A browser-like HTTP client: keeps its cookies, sends the page's CSRF token."""

    port: int
    timeout: float = 15.0
    cookies: dict[str, str] = field(default_factory=dict)
    token: str = ""

    def send(self, method: str, path: str, body: object = None) -> tuple[int, dict, str]:
        """One request; (status, headers, text)."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if method == "POST":
            headers |= {"X-CSRFToken": self.token, "Content-Type": "application/json"}
            data = json.dumps(body or {})
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
        finally:
            connection.close()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        token = re.search(r'name="csrf-token" content="([^"]+)"', text)
        if token:
            self.token = token.group(1)
        return response.status, dict(response.getheaders()), text

    def start_game(self, difficulty: str = "easy") -> int:
        """A new game, from the home page's button; its id."""
        if not self.token:
            status, _, text = self.send("GET", "/")
            assert status == 200, text[:500]
        status, headers, text = self.send("POST", f"/play/{difficulty}/")
        assert status == 302, (status, text[:500])
        return int(headers["Location"].rstrip("/").split("/")[-1])


def wait_until(condition, seconds: float = 60, what: str = "") -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)
