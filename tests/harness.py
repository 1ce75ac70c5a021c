"""Servers and site processes the fault tests start, stop and break: a private PostgreSQL
(initdb in a temporary folder), a private Redis, gunicorn, Celery beat, a small HTTP
player that keeps its own cookies, and threads whose failures fail the test."""

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
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import wait_until_serving
from sudokusite.launcher import free_port, start_redis, stop, wait_for_port

ROOT = Path(__file__).resolve().parents[1]
PG_ROOT = Path("/usr/lib/postgresql")
JOIN_SECONDS = 120  # a thread still running this long after it was told to stop is a hang


def _version_key(name: str) -> tuple[int, ...]:
    """The numbers in a version's name, so that "9.6" (9, 6) sorts below "15" (15,)."""
    return tuple(int(part) for part in re.findall(r"\d+", name))


def postgres_bin(root: Path = PG_ROOT) -> Path:
    """The bin folder of the newest PostgreSQL installed under root (Debian's layout)."""
    versions = [
        d.name for d in root.glob("*") if (d / "bin" / "initdb").exists() and _version_key(d.name)
    ]
    if not versions:
        raise RuntimeError(f"no PostgreSQL server under {root} (apt-get install postgresql)")
    return root / max(versions, key=_version_key) / "bin"


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _run(command: list[str], timeout: float = 120) -> None:
    """Run a PostgreSQL tool; if it fails, raise with what it printed."""
    result = subprocess.run(
        _as_postgres(command), capture_output=True, text=True, timeout=timeout, check=False
    )
    if result.returncode:
        raise RuntimeError(
            f"{' '.join(command)} exited with {result.returncode}:\n{result.stdout}{result.stderr}"
        )


