"""A surge met, not queued: the shipped nginx site stamps each request with the time it
received it, and a real gunicorn with one thread behind it turns away at once, 503 with
Retry-After, every request that waited past SHED_AFTER_MS, instead of answering it seconds
late. The health checks, waiting in the same queue, are answered all the same."""

from __future__ import annotations

import http.client
import ssl
import threading
import time

import pytest

from sudokusite.processes import free_port, wait_for_port

from ..harness import Child, Gunicorn, Player, metric_value, production_env, run_together
from ..tasks.helpers import broker_url, database_url, set_targets
from .helpers import DEPLOY, nginx_site, on_ports

TOKEN = "scrape-the-shed-" + "s" * 30
BURST = 80  # requests at once to one thread: those at the back of the queue wait long
# The burst's home pages come from returning guests (a session cookie, here one the site no
# longer knows): each is rendered for its visitor, not the newcomer's page made once for many
# (puzzles/play/newcomers.py), which costs too little for 80 to make a queue.
RETURNING = {"Cookie": "sessionid=returning0guest0whose0session0expired"}
HEALTH_CHECKS = 4
CLIENT_TIMEOUT = 60  # a request not answered by then fails the test


Answer = tuple[str, int, dict[str, str], str]


def burst(port: int, paths: list[str], headers: dict[str, str]) -> list[Answer]:
    """Each path requested at once over HTTPS with `headers`, each on its own connection
    opened first; (path, status, headers, text) of every answer."""
    context = ssl._create_unverified_context()
    connections = [
        http.client.HTTPSConnection("127.0.0.1", port, timeout=CLIENT_TIMEOUT, context=context)
        for _ in paths
    ]
    for connection in connections:
        connection.connect()  # the TLS handshakes before the burst, not in it
    ready = threading.Barrier(len(paths))
    answers: list[Answer] = []

    def ask(connection: http.client.HTTPSConnection, path: str) -> None:
        ready.wait()
        try:
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            answers.append((path, response.status, dict(response.getheaders()), text))
        finally:
            connection.close()

    run_together(*(lambda c=c, p=p: ask(c, p) for c, p in zip(connections, paths, strict=True)))
    return answers


def come_back(port: int, tries: int = 5) -> int:
    """The home page asked as a player turned away would: again after each Retry-After,
    a few times at most; the last status."""
    player = Player(port, timeout=CLIENT_TIMEOUT, tls=ssl._create_unverified_context())
    for _ in range(tries):
        status, headers, _ = player.send("GET", "/")
        if status != 503:
            return status
        time.sleep(int(headers["Retry-After"]))
    return status


@pytest.mark.django_db(transaction=True)
def test_a_burst_on_one_thread_is_answered_at_once_by_a_shed_not_queued(tmp_path):
    set_targets()  # no pool wants a refill
    env = production_env(database_url(), broker_url()) | {
        "DJANGO_BEHIND_PROXY": "1",
        "DJANGO_TRUSTED_PROXIES": "1",
        "SHED_AFTER_MS": "200",
        "METRICS_TOKEN": TOKEN,
    }
    https = free_port()
    started: list[Child] = [site := Gunicorn(env, workers=1, threads=1)]
    try:
        shipped = (DEPLOY / "nginx-sudoku.conf").read_text()
        conf = nginx_site(tmp_path, on_ports(shipped, free_port(), https, site.port))
        nginx = ["nginx", "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"]
        started.append(Child(nginx, env, tmp_path / "nginx.out"))
        wait_for_port(https, 30)
        warm = Player(site.port)  # the first home page picks the dailies: not in the burst
        assert warm.send("GET", "/")[0] == 200
        paths = ["/"] * BURST + ["/healthz"] * HEALTH_CHECKS
        answers = burst(https, paths, RETURNING)
        back = come_back(https)
        scrape = Player(site.port, headers={"Authorization": f"Bearer {TOKEN}"})
        status, _, metrics = scrape.send("GET", "/metrics")
    finally:
        for process in reversed(started):
            process.stop()
    # Every request was answered, none left to the client's timeout.
    assert len(answers) == len(paths)
    pages = [answer for answer in answers if answer[0] == "/"]
    shed = [(headers, text) for _, status, headers, text in pages if status == 503]
    # How many are served before the rest wait too long is the machine's speed: the test
    # asks only that the back of the queue was shed, and that nothing else went wrong.
    assert shed, "no request shed"
    assert {answer[1] for answer in pages} <= {200, 503}
    assert all(2 <= int(headers["Retry-After"]) <= 5 for headers, _ in shed)
    assert all("Back in a moment" in text and "busy" in text for _, text in shed)
    health = [status for path, status, _, _ in answers if path == "/healthz"]
    assert health == [200] * HEALTH_CHECKS  # waited as long, never shed
    assert status == 200
    assert back == 200  # a player told to come back later is served then
    assert metric_value(metrics, "sudoku_requests_shed_total") == len(shed)
