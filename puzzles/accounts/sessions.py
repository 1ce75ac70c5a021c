"""Sessions kept in the database, as Django's own backend keeps them, read with one SELECT
written once instead of a query the ORM builds on every request.

Every request of a player reads their session (who they are, a guest's id and
preferences); for a request that stores a move the ORM's building of that one query was
about half the CPU of the least such a request can do (`python -m bench human`'s floor).
Writing, expiry and `clearsessions` stay Django's.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from ..sql import column_of, connection, select_one


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Session | None:
        """The session's row if it exists and has not expired, as the base class's, which
        forgets the key otherwise (a new one is made if the session is saved)."""
        key = self.session_key
        if key is None:
            return None
        meta, column = Session._meta, column_of(Session)
        now = meta.get_field("expire_date").get_db_prep_value(timezone.now(), connection())
        row = select_one(
            f"SELECT {column('session_data')} FROM {connection().ops.quote_name(meta.db_table)}"
            f" WHERE {column('session_key')} = %s AND {column('expire_date')} > %s",
            [key, now],
        )
        if row is None:
            self._session_key = None
            return None
        return Session(session_key=key, session_data=row[0])
