"""What a move and a batch of moves ask of the database: each statement is a round trip and
work on both sides, at every move of every player (bench/human.py measures the cost)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ..helpers import post, start, state

# Real transactions, as in production: a savepoint seen here is one the code asked for.
pytestmark = pytest.mark.django_db(transaction=True)


def statements(client, game, action: str, body: dict) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = post(client, game, action, body)
    assert response.status_code == 200, response.json()
    return [q["sql"] for q in queries.captured_queries]


def data(sql: list[str]) -> list[str]:
    """The statements that read or write rows (not BEGIN, COMMIT or savepoints)."""
    return [s for s in sql if s.split()[0] in ("SELECT", "INSERT", "UPDATE", "DELETE")]


def reads_of_the_game(sql: list[str]) -> list[str]:
    return [s for s in sql if s.startswith("SELECT") and 'FROM "puzzles_game"' in s]


def test_a_guests_move_is_four_statements_the_session_the_game_and_one_save(client, stocked):
    game = start(client)
    cell = state(client, game)["values"].index("0")
    sql = statements(client, game, "moves", {"cell": cell, "digit": 5, "version": 0})
    assert [s.split()[0] for s in data(sql)] == ["SELECT", "SELECT", "UPDATE", "INSERT"], sql
    assert not [s for s in sql if "SAVEPOINT" in s], sql


def test_a_batch_reads_the_game_once_and_opens_no_savepoint(client, stocked):
    game = start(client)
    cell = state(client, game)["values"].index("0")
    change = {"id": "c1", "kind": "move", "cell": cell, "digit": 5, "mode": "value", "base": 0}
    sql = statements(client, game, "changes", {"device": "phone-0001", "changes": [change]})
    assert len(reads_of_the_game(sql)) == 1, sql
    assert not [s for s in sql if "SAVEPOINT" in s], sql
