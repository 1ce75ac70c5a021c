"""gunicorn's settings for the site, read with `gunicorn -c python:sudokusite.gunicorn`.

gunicorn runs several web processes; each counts its own requests, games and moves. In
Prometheus's multiprocess mode they write their counters to files in one folder
(PROMETHEUS_MULTIPROC_DIR), which /metrics adds up. The folder must be chosen before any
process imports prometheus_client (it picks its storage at import), emptied when gunicorn
starts (counters from an earlier run would be added in), and told of every process that
exits. Without PROMETHEUS_MULTIPROC_DIR in the environment, a new temporary folder is used
and removed when gunicorn exits.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

_made_here = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
if _made_here:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="sudoku-metrics-")
METRICS_DIR = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])

# Requests are logged by the site itself, one line each with its latency (LOG_FORMAT).
accesslog = None


def on_starting(server) -> None:
    """Start the counters from zero: empty the folder of an earlier run."""
    METRICS_DIR.mkdir(parents=True, exist_ok=True)
    for stale in METRICS_DIR.glob("*.db"):
        stale.unlink()


def child_exit(server, worker) -> None:
    """A web process exited: its live gauges no longer count (its counters still do)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid, str(METRICS_DIR))


def on_exit(server) -> None:
    """Remove the folder made for this run."""
    if _made_here:
        shutil.rmtree(METRICS_DIR, ignore_errors=True)
