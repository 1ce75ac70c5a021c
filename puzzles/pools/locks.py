"""Refill locks: at most one refill round per difficulty, across workers, beats and web
processes, kept in the broker's Redis.

A lock has an owner (a random token, handed from batch to batch with the round) and a short
life (REFILL_LOCK_SECONDS, a beat period by default) that its owner renews as it works.
Only the owner renews or releases it, each in one atomic step. A lock whose owner is gone,
or that a Redis hiccup set after its requester had given up on it, simply expires, and the
next beat starts a new round for a pool still under its low mark.
"""

from __future__ import annotations

import logging
import uuid

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

log = logging.getLogger(__name__)

# Requests must not wait on Redis: one try, a second at most.
SOCKET_SECONDS = 1.0

# Delete or renew the key only while it holds the owner's token.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
# Renew the owner's lock, or take it again if it expired and nobody else holds it.
_CLAIM = """
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not holder then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0
"""

_clients: dict[str, redis.Redis] = {}


def client() -> redis.Redis:
    """This process's client of the broker's Redis, with short timeouts and no retries."""
    url = settings.CELERY_BROKER_URL
    if url not in _clients:
        _clients[url] = redis.Redis.from_url(
            url,
            socket_connect_timeout=SOCKET_SECONDS,
            socket_timeout=SOCKET_SECONDS,
            retry=Retry(NoBackoff(), 0),
        )
    return _clients[url]


def key(difficulty: str) -> str:
    return f"pool-refill:{difficulty}"


def holder(difficulty: str) -> str | None:
    """The token of the round that holds the difficulty's lock, if any."""
    value = client().get(key(difficulty))
    return value.decode() if value is not None else None


class RefillLock:
    """One difficulty's refill lock, as seen by one owner (its token)."""

    def __init__(self, difficulty: str, token: str | None = None) -> None:
        self.difficulty = difficulty
        self.token = token or uuid.uuid4().hex
        self.key = key(difficulty)

    @property
    def milliseconds(self) -> int:
        return int(settings.REFILL_LOCK_SECONDS * 1000)

    def acquire(self) -> bool:
        """Take the lock if nobody holds it. Raises redis.RedisError when Redis does not
        answer in time (the command may still run later: the lock then just expires)."""
        return bool(client().set(self.key, self.token, nx=True, px=self.milliseconds))

    def claim(self) -> bool:
        """Renew the lock if this owner holds it, or take it if it is free; False when
        another round holds it or Redis does not answer."""
        return self._script(_CLAIM, self.milliseconds)

    def renew(self) -> bool:
        """Give the owner's lock a full life again; False once it is not the owner's."""
        return self._script(_RENEW, self.milliseconds)

    def release(self) -> bool:
        """Let go of the lock if this owner still holds it."""
        return self._script(_RELEASE)

    def _script(self, script: str, *args: int) -> bool:
        try:
            return bool(client().eval(script, 1, self.key, self.token, *args))
        except (redis.RedisError, OSError):
            log.warning("refill lock %s: Redis did not answer", self.key, exc_info=True)
            return False
