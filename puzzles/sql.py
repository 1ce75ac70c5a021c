"""Statements written once as SQL from the models' own metadata (tables, columns, the
converters of values read, how a value is saved), for the few that every request makes,
where building the query each time cost the ORM about as much as the database took to run
it (`python -m bench human`). A field added to a model is read and written here with no
change, and what comes back is what the ORM gives for the same rows: model instances as
`QuerySet.get` builds them; rows inserted as `bulk_create` inserts them.

Like models.py, this module uses none of the app's groups; each of them may use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from django.db import connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

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
        conn = connection()
        self.model = model
        self.fields = model._meta.concrete_fields
        quote = conn.ops.quote_name
        self.sql = ", ".join(f"{alias}.{quote(f.column)}" for f in self.fields)
        self.names = [f.attname for f in self.fields]
        self.converters = []
        for n, field in enumerate(self.fields):
            col = field.get_col(alias)
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
