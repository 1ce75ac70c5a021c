"""The health check: the database, the broker and the pools' fresh stock."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .broker import broker_is_up
from .stock import fresh_counts


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Database, broker and fresh stock per difficulty; 200 while the database answers."""
    broker = "ok" if broker_is_up() else "down"
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        pools = fresh_counts()
    except DatabaseError:
        return JsonResponse({"database": "down", "broker": broker, "pools": {}}, status=503)
    return JsonResponse({"database": "ok", "broker": broker, "pools": pools})
