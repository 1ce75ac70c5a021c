"""The log lines of a request: its request id (taken from X-Request-ID when sane, made
otherwise) on every line and in the answer, the client and the user on the request line,
and a client's mistakes told in one WARNING line where a server error keeps its traceback."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from sudokusite import urls as site_urls
from sudokusite.processes import ROOT

pytestmark = pytest.mark.django_db

MADE = re.compile(r"[0-9a-f]{32}")


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug of ours")


# The site's URLs and one view that fails, for the server error below.
urlpatterns = [path("boom/", boom), *site_urls.urlpatterns]
handler500 = site_urls.handler500


@pytest.fixture
def logged(caplog):
    caplog.set_level(logging.INFO)
    return caplog


def request_line(caplog) -> logging.LogRecord:
    (record,) = [r for r in caplog.records if r.name == "puzzles.requests"]
    return record


def loud(caplog) -> list[logging.LogRecord]:
    """Records an operator is paged for: errors, and anything with a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_an_answer_carries_the_request_id_made_for_it(client, logged):
    response = client.get("/robots.txt")
    assert MADE.fullmatch(response["X-Request-ID"])
    assert request_line(logged).request_id == response["X-Request-ID"]
    assert client.get("/robots.txt")["X-Request-ID"] != response["X-Request-ID"]


@pytest.mark.parametrize(
    "given", ["abc", "7f3c9a2e-1b4d-4c8e-9f00-123456789abc", "a.b:c_d-E", "x" * 128]
)
def test_a_sane_request_id_from_the_proxy_is_kept(client, logged, given):
    response = client.get("/robots.txt", HTTP_X_REQUEST_ID=given)
    assert response.status_code == 200
    assert response["X-Request-ID"] == given
    assert request_line(logged).request_id == given


@pytest.mark.parametrize(
    "given", ["", " ", "x" * 129, "two words", "a\tb", "<script>", "é", "a/b", "a;b=c", "%0A"]
)
def test_any_other_request_id_is_replaced_by_one_made_here(client, logged, given):
    response = client.get("/robots.txt", HTTP_X_REQUEST_ID=given)
    assert response.status_code == 200
    assert MADE.fullmatch(response["X-Request-ID"])
    assert request_line(logged).request_id == response["X-Request-ID"]


def run_logged(log_format: str, script: str) -> list[str]:
    """The lines a process with that LOG_FORMAT writes running the script."""
    env = {**os.environ, "LOG_FORMAT": log_format, "DJANGO_SETTINGS_MODULE": "sudokusite.settings"}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stderr.splitlines()


# A 404 logs two lines: django.request's warning and the request line.
NOT_FOUND = (
    "import logging\n"
    "from django.test import Client\n"
    "logging.getLogger('puzzles').warning('before any request')\n"
    "Client(HTTP_HOST='127.0.0.1').get('/no-such-page/', HTTP_X_REQUEST_ID='trace-42')\n"
    "logging.getLogger('puzzles').warning('after it')\n"
)


def test_every_json_line_of_a_request_carries_its_id():
    lines = [json.loads(line) for line in run_logged("json", NOT_FOUND)]
    assert [(line["logger"], line["request_id"]) for line in lines] == [
        ("puzzles", "-"),
        ("puzzles.requests", "trace-42"),
        ("django.request", "trace-42"),
        ("puzzles", "-"),
    ]
    assert lines[2]["message"] == "Not Found: /no-such-page/"


def test_every_plain_line_of_a_request_carries_its_id():
    lines = run_logged("plain", NOT_FOUND)
    assert len(lines) == 4
    assert lines[0].endswith(" WARNING puzzles [-]: before any request")
    assert re.search(r" puzzles\.requests \[trace-42\]: GET /no-such-page/ 404 \d", lines[1])
    assert lines[2].endswith(" WARNING django.request [trace-42]: Not Found: /no-such-page/")
    assert lines[3].endswith(" WARNING puzzles [-]: after it")


def test_the_request_line_names_the_client_and_the_guest(client, logged):
    client.get("/", REMOTE_ADDR="192.0.2.10")
    record = request_line(logged)
    assert (record.client, record.user) == ("192.0.2.10", "guest")
    assert record.getMessage().endswith(" from 192.0.2.10 user guest")


def test_the_request_line_names_the_account(client, alice, logged):
    client.force_login(alice)
    client.get("/", REMOTE_ADDR="192.0.2.10")
    assert request_line(logged).user == alice.pk
    assert request_line(logged).getMessage().endswith(f" user {alice.pk}")


def test_a_request_that_never_asked_who_is_there_names_no_one(client, logged):
    client.get("/robots.txt")
    assert request_line(logged).user == "-"


def test_behind_a_proxy_the_client_is_the_one_the_proxy_names(client, logged, settings):
    settings.TRUSTED_PROXIES = 1
    client.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.9.9.9, 198.51.100.7")
    assert request_line(logged).client == "198.51.100.7"


def test_without_trusted_proxies_a_forwarded_address_is_not_believed(client, logged, settings):
    settings.TRUSTED_PROXIES = 0
    client.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert request_line(logged).client == "127.0.0.1"


FORM = "application/x-www-form-urlencoded"


@pytest.mark.parametrize(
    ("what", "send"),
    [
        # Larger than DATA_UPLOAD_MAX_MEMORY_SIZE: RequestDataTooBig (SuspiciousOperation).
        ("too large", lambda c: c.post("/accounts/login/", "a=" + "x" * 3_000_000, FORM)),
        # More than DATA_UPLOAD_MAX_NUMBER_FIELDS: TooManyFieldsSent (SuspiciousOperation).
        ("too many fields", lambda c: c.post("/accounts/login/", "&".join(["a=1"] * 1500), FORM)),
        # A multipart body without its boundary: MultiPartParserError.
        ("unreadable", lambda c: c.post("/accounts/login/", "x", "multipart/form-data")),
        # Not JSON, to the game API.
        ("not json", lambda c: c.post("/api/games/", "{", "application/json")),
    ],
)
def test_a_clients_bad_request_is_one_warning_without_a_traceback(logged, what, send):
    response = send(Client(raise_request_exception=False))
    assert 400 <= response.status_code < 500, what
    assert loud(logged) == []
    warnings = [r for r in logged.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "\n" not in warnings[0].getMessage()


@pytest.mark.urls(__name__)
def test_a_server_error_stays_an_error_with_its_traceback(logged):
    response = Client(raise_request_exception=False).get("/boom/", HTTP_X_REQUEST_ID="oops-1")
    assert response.status_code == 500
    (error,) = [r for r in logged.records if r.levelno >= logging.ERROR]
    assert error.name == "django.request" and error.exc_info[0] is RuntimeError
    assert error.request_id == "oops-1"
