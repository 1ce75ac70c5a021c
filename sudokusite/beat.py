"""Beat on exactly one machine: every beat takes a lock in the broker's Redis before it
sends anything, and renews it while it runs. A second beat, started by mistake on another
machine, finds the lock held and sends nothing; it keeps asking, and takes over once the
first beat is gone (stopped cleanly, the lock is let go at once; killed, it runs out after
BEAT_LOCK_SECONDS). Celery uses it as its beat scheduler (CELERY_BEAT_SCHEDULER)."""

from __future__ import annotations

import os
import socket

import redis
from celery.beat import PersistentScheduler
from celery.utils.log import get_logger
from django.conf import settings

log = get_logger(__name__)

KEY = "beat-lock"

# Renew the holder's lock, or take it if nobody holds it; the holder's name either way.
_CLAIM = """
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return holder end
if not holder then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return ARGV[1] end
return holder
"""
# Let go of the lock only while this beat holds it.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class OneBeatScheduler(PersistentScheduler):
    """Celery's own scheduler (the schedule kept in its file), which sends due tasks only
    while this beat holds the beat lock."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.owner = f"beat@{socket.gethostname()}:{os.getpid()}"
        self.holder: str | None = None  # who held the lock at the last look
        super().__init__(*args, **kwargs)

    @property
    def lock_seconds(self) -> float:
        return float(settings.BEAT_LOCK_SECONDS)

    def claim(self) -> bool:
        """Take or renew the lock; True while this beat holds it. Redis not answering
        counts as not holding it: nothing could be sent anyway."""
        from puzzles.pools.locks import client

        try:
            milliseconds = int(self.lock_seconds * 1000)
            holder = client().eval(_CLAIM, 1, KEY, self.owner, milliseconds).decode()
        except redis.RedisError as error:
            holder = None
            log.warning("beat lock: Redis does not answer (%s); sending nothing", error)
        if holder != self.holder:
            if holder == self.owner:
                log.info("beat lock taken by %s: this beat sends the schedule", self.owner)
            elif holder:
                log.warning("beat lock held by %s: this beat sends nothing meanwhile", holder)
            self.holder = holder
        return holder == self.owner

    def tick(self, *args: object, **kwargs: object) -> float:
        """Send what is due while holding the lock; look again well within its life."""
        renew = self.lock_seconds / 3
        if not self.claim():
            return renew
        return min(super().tick(*args, **kwargs), renew)

    def close(self) -> None:
        """Let go of the lock, so that a beat waiting for it takes over at once."""
        from puzzles.pools.locks import client

        try:
            client().eval(_RELEASE, 1, KEY, self.owner)
        except redis.RedisError as error:
            log.warning("beat lock: could not let go (%s); it runs out by itself", error)
        super().close()
