"""Servers and site processes that the tests and the benchmarks start, stop and break: a
private PostgreSQL (initdb in a temporary folder), a private Redis, Celery workers and
beat, gunicorn, management commands, a small HTTP player that keeps its own cookies, and
threads whose failures fail the test."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sudokusite.processes import (
    ROOT,
    beat_command,
    free_port,
    redis_command,
    signal_group,
    stop,
    wait_for_port,
    worker_command,
)

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


def _run(command: list[str], timeout: float | None = 120, **options: object) -> str:
    """Run a command; its output, or if it fails, raise with what it printed."""
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, check=False, **options
    )
    if result.returncode:
        raise RuntimeError(
            f"{' '.join(command)} exited with {result.returncode}:\n{result.stdout}{result.stderr}"
        )
    return result.stdout


def _run_postgres(command: list[str]) -> None:
    """Run a PostgreSQL tool; if it fails, raise with what it printed."""
    _run(_as_postgres(command))


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
        _run_postgres(
            [str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"]
        )
        self.start()
        address = ["-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        _run_postgres([str(self.bin / "createdb"), *address, "sudoku"])

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/sudoku"

    def _ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        files = ["-D", str(self.data), "-l", str(self.dir / "log")]
        _run_postgres([str(self.bin / "pg_ctl"), *files, "-o", options, "-w", *args])

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
    """A Redis server on a fixed free port that keeps nothing on disk, stopped and started
    again on the same port; its files in directory (a new temporary folder by default)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.port = free_port()
        self.dir = directory or Path(tempfile.mkdtemp(prefix="sudoku-redis-"))
        self.process: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server; if it does not answer, stop it and fail."""
        command = redis_command(self.port, self.dir)
        self.process = subprocess.Popen(command, start_new_session=True)
        try:
            wait_for_port(self.port)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        if self.process is not None:
            stop([("redis", self.process)])
            self.process = None


def manage(env: dict[str, str], *args: str, timeout: float | None = 300) -> str:
    """Run a management command in a child process with env; its output."""
    return _run([sys.executable, "manage.py", *args], timeout, cwd=ROOT, env=env)


def python(
    env: dict[str, str], *args: str, cwd: Path = ROOT, timeout: float = 300
) -> subprocess.CompletedProcess:
    """This Python run with args in a child process with env (and no other variable), its
    output kept; failing or not, the caller reads what it did."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def settings_refuse(name: str, value: str) -> str:
    """What the site says as it refuses to start with the setting `name` set to `value`
    (the test fails if it starts)."""
    env = {**os.environ, name: value, "DJANGO_SETTINGS_MODULE": "sudokusite.settings"}
    result = python(env, "-c", "import django; django.setup()", timeout=120)
    assert result.returncode != 0, f"the site started with {name}={value!r}"
    return result.stderr


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


class Child:
    """A process of the site in a process group of its own, started from the project's
    folder, writing to a log file (or, with no log, to this process's output)."""

    name = "child"

    def __init__(self, command: list[str], env: dict[str, str], log: Path | None) -> None:
        self.log = log
        with log.open("w") if log else contextlib.nullcontext() as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT if out else None,
                start_new_session=True,
            )

    def output(self) -> str:
        """Everything the process logged so far."""
        return self.log.read_text(errors="replace") if self.log and self.log.exists() else ""

    def stop(self) -> None:
        """SIGTERM the process group, SIGKILL what is left after the grace period."""
        stop([(self.name, self.process)])
        if self.log:
            self.log.unlink(missing_ok=True)


def _log_file(prefix: str) -> Path:
    return Path(tempfile.mkstemp(prefix=prefix, suffix=".log")[1])


class WorkerProcess(Child):
    """A Celery worker (and its pool), for the tests and benchmarks that need real workers.
    Ready when made, unless wait is False: then ready() waits, so that the caller can first
    put it on the list of processes to stop, should the waiting be interrupted."""

    name = "worker"

    def __init__(self, env: dict[str, str], concurrency: int = 1, *, wait: bool = True) -> None:
        self.hostname = f"w{uuid.uuid4().hex[:8]}@localhost"  # its name in the heartbeats
        command = worker_command(concurrency, self.hostname)
        super().__init__(command, env, _log_file("celery-"))
        if wait:
            self.ready()

    def ready(self, seconds: float = 90) -> None:
        """Return once the worker is ready; if it does not come up, stop it and fail."""
        try:
            self.wait_for_log("ready.", seconds)
        except BaseException:
            self.stop()  # never leave a worker behind that did not come up
            raise

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
        signal_group(self.process, signal.SIGKILL)
        self.process.wait()


class Beat(Child):
    """Celery beat, sending refill_pools every REFILL_INTERVAL_SECONDS; its schedule and log
    in directory (a new temporary folder by default)."""

    name = "beat"

    def __init__(self, env: dict[str, str], directory: Path | None = None) -> None:
        directory = directory or Path(tempfile.mkdtemp(prefix="beat-"))
        super().__init__(beat_command(directory / "schedule"), env, directory / "beat.log")


def _status(port: int, path: str) -> int | None:
    """The status of a GET, None when nothing answers."""
    try:
        return Player(port, timeout=5).send("GET", path)[0]
    except OSError:
        return None


