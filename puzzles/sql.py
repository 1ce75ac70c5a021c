"""Every statement of the site written as SQL: the few that every request makes, where
building the query each time cost the ORM about as much as the database took to run it
(`python -m bench human`). They are written once from the models' own metadata (tables,
columns, the converters of values read, how a value is saved), so a field added to a model
is read and written here with no change, and what comes back is what the ORM gives for the
same rows: model instances as `QuerySet.get` builds them, rows inserted as `bulk_create`
inserts them. tests/web/site/test_sql.py holds each statement to the ORM's answer for
every type of field they read or write.

The statements: a fresh puzzle claimed from the pool, a player's game with its puzzle and
daily (locked, for a change), the game's receipts of a batch's ids, the game's UPDATE while
it runs (the one place the rule "only while running, at the version seen" is written),
INSERT of new rows, a session, and a user's preferences.

Like models.py, this module uses none of the app's groups; each of them may use it.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Iterable, Sequence

from django.contrib.sessions.models import Session
from django.db import connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

from .models import ChangeReceipt, DailyPuzzle, Game, Preferences, Puzzle, TechniqueExample

DB = "default"


def connection() -> BaseDatabaseWrapper:
    """The thread's connection to the site's database."""
    return connections[DB]


def column_of(model: type[models.Model]) -> Callable[[str], str]:
    """A function from a field's name to its column, quoted."""
    quote = connection().ops.quote_name
    return lambda name: quote(model._meta.get_field(name).column)


class Columns:
    """A model's concrete fields as one table's columns in a SELECT (`sql`), and `build`,
    which turns those values of a row back into an instance."""

    def __init__(self, model: type[models.Model], alias: str) -> None:
        """`alias` names the table in the statement; "" for bare columns (RETURNING)."""
        conn = connection()
        self.model = model
        self.fields = model._meta.concrete_fields
        quote = conn.ops.quote_name
        prefix = f"{alias}." if alias else ""
        self.sql = ", ".join(f"{prefix}{quote(f.column)}" for f in self.fields)
        self.names = [f.attname for f in self.fields]
        self.converters = []
        for n, field in enumerate(self.fields):
            col = field.get_col(alias or model._meta.db_table)
            found = conn.ops.get_db_converters(col) + col.get_db_converters(conn)
            if found:
                self.converters.append((n, col, found))

    def __len__(self) -> int:
        return len(self.fields)

    def build(self, row: Sequence) -> models.Model:
        conn = connection()
        values = list(row)
        for n, col, converters in self.converters:
            for convert in converters:
                values[n] = convert(values[n], col, conn)
        return self.model.from_db(DB, self.names, values)


def select_one(sql: str, params: Sequence) -> tuple | None:
    """The first row a SELECT gives, or None."""
    with connection().cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def insert(objs: Iterable[models.Model]) -> None:
    """INSERT new rows of one model, as bulk_create does (ids left to the database and
    not read back)."""
    objs = list(objs)
    if not objs:
        return
    conn = connection()
    model = type(objs[0])
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    quote = conn.ops.quote_name
    head = (
        f"INSERT INTO {quote(model._meta.db_table)}"
        f" ({', '.join(quote(f.column) for f in fields)}) VALUES "
    )
    row = f"({', '.join(['%s'] * len(fields))})"
    size = max(1, conn.ops.bulk_batch_size(fields, objs))
    with conn.cursor() as cursor:
        for start in range(0, len(objs), size):
            chunk = objs[start : start + size]
            values = [
                f.get_db_prep_save(f.pre_save(obj, add=True), connection=conn)
                for obj in chunk
                for f in fields
            ]
            cursor.execute(head + ", ".join([row] * len(chunk)), values)
    for obj in objs:
        obj._state.adding, obj._state.db = False, DB


# The pool ---------------------------------------------------------------------------------