class PrivatePostgres:
    """A throwaway PostgreSQL cluster on a free port, that the test may stop and restart.
    If setting it up fails, nothing is left behind: no server, no folder."""

    def __init__(self) -> None:
        self.bin = postgres_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="sudoku-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        try:
            self._create()
        except BaseException:
            self.destroy()
            raise

    def _create(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        _run([str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"])
        self.start()
        address = ["-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        _run([str(self.bin / "createdb"), *address, "sudoku"])

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/sudoku"

    def _ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        files = ["-D", str(self.data), "-l", str(self.dir / "log")]
        _run([str(self.bin / "pg_ctl"), *files, "-o", options, "-w", *args])

    def start(self) -> None:
        self._ctl("start")

    def stop(self) -> None:
        self._ctl("stop", "-m", "fast")

    def query(self, sql: str) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            return conn.execute(sql).fetchall()

    def cut_connections(self, keep: int = 0) -> int:
        """Terminate every other session on the site's database but the one numbered keep,
        as a network fault or a database restart would do to the processes using it; how
        many were cut."""
        return len(
            self.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = 'sudoku' AND pid <> pg_backend_pid() AND pid <> {int(keep)}"
            )
        )

    def destroy(self) -> None:
        """Stop the server if it runs and remove its folder."""
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self._ctl("stop", "-m", "immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class HeldWrites:
    """The puzzle table held against writes from every other connection, until released:
    a batch or a chunk under way can read, but cannot store anything, let alone commit.

    So a fault test knows where the work it breaks stands, whatever the machine's speed.
    On PostgreSQL it also tells when somebody is waiting for the table (`waiting`), the
    moment a connection cut lands inside that transaction; SQLite cannot tell that.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.pid = 0  # the holding session's backend, on PostgreSQL
        if url.startswith("sqlite"):
            import sqlite3

            self._conn = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
            self._conn.execute("BEGIN IMMEDIATE")  # the database's one write lock
        else:
            import psycopg

            self._conn = psycopg.connect(url)
            self._conn.execute("LOCK TABLE puzzles_puzzle IN SHARE MODE")
            self.pid = self._conn.info.backend_pid

    def waiting(self) -> int:
        """How many other PostgreSQL sessions wait for a lock now."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as probe:
            row = probe.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND pid <> %s",
                (self.pid,),
            ).fetchone()
        return row[0]

    def wait_for_waiter(self, seconds: float = 120) -> None:
        """Return once another session waits for the table: its transaction is open."""
        wait_until(lambda: self.waiting() > 0, seconds, "a writer waiting for the table")

    def release(self) -> None:
        if self._conn is not None:
            self._conn.rollback()
            self._conn.close()
            self._conn = None

    def __enter__(self) -> HeldWrites:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


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
        "RATE_LIMITS": "0",  # players from one address start several games a second
        "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    manage(env, "collectstatic", "--noinput", "-v0")
    return env


class Gunicorn:
    """The site under gunicorn, as in production: gthread workers (see README, Operations).
    Ready once it answers a request; if it does not, its processes are stopped, not left."""

    def __init__(self, env: dict[str, str], workers: int = 2, threads: int = 4) -> None:
        self.port = free_port()
        self.log = Path(tempfile.mkstemp(prefix="gunicorn-", suffix=".log")[1])
        command = [sys.executable, "-m", "gunicorn", "sudokusite.wsgi"]
        command += ["--workers", str(workers), "--worker-class", "gthread"]
        command += ["--threads", str(threads), "--bind", f"127.0.0.1:{self.port}"]
        command += ["--timeout", "30", "--graceful-timeout", "5"]
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            self._wait_until_serving(seconds=60)
        except BaseException:
            self.stop()
            raise

    def output(self) -> str:
        """What gunicorn and the site logged so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def _wait_until_serving(self, seconds: float) -> None:
        try:
            wait_until_serving(self.process, self.port, seconds)
        except RuntimeError as error:
            raise RuntimeError(f"{error}:\n{self.output()[-3000:]}") from None

    def stop(self) -> None:
        stop([("gunicorn", self.process)])
        self.log.unlink(missing_ok=True)


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


def broker_idle(broker_url: str) -> bool:
    """Whether the broker holds no task: none queued, and none handed to a worker and not
    yet acknowledged. Tasks are acknowledged after they ran, and a task queues its
    follow-up before that, so an idle broker means every task sent so far ran to its end."""
    import redis

    with redis.Redis.from_url(broker_url) as client:
        queues = [key for key in client.scan_iter("celery*") if client.type(key) == b"list"]
        return sum(client.llen(key) for key in queues) == 0 and client.hlen("unacked") == 0


def wait_until_idle(broker_url: str, seconds: float = 120) -> None:
    """Return once the workers have run every task sent, follow-ups and retries included;
    what a test checks after that, no late task can still change."""
    wait_until(lambda: broker_idle(broker_url), seconds, "the workers done with every task")


@contextlib.contextmanager
def background(
    *calls: Callable[[], None], stop: threading.Event | None = None
) -> Iterator[list[BaseException]]:
    """Run each call in a thread while the block runs; then set stop, wait for the threads,
    and fail with whatever any of them raised (an exception in a thread alone fails
    nothing). The block gets the list of failures so far, to stop waiting early."""
    errors: list[BaseException] = []

    def guarded(call: Callable[[], None]) -> None:
        try:
            call()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(call,), daemon=True) for call in calls]
    for thread in threads:
        thread.start()
    try:
        yield errors
    except BaseException as error:
        errors.insert(0, error)
    finally:
        if stop is not None:
            stop.set()
        deadline = time.monotonic() + JOIN_SECONDS
        for thread in threads:
            thread.join(max(0.1, deadline - time.monotonic()))
    hung = sum(thread.is_alive() for thread in threads)
    if hung:
        errors.append(AssertionError(f"{hung} of {len(threads)} threads did not finish"))
    if errors:
        raise BaseExceptionGroup(f"{len(errors)} failures in or beside the threads", errors)


def run_together(*calls: Callable[[], None]) -> None:
    """Run the calls at once, each in a thread; fail with what any of them raised."""
    with background(*calls):
        pass
