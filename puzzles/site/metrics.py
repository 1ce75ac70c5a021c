"""What monitors read: the site's Prometheus metrics, served at /metrics to whoever holds
METRICS_TOKEN, and the health checks /healthz and /healthz/workers, whose details (pool
stock, heartbeats, the broker) are told only to a monitor (the token, or an address of
MONITOR_NETWORKS) or a staff member: anyone else learns whether the site is up.

Two sources. What happens inside the web processes is counted where it happens, with
prometheus_client: requests and their latency here (request_log.py times them), games
started and moves in play/starting.py and play/changes.py. Under gunicorn each process
writes its counts to PROMETHEUS_MULTIPROC_DIR and a scrape adds them up (see
sudokusite/gunicorn.py). What the workers do and what the pools hold is read from the
database at each scrape, since workers run on other machines: pool stock and marks, refill
batches and their duration (pools/activity.py), worker and beat heartbeats
(pools/heartbeats.py), and the broker's queue.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from collections.abc import Iterator

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)

from sudokusite import build

from ..accounts.limits import client_ip
from ..pools import activity, health, heartbeats
from ..pools.broker import queue_depth
from ..pools.stock import fresh_counts, targets

# A page answers in milliseconds, a new game that has to make its puzzle in seconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUEST_SECONDS = Histogram(
    "sudoku_http_request_duration_seconds",
    "Time from a request's arrival to its answer, by view and status.",
    ["method", "view", "status"],
    buckets=LATENCY_BUCKETS,
)

SHED = Counter(
    "sudoku_requests_shed",
    "Requests answered 503 at once, before any work, because they waited for a web thread "
    "longer than SHED_AFTER_MS.",
)


class PoolsAndWorkers:
    """The figures read from the database (and the broker) at each scrape."""

    def collect(self) -> Iterator[Metric]:
        info = GaugeMetricFamily(
            "sudoku_build_info",
            "The build this process runs: its version and commit (read once, at start).",
            labels=["version", "commit"],
        )
        info.add_metric([build.VERSION, build.COMMIT], 1)
        yield info
        try:
            read = [*self._pools(), *self._refills(), *self._workers()]
        except DatabaseError:  # the database is down: its figures are not told, the rest is
            read = None
        yield GaugeMetricFamily(
            "sudoku_database_up",
            "1 when the database answered the scrape's reads.",
            value=0 if read is None else 1,
        )
        yield from read or ()
        yield from self._queue()

    def _pools(self) -> Iterator[Metric]:
        stock = GaugeMetricFamily(
            "sudoku_pool_fresh_puzzles", "Fresh puzzles in stock.", labels=["difficulty"]
        )
        low = GaugeMetricFamily(
            "sudoku_pool_low_mark", "Refill below this stock.", labels=["difficulty"]
        )
        high = GaugeMetricFamily(
            "sudoku_pool_high_mark", "Refill up to this stock.", labels=["difficulty"]
        )
        counts = fresh_counts()
        for difficulty, target in targets().items():
            stock.add_metric([difficulty], counts[difficulty])
            low.add_metric([difficulty], target.low)
            high.add_metric([difficulty], target.high)
        yield from (stock, low, high)

    def _refills(self) -> Iterator[Metric]:
        batches = CounterMetricFamily(
            "sudoku_refill_batches", "Refill batches run, by difficulty.", labels=["difficulty"]
        )
        stored = CounterMetricFamily(
            "sudoku_refill_puzzles_stored",
            "Puzzles the refill batches stored, by difficulty.",
            labels=["difficulty"],
        )
        duration = HistogramMetricFamily(
            "sudoku_refill_batch_duration_seconds",
            "Time a refill batch took to make and store its puzzles.",
            labels=["difficulty"],
        )
        for difficulty, tally in activity.tallies().items():
            batches.add_metric([difficulty], tally.batches)
            stored.add_metric([difficulty], tally.stored)
            bounds = [str(bound) for bound in activity.BATCH_BUCKETS] + ["+Inf"]
            counts = [*tally.buckets, tally.batches]
            duration.add_metric([difficulty], list(zip(bounds, counts, strict=True)), tally.seconds)
        yield from (batches, stored, duration)

    def _workers(self) -> Iterator[Metric]:
        alive = GaugeMetricFamily(
            "sudoku_workers_alive",
            "Processes seen within WORKER_GONE_SECONDS, by kind (worker, beat).",
            labels=["kind"],
        )
        states = GaugeMetricFamily(
            "sudoku_workers",
            "Processes seen in the last day, by kind and state: alive, no_broker (seen, but "
            "not reaching the broker), gone (no heartbeat within WORKER_GONE_SECONDS), "
            "stopped (said so on a clean stop).",
            labels=["kind", "state"],
        )
        seen = GaugeMetricFamily(
            "sudoku_worker_last_seen_timestamp_seconds",
            "When a process of the kind last wrote its heartbeat (Unix time).",
            labels=["kind"],
        )
        for kind, found in heartbeats.health(timezone.now()).items():
            alive.add_metric([kind], found.alive)
            for state in ("alive", "no_broker", "gone", "stopped"):
                states.add_metric([kind, state], getattr(found, state))
            if found.last_seen is not None:
                seen.add_metric([kind], found.last_seen.timestamp())
        yield from (alive, states, seen)

    def _queue(self) -> Iterator[Metric]:
        depth = queue_depth()
        up = GaugeMetricFamily("sudoku_broker_up", "1 when the broker (Redis) answers.")
        up.add_metric([], 0 if depth is None else 1)
        yield up
        if depth is not None:
            queued = GaugeMetricFamily(
                "sudoku_celery_queue_length", "Tasks waiting for a worker.", value=depth["queued"]
            )
            unacked = GaugeMetricFamily(
                "sudoku_celery_unacked_tasks",
                "Tasks handed to a worker and not yet done.",
                value=depth["unacked"],
            )
            yield from (queued, unacked)


def exposition() -> bytes:
    """Every metric in Prometheus's text format: the web processes' counters (added up
    over gunicorn's processes in multiprocess mode) and the figures of the database."""
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        processes = CollectorRegistry()
        multiprocess.MultiProcessCollector(processes)
    else:
        processes = REGISTRY  # one process (the development server, the tests)
    site = CollectorRegistry(auto_describe=False)
    site.register(PoolsAndWorkers())
    return generate_latest(processes) + generate_latest(site)


def holds_metrics_token(request: HttpRequest) -> bool:
    """Whether the request carries "Authorization: Bearer <METRICS_TOKEN>" (none is set:
    no request does)."""
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "").encode()
    return bool(token) and hmac.compare_digest(given, f"Bearer {token}".encode())


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus's scrape, for the holder of METRICS_TOKEN only; 404 while none is set.
    It answers whatever the Host (site/middleware.py), since Prometheus names each machine
    by its address."""
    if not settings.METRICS_TOKEN:
        # A plain answer, not the site's 404 page: a request by address comes here without
        # the middleware that page needs (site/middleware.py).
        return HttpResponseNotFound("Not found.\n", content_type="text/plain")
    if not holds_metrics_token(request):
        response = HttpResponse("A bearer token is needed.\n", content_type="text/plain")
        response.status_code = 401
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)


def is_monitor(request: HttpRequest) -> bool:
    """A monitor or an admin: the metrics' token, an address of MONITOR_NETWORKS (the
    machine itself by default), or a staff member's session. Anyone else is told whether
    the site is up, not how full each pool is or when the workers were last seen (which
    would tell someone draining a tier when it is empty)."""
    if holds_metrics_token(request):
        return True
    try:
        address = ipaddress.ip_address(client_ip(request))
    except ValueError:
        address = None
    if address is not None and any(address in net for net in settings.MONITOR_NETWORKS):
        return True
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_active and user.is_staff)


def _health_answer(request: HttpRequest, status: int, body: dict) -> JsonResponse:
    if not is_monitor(request):
        body = {"status": "ok" if status == 200 else "down"}
    return JsonResponse(body, status=status)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """For the proxy: 200 while the database answers; to a monitor, also the broker, the
    fresh stock and the workers."""
    status, body = health.site()
    return _health_answer(request, status, body)


@never_cache
@require_safe
def healthz_workers(request: HttpRequest) -> JsonResponse:
    """For monitors: 503 while no worker or no beat is alive, 200 with their heartbeats."""
    status, body = health.workers()
    response = _health_answer(request, status, body)
    # A 503 here is the check's answer, not a failure of the site: the request log has its
    # line, and Django's error log (and whatever alerts on it) is left out.
    response._has_been_logged = True
    return response
