"""Sessions kept in the database, as Django's own backend keeps them, read with one SELECT
written once instead of a query the ORM builds on every request.

Every request of a player reads their session (who they are, a guest's id and
preferences); for a request that stores a move the ORM's building of that one query was
about half the CPU of the least such a request can do (`python -m bench human`'s floor).
Writing, expiry and `clearsessions` stay Django's; a new session's key is not looked up
before its INSERT.
"""

from __future__ import annotations

import datetime

from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.models import Session
from django.utils import crypto, timezone

from ..sql import read_session


class SessionStore(db.SessionStore):
    # When the stored session runs out, as read (None until it is read from its row): the
    # owner mark of every page carries it, so that a device offline stops showing the pages
    # of a session that has ended (accounts/owners.py).
    stored_expiry: datetime.datetime | None = None

    def _get_session_from_db(self) -> Session | None:
        """The session's row if it exists and has not expired, as the base class's, which
        forgets the key otherwise (a new one is made if the session is saved)."""
        key = self.session_key
        if key is None:
            return None
        session = read_session(key, timezone.now())
        if session is None:
            self._session_key = None
            return None
        self.stored_expiry = session.expire_date
        return session

    def _get_new_session_key(self) -> str:
        """A new random key, not looked up first (Django's backend reads the table for it):
        a new session is saved with must_create, whose INSERT refuses a key in use, and
        create() then draws another. A new guest's first game is one round trip less."""
        return crypto.get_random_string(32, VALID_KEY_CHARS)
