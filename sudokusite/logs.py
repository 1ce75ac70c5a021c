"""The shape of every log line, whichever process writes it (web, worker, beat, gunicorn
itself): the plain and JSON formats, and the request id of the request being served.

A request's id is taken from its X-Request-ID header when that is sane (nginx sends its own
$request_id), made here otherwise. It lives in a context variable while the request runs,
so that a filter on the log handlers puts it on every line written meanwhile, and goes with
the Celery tasks the request sends (sudokusite/celery.py), whose lines carry it too. A line
written outside any request carries "-".
"""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar

from pythonjsonlogger.json import JsonFormatter

PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"
JSON_FORMAT = "%(asctime)s %(levelname)s %(name)s %(request_id)s %(message)s"
JSON_RENAMES = {"asctime": "time", "levelname": "level", "name": "logger"}

# What a request id from outside may be: short, and nothing that could break a log line or
# a header (no spaces, quotes, control characters or non-ASCII letters).
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")

NO_REQUEST = "-"
current_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


def sane_request_id(value: object) -> str | None:
    """The value if it may serve as a request id, else None."""
    if isinstance(value, str) and SANE_REQUEST_ID.fullmatch(value):
        return value
    return None


def request_id_for(given: str | None) -> str:
    """The id of a request that came with that X-Request-ID (or none): the given one when
    sane, a new one otherwise."""
    return sane_request_id(given) or uuid.uuid4().hex


class RequestIdFilter(logging.Filter):
    """Puts the id of the request being served (or "-") on every record, as request_id."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get() or NO_REQUEST
        return True


def json_formatter() -> logging.Formatter:
    """The JSON format (LOG_FORMAT=json): one object a line."""
    return JsonFormatter(JSON_FORMAT, rename_fields=JSON_RENAMES)


def plain_formatter() -> logging.Formatter:
    """The plain format (LOG_FORMAT=plain)."""
    return logging.Formatter(PLAIN_FORMAT)