def wait_until_serving(server: subprocess.Popen, port: int, seconds: float = 30) -> None:
    """Return once the site answers /healthz with a 200 (over plain HTTP, as a proxy's check
    asks it); fail if the server exits, time runs out or the answer is another status."""
    deadline = time.monotonic() + seconds
    while (status := _status(port, "/healthz")) is None:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with status {server.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the site did not answer on port {port} within {seconds} s")
        time.sleep(0.1)
    if status != 200:
        raise RuntimeError(f"GET /healthz answered {status}, not 200")


class Gunicorn(Child):
    """The site under gunicorn on a free port, as in production (see docs/operations.md):
    gthread workers, which keep connections alive (where the sync worker closes each one
    after its answer, and every request pays a TCP connect on both sides) and go on with
    other threads while one waits on PostgreSQL. Measured by the web benchmark (10 s runs,
    its ceiling and moves requests/s): sync 2,700 and 340, gthread with 2 threads 4,900 and
    360, 4 threads 4,800 and 370, 8 threads 4,400 and 320.

    Told of its clients, each worker takes at most its share of their connections
    (--worker-connections), so that keep-alive connections, accepted by whichever worker is
    quicker, split evenly: left alone they split 47 to 3 or 2 to 48, and the worker with 2
    players sat at 40% CPU in the web benchmark's moves scenario. Options go on gunicorn's
    command line as they are. With echo, it writes
    its warnings to this process's output, where a benchmark's reader sees them, instead
    of everything to a log file. Ready once it answers a request; if it does not, its
    processes are stopped, not left."""

    name = "gunicorn"

    def __init__(
        self,
        env: dict[str, str],
        workers: int = 2,
        threads: int = 4,
        *,
        clients: int | None = None,
        echo: bool = False,
        options: tuple[str, ...] = (),
    ) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "gunicorn", "--config", "python:sudokusite.gunicorn"]
        command += ["sudokusite.wsgi", "--workers", str(workers), "--worker-class", "gthread"]
        command += ["--threads", str(threads), "--bind", f"127.0.0.1:{self.port}"]
        command += ["--timeout", "30", "--graceful-timeout", "5"]
        if clients is not None:
            command += ["--worker-connections", str(-(-clients // workers))]
        command += list(options)
        if echo:
            command += ["--log-level", "warning"]
            env = {**env, "LOG_LEVEL": "WARNING"}  # not a line for every request
        super().__init__(command, env, None if echo else _log_file("gunicorn-"))
        try:
            try:
                wait_until_serving(self.process, self.port, seconds=60)
            except RuntimeError as error:
                raise RuntimeError(f"{error}:\n{self.output()[-3000:]}") from None
        except BaseException:
            self.stop()
            raise


def set_cookies(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The cookies that an answer's headers set, name to value."""
    pairs = (v.split(";", 1)[0] for k, v in headers if k.lower() == "set-cookie")
    return dict(pair.strip().split("=", 1) for pair in pairs)


def cookie_header(jar: dict[str, str]) -> str:
    """A Cookie header's value."""
    return "; ".join(f"{name}={value}" for name, value in jar.items())


@dataclass
class Player:
    """A browser-like HTTP client: keeps its cookies, sends the page's CSRF token with each
    POST (and a JSON body); a new connection for each request, or with keep_alive one kept
    open between them. Headers go with every request: X-Forwarded-Proto, say, to come as
    through the proxy that terminates TLS; with a TLS context, it speaks HTTPS to the
    proxy itself."""

    port: int
    timeout: float = 15.0
    keep_alive: bool = False
    headers: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    token: str = ""
    connection: http.client.HTTPConnection | None = field(default=None, repr=False)
    tls: ssl.SSLContext | None = field(default=None, repr=False)

    def send(self, method: str, path: str, body: object = None) -> tuple[int, dict, str]:
        """One request; (status, headers, text)."""
        headers = {**self.headers, "Cookie": cookie_header(self.cookies)}
        data = None
        if method == "POST":
            headers |= {"X-CSRFToken": self.token, "Content-Type": "application/json"}
            data = json.dumps(body or {})
        if self.connection is None and self.tls is not None:
            self.connection = http.client.HTTPSConnection(
                "127.0.0.1", self.port, timeout=self.timeout, context=self.tls
            )
        if self.connection is None:
            self.connection = http.client.HTTPConnection(
                "127.0.0.1", self.port, timeout=self.timeout
            )
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            text = response.read().decode("utf-8", "replace")
        except BaseException:
            self.close()  # never a connection left half-way through an exchange
            raise
        if not self.keep_alive:
            self.close()
        self.cookies |= set_cookies(response.getheaders())
        token = re.search(r'name="csrf-token" content="([^"]+)"', text)
        if token:
            self.token = token.group(1)
        return response.status, dict(response.getheaders()), text

    def close(self) -> None:
        """Close the connection kept open, if any."""
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def open_home(self) -> None:
        """GET /, as a guest arriving: its cookies and the page's CSRF token in hand."""
        status, _, text = self.send("GET", "/")
        if status != 200 or not self.token:
            raise AssertionError(f"GET / answered {status}, without a CSRF token: {text[:500]}")

    def start_game(self, difficulty: str = "easy") -> int:
        """A new game, from the home page's button; its id."""
        if not self.token:
            self.open_home()
        status, headers, text = self.send("POST", f"/play/{difficulty}/")
        if status != 302:
            raise AssertionError((status, text[:500]))
        return int(headers["Location"].rstrip("/").split("/")[-1])


def metric_value(text: str, name: str, **labels: str) -> float:
    """The value of the sample with that name and exactly those labels in a scrape of
    /metrics (Prometheus's text format); fail when there is none."""
    for line in text.splitlines():
        found = re.fullmatch(r"(\w+)(?:\{(.*)\})? (\S+)", line)
        if found and found.group(1) == name:
            pairs = dict(re.findall(r'(\w+)="([^"]*)"', found.group(2) or ""))
            if pairs == labels:
                return float(found.group(3))
    raise AssertionError(f"no {name} {labels} in:\n{text[-3000:]}")


def wait_until(condition: Callable[[], object], seconds: float = 120, what: str = "") -> None:
    """Return once condition() is true; fail when seconds have passed."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
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
