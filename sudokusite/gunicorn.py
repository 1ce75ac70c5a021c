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
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from gunicorn import glogging

from .logs import RequestIdFilter, json_formatter

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
    """Start the counters from zero: empty the folder of an earlier run."""
    METRICS_DIR.mkdir(parents=True, exist_ok=True)
    for stale in METRICS_DIR.glob("*.db"):
        stale.unlink()


def post_worker_init(worker) -> None:
    """Before a web process serves anyone: the engine's compiled kernels loaded and the URLs
    read, so that its first hint and first move cost what later ones do (cold, 0.2-0.8 s)."""
    from django.urls import get_resolver

    import engine

    seconds = engine.warm_up()
    get_resolver().url_patterns  # noqa: B018 - reading them imports every view
    worker.log.info("engine warmed up in %.0f ms", seconds * 1e3)


def child_exit(server, worker) -> None:
    """A web process exited: its live gauges no longer count (its counters still do)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid, str(METRICS_DIR))


def on_exit(server) -> None:
    """Remove the folder made for this run."""
    if _made_here:
        shutil.rmtree(METRICS_DIR, ignore_errors=True)