@functools.cache
def _claim(vendor: str) -> tuple[Columns, str]:
    conn = connection()
    quote, column = conn.ops.quote_name, column_of(Puzzle)
    table, examples = quote(Puzzle._meta.db_table), quote(TechniqueExample._meta.db_table)
    pk, example_of = column("id"), column_of(TechniqueExample)("puzzle")
    lock = " FOR UPDATE SKIP LOCKED" if conn.features.has_select_for_update_skip_locked else ""
    columns = Columns(Puzzle, "")
    return columns, (
        f"UPDATE {table} SET {column('served_at')} = %s WHERE {pk} = ("
        f"SELECT q.{pk} FROM {table} q"
        f" WHERE q.{column('served_at')} IS NULL AND q.{column('source')} <> %s"
        f" AND q.{column('difficulty')} = %s"
        f" AND NOT EXISTS (SELECT 1 FROM {examples} e WHERE e.{example_of} = q.{pk})"
        f" ORDER BY q.{pk} LIMIT 1{lock}) RETURNING {columns.sql}"
    )


def can_claim_in_one() -> bool:
    """Whether the database returns the rows an UPDATE changed (PostgreSQL; SQLite from
    3.35)."""
    return connection().features.can_return_columns_from_insert


def claim_fresh(difficulty: str, now: datetime.datetime) -> Puzzle | None:
    """Take the first fresh puzzle of a difficulty (never served, not a player's own, no
    technique example's: Puzzle.objects.fresh().without_examples()) out of the pool, served
    at `now`, in one statement; None when there is none. Concurrent claims never get the
    same puzzle: PostgreSQL skips the rows another claim has locked, SQLite runs one
    writing statement at a time."""
    columns, sql = _claim(connection().vendor)
    field = Puzzle._meta.get_field("served_at")
    served = field.get_db_prep_save(now, connection=connection())
    row = select_one(sql, [served, Puzzle.Source.PLAYER.value, difficulty])
    return None if row is None else columns.build(row)


# A player's game --------------------------------------------------------------------------


class _GameRead:
    """SELECT a game of one owner, with its puzzle and daily, optionally locked."""

    def __init__(self, owner: str, lock: bool) -> None:
        conn = connection()
        quote = conn.ops.quote_name
        self.game, self.puzzle = Columns(Game, "g"), Columns(Puzzle, "p")
        self.daily = Columns(DailyPuzzle, "d")
        column = column_of(Game)
        self.sql = (
            f"SELECT {self.game.sql}, {self.puzzle.sql}, {self.daily.sql}"
            f" FROM {quote(Game._meta.db_table)} g"
            f" INNER JOIN {quote(Puzzle._meta.db_table)} p"
            f" ON p.{quote(Puzzle._meta.pk.column)} = g.{column('puzzle')}"
            f" LEFT OUTER JOIN {quote(DailyPuzzle._meta.db_table)} d"
            f" ON d.{quote(DailyPuzzle._meta.pk.column)} = g.{column('daily')}"
            f" WHERE g.{column('id')} = %s AND g.{column(owner)} = %s"
        )
        if lock and conn.features.has_select_for_update:
            # The game's row only: the daily sits on the nullable side of an outer join.
            of = conn.features.has_select_for_update_of
            self.sql += " FOR UPDATE OF g" if of else " FOR UPDATE"

    def __call__(self, pk: int, owner: object) -> Game | None:
        row = select_one(self.sql, [pk, owner])
        if row is None:
            return None
        g, p = len(self.game), len(self.game) + len(self.puzzle)
        game = self.game.build(row[:g])
        game._state.fields_cache["puzzle"] = self.puzzle.build(row[g:p])
        daily = self.daily.build(row[p:]) if game.daily_id is not None else None
        game._state.fields_cache["daily"] = daily
        return game


@functools.cache
def _game_read(vendor: str, owner: str, lock: bool) -> _GameRead:
    return _GameRead(owner, lock)


