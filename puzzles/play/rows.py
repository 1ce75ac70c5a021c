"""The statements every stored change makes, written once (puzzles/sql.py): the player's
game with its puzzle and daily, the game's receipts of a batch's ids, and the game's
UPDATE. A change made through the ORM built five queries a request, which cost about as
much CPU as the database took to run them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..models import ChangeReceipt, DailyPuzzle, Game, Puzzle
from ..sql import Columns, column_of, connection, insert, select_one

__all__ = ["insert", "read_game", "receipts", "update_running"]


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


def update_running(game: Game, expected: int, fields: dict[str, object]) -> bool:
    """UPDATE the game's fields if it is still running (not over, not set aside) at the
    version `expected`, as games._saved does; whether it was. Plain values only, not
    expressions."""
    conn = connection()
    column = column_of(Game)
    sets, values = [], []
    for name, value in fields.items():
        sets.append(f"{column(name)} = %s")
        values.append(Game._meta.get_field(name).get_db_prep_save(value, connection=conn))
    sql = (
        f"UPDATE {conn.ops.quote_name(Game._meta.db_table)} SET {', '.join(sets)}"
        f" WHERE {column('id')} = %s AND {column('version')} = %s"
        f" AND {column('status')} = %s AND {column('set_aside_at')} IS NULL"
    )
    with conn.cursor() as cursor:
        cursor.execute(sql, [*values, game.pk, expected, Game.Status.PLAYING.value])
        return cursor.rowcount > 0
