"""A real Chromium (Debian's) driven by Playwright against the live test server."""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from pathlib import Path

import pytest
from django.core import signals
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

import engine
from puzzles.accounts import limits
from puzzles.pools.stock import insert_new, puzzle_row

# Playwright's sync API keeps an event loop open in this thread for the rest of the
# session; the tests' database calls are ordinary blocking ones, which Django would
# otherwise refuse there. (Child processes that run deploy checks drop it again.)
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => console.error(
  `Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI}` +
  ` at ${e.sourceFile}:${e.lineNumber}`
));
"""


@pytest.fixture(autouse=True)
def _quick_sends(request, settings) -> None:
    """The game page sends its changes within 40 ms, as quick taps share a batch, instead of
    at the site's cadence (SEND_EVERY_MS, seconds): a test waits for "Saved" after its moves.
    Tests marked `cadence` keep the site's own."""
    if request.node.get_closest_marker("cadence") is None:
        settings.SEND_EVERY_MS = 40


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Every test starts with no attempts counted: all its pages come from one address."""
    limits.clear_all()
    yield
    limits.clear_all()


@pytest.fixture(scope="session")
def browser() -> Browser:
    assert CHROMIUM.exists(), "Chromium is missing: `make test` installs Debian's chromium package"
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield chromium
        chromium.close()


# Every service worker of a context, unregistered; given two seconds at most.
UNREGISTER = """() => Promise.race([
  navigator.serviceWorker.getRegistrations()
    .then((all) => Promise.all(all.map((r) => r.unregister()))),
  new Promise((done) => setTimeout(done, 2000)),
])"""


def _unregistering_close(context: BrowserContext) -> None:
    """Chromium can hang for good closing a context whose service worker is still
    registered, and a worker left behind can hang the next context's close: a context that
    allows them unregisters its workers before it closes."""
    close = context.close

    def unregister_then_close(**options) -> None:
        for page in context.pages:
            with contextlib.suppress(PlaywrightError):  # a page closed or crashed meanwhile
                page.evaluate(UNREGISTER)
        close(**options)

    context.close = unregister_then_close


class _Requests:
    """The live server's requests under way (it serves from threads of this process), and
    when the last one began or ended."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.under_way = 0
        self.last = time.monotonic()

    def started(self, **kwargs) -> None:
        with self.lock:
            self.under_way += 1
            self.last = time.monotonic()

    def finished(self, **kwargs) -> None:
        with self.lock:
            self.under_way -= 1
            self.last = time.monotonic()

    def wait_quiet(self, quiet: float = 0.15, most: float = 10.0) -> None:
        deadline = time.monotonic() + most
        while time.monotonic() < deadline:
            with self.lock:
                if self.under_way <= 0 and time.monotonic() - self.last >= quiet:
                    return
            time.sleep(0.02)


@pytest.fixture(autouse=True)
def _live_server_quiet_before_the_flush(request) -> None:
    """A page's last requests (a pause sent as it closes) are served before the test's
    database is flushed: on PostgreSQL a request still running holds a lock the flush's
    TRUNCATE waits for, and the two deadlock."""
    if "live_server" not in request.fixturenames:
        yield
        return
    requests = _Requests()
    signals.request_started.connect(requests.started, dispatch_uid="browser-requests-started")
    signals.request_finished.connect(requests.finished, dispatch_uid="browser-requests-finished")
    try:
        yield
        requests.wait_quiet()
    finally:
        signals.request_started.disconnect(dispatch_uid="browser-requests-started")
        signals.request_finished.disconnect(dispatch_uid="browser-requests-finished")


@pytest.fixture(autouse=True)
def _no_csp_violations(request, monkeypatch) -> None:
    """Every browser test fails on a Content-Security-Policy violation in any page it
    opens: Chromium reports each in the console, and the page's securitypolicyviolation
    event is written there too. The site's service worker is blocked unless the test is
    marked service_worker (the offline tests)."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    violations: list[str] = []
    new_context = browser.new_context
    workers = "allow" if request.node.get_closest_marker("service_worker") else "block"

    def watched(**options) -> BrowserContext:
        options.setdefault("service_workers", workers)
        context = new_context(**options)
        if options["service_workers"] == "allow":
            _unregistering_close(context)
        context.add_init_script(CSP_LISTENER)
        context.on(
            "console",
            lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
        )
        return context

    monkeypatch.setattr(browser, "new_context", watched)
    yield
    assert not violations, violations


@pytest.fixture
def page(browser: Browser, live_server) -> Page:
    """A fresh browser context (a new guest), failing the test on any script error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Script errors fail the test; a 4xx the page handles (a 409, say) only logs
    # "Failed to load resource", which the tests judge by what the page shows.
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.base = live_server.url
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def stock(transactional_db) -> None:
    rng = random.Random(7)
    insert_new([puzzle_row(engine.make_puzzle(d, seed=rng)) for d in ["easy"] * 6 + ["medium"] * 2])
