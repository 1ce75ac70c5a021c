"""What a move and a batch of moves ask of the database: each statement is a round trip and
work on both sides, at every move of every player (bench/human.py measures the cost)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from puzzles.pools.daily import dailies_of, today

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


def test_a_new_game_from_the_pool_claims_in_one_statement_and_reads_no_game(client, stocked):
    """A join of a surge: the claim is one UPDATE, and a puzzle fresh from the pool has no
    game of the player's to look for (no practice on it: the pool never hands out the
    guide's examples)."""
    start(client)  # the guest's session exists: a returning guest
    with CaptureQueriesContext(connection) as queries:
        response = client.post("/play/easy/")
    assert response.status_code == 302
    sql = data([q["sql"] for q in queries.captured_queries])
    puzzle_rows = [s for s in sql if s.startswith("SELECT") and 'FROM "puzzles_puzzle"' in s]
    puzzle_rows = [s for s in puzzle_rows if "COUNT(" not in s]
    assert puzzle_rows == [], sql
    assert [s for s in sql if s.startswith('UPDATE "puzzles_puzzle"')], sql
    assert reads_of_the_game(sql) == [], sql
    assert len(sql) == 5, sql  # the session, the claim, the pool's count and targets, the game


def test_a_new_guests_daily_reads_no_game_of_theirs_a_returning_guests_does(client, stocked):
    """A guest whose id the request makes has no game yet: neither a game of theirs on the
    puzzle nor a practice game on it is looked for (a join of a surge). A returning guest's
    is: the game they started is the one to go on with."""
    path = f"/daily/{today().isoformat()}/easy/"
    dailies_of(today())  # picked before: a surge's joins find them picked
    with CaptureQueriesContext(connection) as queries:
        first = client.post(path)
    assert first.status_code == 302
    assert reads_of_the_game(data([q["sql"] for q in queries.captured_queries])) == []
    with CaptureQueriesContext(connection) as queries:
        again = client.post(path)
    assert again["Location"] == first["Location"]
    assert reads_of_the_game(data([q["sql"] for q in queries.captured_queries]))


def test_a_new_guests_session_is_inserted_without_a_look_for_its_key_first(client, stocked):
    """A new guest's first request that keeps something makes their session: one INSERT,
    which refuses a key already in use (another is drawn then), with no SELECT before it."""
    with CaptureQueriesContext(connection) as queries:
        response = client.post("/play/easy/")
    assert response.status_code == 302
    sessions = [q["sql"] for q in queries.captured_queries if '"django_session"' in q["sql"]]
    assert [s.split()[0] for s in sessions] == ["INSERT"], sessions


def test_a_session_key_drawn_twice_is_drawn_again(client, stocked, monkeypatch):
    from django.utils import crypto

    from puzzles.accounts.sessions import SessionStore

    taken = SessionStore()
    taken.create()
    keys = iter([taken.session_key, "k" * 32])
    monkeypatch.setattr(crypto, "get_random_string", lambda *a, **k: next(keys))
    fresh = SessionStore()
    fresh.create()
    assert fresh.session_key == "k" * 32
