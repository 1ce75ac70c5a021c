"""Load shed at the door: under a surge, a request that waited too long for a web thread
is turned away at once with a 503 and Retry-After, before any work is done for it. Before
it comes to that, a process whose requests wait for a thread, or whose machine's cores are
nearly full, is strained (STRAIN), and the answers to the pages' batches ask them to send
less often (play/api.py)."""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from .metrics import SHED
from .middleware import ANY_HOST_PATHS
from .views import unavailable

# nginx's stamp of when it received the request: "t=" and the Unix time in seconds, to the
# millisecond ("t=1700000000.123"); the bare number is read too. ASCII digits only.
REQUEST_START = re.compile(r"(?:t=)?([0-9]{1,12}(?:\.[0-9]{1,6})?)")
# A shed request is told to come back in 2 to 5 seconds, drawn at random: the players
# turned away together do not all come back in the same second.
SHED_RETRY_AFTER = (2, 5)


def waited_ms(request: HttpRequest) -> float | None:
    """How long the request has waited since nginx received it, in milliseconds; None
    without a stamp, or with one that cannot be read or lies in the future (a clock ahead
    of this machine's), which are ignored rather than trusted."""
    found = REQUEST_START.fullmatch(request.META.get("HTTP_X_REQUEST_START", ""))
    if found is None:
        return None
    waited = (time.time() - float(found.group(1))) * 1000
    return waited if waited >= 0 else None


def machine_cpu() -> tuple[int, int] | None:
    """The machine's CPU time since boot, in clock ticks, from /proc/stat: the time spent on
    work that competes with the players' requests (user and system time at normal
    priority, interrupts, time stolen by a hypervisor) and the time in all; None where
    there is no /proc/stat. Niced time is left out of the first: the worker's puzzle making
    runs niced and gives way to the web (docs/operations.md: A worker machine)."""
    try:
        with open("/proc/stat", "rb") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if len(fields) < 5 or fields[0] != b"cpu":
        return None
    ticks = [int(field) for field in fields[1:9]]
    ticks += [0] * (8 - len(ticks))
    # user, nice, system, idle, iowait, irq, softirq, steal: nice, idle and iowait left out
    busy = ticks[0] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
    return busy, sum(ticks)


class Strain:
    """Whether this process is strained: the step before requests wait long enough to be
    shed, when the pages are asked to send less often. Either of two signs:
    - its requests have waited BUSY_WAIT_MS or more on average for a thread: the mean wait
      of those stamped in the last WINDOW_SECONDS or the window before (nothing heard:
      not strained); its threads are all at work and requests queue for them;
    - the machine's cores have been BUSY_CPU_PERCENT or more busy (machine_cpu, over the
      last 5 to 10 s, read at most once a second): they are nearly full, and a queue is
      seconds away. Once strained by it, the process stays so until the cores are 15
      points below that, so that the pages' cadence does not flap at the line.
    Per process, in memory: each process knows its own queue and reads the cores itself."""

    WINDOW_SECONDS = 5
    SAMPLE_SECONDS = 1.0  # the cores' time is read at most this often
    EASED_POINTS = 15  # how far below BUSY_CPU_PERCENT the cores must fall to end a strain

    def __init__(self, cpu: Callable[[], tuple[int, int] | None] = machine_cpu) -> None:
        self._lock = threading.Lock()
        self.cpu = cpu
        self.forget()

    def forget(self) -> None:
        """Nothing heard (a new process, a test)."""
        self._windows: dict[int, tuple[float, int]] = {}
        self._samples: list[tuple[float, int, int]] = []  # (monotonic time, busy, all)
        self._cores_full = False

    def note(self, waited: float, now: float | None = None) -> None:
        """A request waited `waited` ms for a thread."""
        window = int((time.time() if now is None else now) // self.WINDOW_SECONDS)
        with self._lock:
            total, count = self._windows.get(window, (0.0, 0))
            self._windows[window] = (total + waited, count + 1)
            if len(self._windows) > 2:
                for old in sorted(self._windows)[:-2]:
                    del self._windows[old]

    def mean_wait(self, now: float | None = None) -> float | None:
        """The mean wait in ms of the requests of this window and the last; None if none."""
        window = int((time.time() if now is None else now) // self.WINDOW_SECONDS)
        with self._lock:
            recent = [self._windows.get(w, (0.0, 0)) for w in (window - 1, window)]
        count = sum(n for _, n in recent)
        return sum(t for t, _ in recent) / count if count else None

    def cores_busy(self, now: float | None = None) -> float | None:
        """The share of the machine's CPU time, in percent, that went to work competing with
        the players' requests, from the oldest reading of the last 2 windows to now; None
        before two readings a second apart (or with no /proc/stat)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            if not self._samples or now - self._samples[-1][0] >= self.SAMPLE_SECONDS:
                read = self.cpu()
                if read is not None:
                    self._samples.append((now, *read))
                horizon = now - 2 * self.WINDOW_SECONDS
                while len(self._samples) > 2 and self._samples[1][0] <= horizon:
                    del self._samples[0]
            if len(self._samples) < 2:
                return None
            (_, busy0, all0), (_, busy1, all1) = self._samples[0], self._samples[-1]
        return 100 * (busy1 - busy0) / (all1 - all0) if all1 > all0 else None

    def strained(self, now: float | None = None) -> bool:
        threshold = settings.BUSY_WAIT_MS
        mean = self.mean_wait(now)
        if threshold and mean is not None and mean >= threshold:
            return True
        full = settings.BUSY_CPU_PERCENT
        busy = self.cores_busy() if full else None
        if busy is not None:
            if busy >= full:
                self._cores_full = True
            elif busy < full - self.EASED_POINTS:
                self._cores_full = False
        return bool(full) and self._cores_full


STRAIN = Strain()


class ShedLoadMiddleware:
    """Under a surge, requests queue in gunicorn for a free thread; answered seconds late,
    they are worth little, and answering them keeps the queue full. A request that waited
    longer than SHED_AFTER_MS since nginx received it is answered 503 with Retry-After at
    once, before its session or the database is read, so that the threads go to requests
    still worth answering. The health checks and the scrape are never shed (a monitor must
    see the site as it is), nor static files (the page already served needs them). Every
    stamped request's wait is noted in STRAIN; every request of a strained process is marked
    (`request.strained`) for the views that tell the pages to send less often."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.SHED_AFTER_MS
        if not limit or request.path_info in ANY_HOST_PATHS or _is_static(request):
            return self.get_response(request)
        waited = waited_ms(request)
        if waited is not None:
            STRAIN.note(waited)
        request.strained = STRAIN.strained()
        if waited is None or waited <= limit:
            return self.get_response(request)
        request.shed = True  # the request log's view label
        SHED.inc()
        response = unavailable(request, "busy", retry_after=random.randint(*SHED_RETRY_AFTER))
        # The site's own choice, not a failure: the request log has its line, and Django's
        # error log (and whatever alerts on it) is left out, as a surge would fill it.
        response._has_been_logged = True
        return response


def _is_static(request: HttpRequest) -> bool:
    return request.path_info.startswith("/" + settings.STATIC_URL.lstrip("/"))
