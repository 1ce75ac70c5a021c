"""The Celery app; its settings are the CELERY_* names in sudokusite/settings.py. Workers
and beat also write a heartbeat each (puzzles/pools/heartbeats.py) while they run. A task
sent while a request is served carries the request's id, and its lines in the worker carry
it too (sudokusite/logs.py)."""

from __future__ import annotations

import atexit
import os
import socket
from contextvars import Token

from celery import Celery
from celery.signals import (
    beat_init,
    before_task_publish,
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_init,
    worker_ready,
    worker_shutdown,
)
from celery.utils.log import get_logger

from .logs import current_request_id, sane_request_id

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")

app = Celery("sudokusite")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Tasks live with the concern they serve: the pools' and learning's.
app.autodiscover_tasks(["puzzles.pools", "puzzles.learn", "puzzles.play"])

# The message header that carries a request's id to the tasks it sends.
REQUEST_ID_HEADER = "request_id"

_heartbeats: list = []  # this process's heartbeat thread, once started
# The request id each running task replaced, by task id, to put back when it is done.
_request_ids: dict[str | None, Token] = {}
log = get_logger(__name__)


@worker_init.connect
def warm_the_engine(sender, **kwargs) -> None:
    """Load the engine's compiled kernels before the pool starts: its processes are forked
    from this one and begin warm, so no refill pays for a cold start. (In each pool process
    instead, worker_process_init, the time would count against the pool's 4 s for a new
    process to come up, which a loaded machine could miss.)"""
    import engine

    log.info("engine warmed up in %.0f ms", engine.warm_up() * 1e3)


@worker_process_init.connect
def make_puzzles_at_a_lower_priority(**kwargs) -> None:
    """The pool's processes make the puzzles: they run WORKER_NICE levels below the web
    (and below this worker's main process, which takes tasks and keeps the heartbeat), and
    with WORKER_IDLE in Linux's idle class (SCHED_IDLE): a core a web thread wakes up on is
    handed to it at once, so on a machine that also serves players the generator only takes
    CPU no player wants."""
    from django.conf import settings

    if settings.WORKER_NICE:
        os.nice(settings.WORKER_NICE)
    if settings.WORKER_IDLE and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError as error:
            log.warning("the pool process stays in the normal class: %s", error)


@worker_ready.connect
def check_pools_on_start(sender, **kwargs) -> None:
    """A worker that comes up tops up the pools, picks today's dailies, resumes stalled
    seed jobs and looks for technique examples at once, instead of waiting for beat."""
    from django.conf import settings

    if settings.WORKER_START_CHECKS:
        sender.app.send_task("puzzles.pools.tasks.refill_pools")
        sender.app.send_task("puzzles.pools.tasks.ensure_daily")
        sender.app.send_task("puzzles.pools.tasks.resume_stalled_seed_jobs")
        sender.app.send_task("puzzles.learn.tasks.refresh_technique_examples")


@worker_ready.connect
def start_worker_heartbeat(sender, **kwargs) -> None:
    """A worker ready for tasks says so every HEARTBEAT_SECONDS, under its node name."""
    from puzzles.pools import heartbeats

    _heartbeats.append(heartbeats.start("worker", sender.hostname))


@worker_shutdown.connect
def stop_worker_heartbeat(sender, **kwargs) -> None:
    """A worker that stops cleanly shows as stopped at once."""
    while _heartbeats:
        _heartbeats.pop().stop()


@beat_init.connect
def start_beat_heartbeat(sender, **kwargs) -> None:
    """Beat says so every HEARTBEAT_SECONDS, as beat@host, and that it stopped when it
    exits cleanly."""
    from puzzles.pools import heartbeats

    thread = heartbeats.start("beat", f"beat@{socket.gethostname()}")
    atexit.register(thread.stop)


@before_task_publish.connect
def send_the_request_id(headers: dict | None = None, **kwargs) -> None:
    """A task sent while a request is served (or by a task that one sent) carries its id."""
    request_id = current_request_id.get()
    if request_id is not None and headers is not None:
        headers[REQUEST_ID_HEADER] = request_id


@task_prerun.connect
def take_the_request_id(task_id: str | None = None, task=None, **kwargs) -> None:
    """The task's lines carry the id of the request that sent it (checked again: a message
    is read as any input is), and so do the tasks it sends. A task run in the sending
    process itself (apply) keeps the id already there."""
    sent = getattr(task.request, REQUEST_ID_HEADER, None) if task is not None else None
    request_id = sane_request_id(sent) or current_request_id.get()
    _request_ids[task_id] = current_request_id.set(request_id)


@task_postrun.connect
def drop_the_request_id(task_id: str | None = None, **kwargs) -> None:
    """The task is done: back to the id before it (none, in a worker)."""
    token = _request_ids.pop(task_id, None)
    if token is not None:
        current_request_id.reset(token)
