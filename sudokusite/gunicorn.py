"""gunicorn's settings for the site, read with `gunicorn -c python:sudokusite.gunicorn`.

gunicorn runs several web processes; each counts its own requests, games and moves. In
Prometheus's multiprocess mode they write their counters to files in one folder
(PROMETHEUS_MULTIPROC_DIR), which /metrics adds up. The folder must be chosen before any
process imports prometheus_client (it picks its storage at import), emptied when gunicorn
starts (counters from an earlier run would be added in), and told of every process that
exits. Without PROMETHEUS_MULTIPROC_DIR in the environment, a new temporary folder is used
and removed when gunicorn exits.

gunicorn's own lines (its error log, and its access log when one is asked for) take the
site's format: with LOG_FORMAT=json one JSON object a line, each with the request id.

An upgrade hands the site over from one release to the next with no request dropped
(docs/upgrades.md): USR2 starts a new master on the code the `current` link points to now,
beside the old one and on the same socket; each of its web processes marks itself ready in
GUNICORN_READY_DIR once warmed up, and deploy/sudoku-web-handover then stops the old master
gracefully. So a release reads its code from its own folder, never through the link, and
a master started by USR2 keeps the metrics files of the processes still serving.
"""

from __future__ import annotations

import gc
import os
import shutil
import sys
import tempfile
from pathlib import Path

from gunicorn import glogging, systemd

# The release's own folder (/srv/sudoku/releases/<commit>, started from the `current` link):
# its code and its virtualenv's are imported from there, so that switching the link for
# the next release never hands a process of this one a file of the other.
chdir = os.path.realpath(os.getcwd())
sys.path[:] = [os.path.realpath(entry) if entry else entry for entry in sys.path]
_package = sys.modules[__name__.rpartition(".")[0]]
_package.__path__[:] = [os.path.realpath(entry) for entry in _package.__path__]

from .logs import RequestIdFilter, json_formatter  # noqa: E402  (from the release's folder)

# Set in a master started by USR2 (the old master's pid), until the old master is gone.
_handed_over = "GUNICORN_PID" in os.environ
READY_DIR = Path(os.environ["GUNICORN_READY_DIR"]) if os.environ.get("GUNICORN_READY_DIR") else None

_made_here = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
if _made_here:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="sudoku-metrics-")
METRICS_DIR = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])

# Requests are logged by the site itself, one line each with its latency (LOG_FORMAT).
accesslog = None


class Logger(glogging.Logger):
    """gunicorn's logger, writing where gunicorn's options say; with LOG_FORMAT=json its
    lines are JSON objects like the site's, so that a JSON log holds no plain line, and
    each carries the id of the request it was written for (the access line of a request,
    written in the thread that served it, carries that request's)."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        if os.environ.get("LOG_FORMAT") != "json":
            return
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(json_formatter())
                handler.addFilter(RequestIdFilter())


logger_class = Logger

# A player acts every few seconds (5 s on average, and 1 in 100 pauses more than 23 s), so
# gunicorn's default 2 s keep-alive closed the connection before most actions: 50-65% of
# requests at human pace opened a new one (`python -m bench human`). Idle connections cost
# a gthread worker a socket in its poller and no thread; each worker holds at most
# worker_connections (1,000) at once. Longer than nginx's 60 s for its upstream connections
# (deploy/nginx-sudoku.conf), so that gunicorn never closes one that nginx is about to use.
keepalive = 75


def on_starting(server) -> None:
    """Start the counters from zero: empty the folder of an earlier run. A master started by
    USR2 keeps them: the old master's processes are still serving and writing there."""
    METRICS_DIR.mkdir(parents=True, exist_ok=True)
    if READY_DIR is not None:
        READY_DIR.mkdir(parents=True, exist_ok=True)
    if _handed_over:
        return
    for stale in METRICS_DIR.glob("*.db"):
        stale.unlink()
    if READY_DIR is not None:
        for stale in READY_DIR.iterdir():
            stale.unlink()


def when_ready(server) -> None:
    """A master started by USR2 tells systemd it is the service's main process now, so that
    the old master stopping does not stop the service (the unit's NotifyAccess=all)."""
    if _handed_over:
        systemd.sd_notify(f"MAINPID={os.getpid()}", server.log)


def post_worker_init(worker) -> None:
    """Before a web process serves anyone: the engine's compiled kernels loaded and the URLs
    read, so that its first hint and first move cost what later ones do (cold, 0.2-0.8 s).
    Then what is loaded by now (Django, the views, the engine's tables: some 200,000
    objects) is frozen out of the garbage collector's reach: it lives as long as the
    process, and each collection of a request's garbage no longer walks it (a request's
    collections took 0.26 ms of CPU with it, 0.10 ms without)."""
    from django.urls import get_resolver

    import engine

    seconds = engine.warm_up()
    get_resolver().url_patterns  # noqa: B018 - reading them imports every view
    gc.collect()
    gc.freeze()
    worker.log.info(
        "engine warmed up in %.0f ms; %d objects frozen out of the collector's walks",
        seconds * 1e3,
        gc.get_freeze_count(),
    )
    if READY_DIR is not None:
        # What deploy/sudoku-web-handover waits for before it stops the old master.
        (READY_DIR / str(os.getpid())).touch()


def child_exit(server, worker) -> None:
    """A web process exited: its live gauges no longer count (its counters still do)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid, str(METRICS_DIR))
    if READY_DIR is not None:
        (READY_DIR / str(worker.pid)).unlink(missing_ok=True)


def on_exit(server) -> None:
    """Remove the folder made for this run."""
    if _made_here:
        shutil.rmtree(METRICS_DIR, ignore_errors=True)
