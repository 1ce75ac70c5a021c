"""A load balancer or a monitor asks for /healthz by the machine's address (`Host:
10.0.0.5`), not by the site's name: the health checks answer whatever the Host, and tell
such a stranger no more than they tell anyone. So does /metrics, to the holder of its token
only. Every other path still refuses a host not in ALLOWED_HOSTS, with one warning in the
log and no traceback."""

from __future__ import annotations

import logging

import pytest

pytestmark = pytest.mark.django_db

ADDRESS = "10.0.0.5"
STRANGER = "203.0.113.9"
TOKEN = "scrape-me-" + "y" * 30


@pytest.fixture
def logged(caplog):
    caplog.set_level(logging.INFO)
    return caplog


def loud(caplog) -> list[logging.LogRecord]:
    """Records an operator is paged for: errors, and anything with a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.parametrize(
    ("path", "status", "body"),
    [("/healthz", 200, {"status": "ok"}), ("/healthz/workers", 503, {"status": "down"})],
)
@pytest.mark.parametrize("host", [ADDRESS, f"{ADDRESS}:8000", "sudoku.internal"])
def test_a_health_check_by_address_gets_its_answer(client, logged, host, path, status, body):
    response = client.get(path, HTTP_HOST=host, REMOTE_ADDR=STRANGER)
    assert (response.status_code, response.json()) == (status, body)
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert loud(logged) == []


def test_a_monitor_asking_by_address_gets_the_details(client):
    response = client.get("/healthz", HTTP_HOST=ADDRESS, REMOTE_ADDR="127.0.0.1")
    assert response.status_code == 200
    assert response.json()["database"] == "ok" and "pools" in response.json()


def test_a_health_check_by_address_is_not_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/healthz", HTTP_HOST=ADDRESS, REMOTE_ADDR=STRANGER)
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


def test_a_health_check_by_address_takes_only_get(client):
    response = client.post("/healthz", HTTP_HOST=ADDRESS, REMOTE_ADDR=STRANGER)
    assert response.status_code == 405


@pytest.mark.parametrize("path", ["/", "/api/games/", "/healthz/other", "/metrics/"])
def test_any_other_path_refuses_an_unknown_host_with_one_warning(client, logged, path):
    response = client.get(path, HTTP_HOST="evil.example", REMOTE_ADDR=STRANGER)
    assert response.status_code == 400
    refused = [r for r in logged.records if r.name == "django.security.DisallowedHost"]
    assert [(r.levelname, r.exc_info) for r in refused] == [("WARNING", None)]
    assert "evil.example" in refused[0].getMessage()
    assert "\n" not in refused[0].getMessage()
    assert loud(logged) == []


@pytest.mark.parametrize("host", [ADDRESS, f"{ADDRESS}:443", "web1.internal"])
def test_a_scrape_by_address_with_the_token_gets_the_metrics(client, logged, settings, host):
    # Prometheus names each machine by its address, and nginx passes that Host on.
    settings.METRICS_TOKEN = TOKEN
    auth = {"Authorization": f"Bearer {TOKEN}"}
    response = client.get("/metrics", HTTP_HOST=host, REMOTE_ADDR=STRANGER, headers=auth)
    assert response.status_code == 200
    assert "sudoku_database_up 1.0" in response.content.decode()
    assert loud(logged) == []


def test_a_scrape_by_address_without_the_token_is_refused_as_by_name(client, settings):
    settings.METRICS_TOKEN = TOKEN
    response = client.get("/metrics", HTTP_HOST=ADDRESS, REMOTE_ADDR=STRANGER)
    assert response.status_code == 401
    assert b"sudoku_" not in response.content
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_HOST=ADDRESS, REMOTE_ADDR=STRANGER).status_code == 404


def test_an_unknown_host_is_refused_before_the_https_redirect(client, logged, settings):
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/", HTTP_HOST=ADDRESS, REMOTE_ADDR=STRANGER)
    assert response.status_code == 400
    assert loud(logged) == []
