"""/healthz: database, broker and fresh stock."""

from __future__ import annotations

import pytest

from puzzles.pools.stock import fresh_counts

from .test_pool_services import stock

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_broker_and_pools(client):
    stock("easy", 2)
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body == {
        "database": "ok",
        "broker": "ok",
        "pools": {"easy": 2, "medium": 0, "hard": 0, "expert": 0},
    }
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_healthz_says_broker_down_and_still_answers_200(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"] == "down"
    assert response.json()["database"] == "ok"


def test_healthz_refuses_anything_but_get(client):
    assert client.post("/healthz").status_code == 405


def test_fresh_counts_cover_every_difficulty():
    assert set(fresh_counts()) == {"easy", "medium", "hard", "expert"}