def read_game(pk: int, *, user_id: int | None, guest_id: str | None, lock: bool) -> Game | None:
    """The game `pk` if it belongs to the user (or else the guest), with its puzzle and
    daily, as `select_related` reads them; with lock, its row locked until the transaction
    ends (where the database locks rows). None for a game of anyone else, or none."""
    conn = connection()
    low, high = conn.ops.integer_field_range(Game._meta.pk.get_internal_type())
    if not low <= pk <= high:  # no such id: the database would refuse the number itself
        return None
    vendor = conn.vendor
    if user_id is not None:
        return _game_read(vendor, "user", lock)(pk, user_id)
    if guest_id is not None:
        return _game_read(vendor, "guest_id", lock)(pk, guest_id)
    return None


@functools.cache
def _receipt_columns(vendor: str) -> Columns:
    return Columns(ChangeReceipt, "r")


def receipts(game: Game, client_ids: Sequence[str]) -> dict[str, ChangeReceipt]:
    """The game's receipts of these client ids, by id."""
    if not client_ids:
        return {}
    conn = connection()
    columns, column = _receipt_columns(conn.vendor), column_of(ChangeReceipt)
    marks = ", ".join(["%s"] * len(client_ids))
    sql = (
        f"SELECT {columns.sql} FROM {conn.ops.quote_name(ChangeReceipt._meta.db_table)} r"
        f" WHERE r.{column('game')} = %s AND r.{column('client_id')} IN ({marks})"
    )
    with conn.cursor() as cursor:
        cursor.execute(sql, [game.pk, *client_ids])
        found = [columns.build(row) for row in cursor.fetchall()]
    return {receipt.client_id: receipt for receipt in found}


def update_running(
    game: Game, fields: dict[str, object], *, version: int | None, same: dict | None = None
) -> bool:
    """UPDATE the game's fields if it is still running (not over, not set aside) and, when
    given, still at `version` and with the fields of `same` as they were read; whether it
    was. Plain values only, not expressions: the game was read locked, so its values in
    memory are the row's."""
    conn = connection()
    column = column_of(Game)

    def prepared(name: str, value: object) -> object:
        return Game._meta.get_field(name).get_db_prep_save(value, connection=conn)

    sets = ", ".join(f"{column(name)} = %s" for name in fields)
    values = [prepared(name, value) for name, value in fields.items()]
    where = [
        f"{column('id')} = %s",
        f"{column('status')} = %s",
        f"{column('set_aside_at')} IS NULL",
    ]
    params = [game.pk, Game.Status.PLAYING.value]
    if version is not None:
        where.append(f"{column('version')} = %s")
        params.append(version)
    for name, value in (same or {}).items():
        where.append(f"{column(name)} = %s")
        params.append(prepared(name, value))
    table = conn.ops.quote_name(Game._meta.db_table)
    sql = f"UPDATE {table} SET {sets} WHERE {' AND '.join(where)}"
    with conn.cursor() as cursor:
        cursor.execute(sql, [*values, *params])
        return cursor.rowcount > 0


# Who plays --------------------------------------------------------------------------------


@functools.cache
def _session_read(vendor: str) -> tuple[Columns, str]:
    columns, column = Columns(Session, "s"), column_of(Session)
    table = connection().ops.quote_name(Session._meta.db_table)
    return columns, (
        f"SELECT {columns.sql} FROM {table} s"
        f" WHERE s.{column('session_key')} = %s AND s.{column('expire_date')} > %s"
    )


def read_session(key: str, now: datetime.datetime) -> Session | None:
    """The session of the key, if it has not expired by `now`."""
    columns, sql = _session_read(connection().vendor)
    field = Session._meta.get_field("expire_date")
    row = select_one(sql, [key, field.get_db_prep_value(now, connection())])
    return None if row is None else columns.build(row)


@functools.cache
def _preferences_read(vendor: str) -> tuple[Columns, str]:
    columns, column = Columns(Preferences, "p"), column_of(Preferences)
    table = connection().ops.quote_name(Preferences._meta.db_table)
    return columns, f"SELECT {columns.sql} FROM {table} p WHERE p.{column('user')} = %s"


def read_preferences(user_id: int) -> Preferences | None:
    """A user's saved preferences, or None before they have any."""
    columns, sql = _preferences_read(connection().vendor)
    row = select_one(sql, [user_id])
    return None if row is None else columns.build(row)
