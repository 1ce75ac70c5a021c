"""Counting attempts per client and per account, to slow down password guessing and
sign-up floods. Counters live in the cache; if the cache is down, nothing is limited
(a broken Redis must not lock everybody out)."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    """At most `count` attempts per `seconds`, for one kind of action."""

    name: str
    count: int
    seconds: int


LOGIN_PER_CLIENT = Limit("login-client", 30, 15 * 60)
LOGIN_PER_ACCOUNT = Limit("login-account", 8, 15 * 60)
SIGNUP_PER_CLIENT = Limit("signup-client", 10, 60 * 60)
# Per username and per e-mail address tried, from any client: a flood spread over many
# addresses still cannot hammer one name.
SIGNUP_PER_ACCOUNT = Limit("signup-account", 5, 60 * 60)
RESET_PER_CLIENT = Limit("reset-client", 10, 60 * 60)
RESET_PER_ACCOUNT = Limit("reset-account", 3, 60 * 60)


def client_ip(request: HttpRequest) -> str:
    """The client's address; behind TRUSTED_PROXIES proxies, the one they were given."""
    hops = settings.TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if hops and forwarded:
        chain = [part.strip() for part in forwarded.split(",") if part.strip()]
        if len(chain) >= hops:
            return chain[-hops]
    return request.META.get("REMOTE_ADDR", "unknown")


PREFIX = "ratelimit:"


def _key(limit: Limit, who: str) -> str:
    digest = hashlib.sha256(who.strip().lower().encode("utf-8", "replace")).hexdigest()[:32]
    return f"{PREFIX}{limit.name}:{digest}"


def exceeded(limit: Limit, who: str) -> bool:
    """True when `who` has used up the limit."""
    try:
        return (cache.get(_key(limit, who)) or 0) >= limit.count
    except Exception:  # the cache is down: fail open
        log.warning("rate limit %s not checked: cache unavailable", limit.name, exc_info=True)
        return False


def count(limit: Limit, who: str) -> None:
    """Record one attempt by `who`."""
    key = _key(limit, who)
    try:
        if not cache.add(key, 1, limit.seconds):
            cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, limit.seconds)
    except Exception:
        log.warning("rate limit %s not counted: cache unavailable", limit.name, exc_info=True)


def reset(limit: Limit, who: str) -> None:
    """Forget `who`'s attempts (after a successful login)."""
    try:
        cache.delete(_key(limit, who))
    except Exception:
        log.warning("rate limit %s not reset: cache unavailable", limit.name, exc_info=True)


def clear_all() -> None:
    """Forget every attempt of every limit, leaving the rest of the cache alone: lifts all
    limits at once (an operator after a false alarm; the tests between cases)."""
    backend = caches["default"]
    prefix = backend.make_key(PREFIX)
    if isinstance(backend, RedisCache):
        client = backend._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    elif isinstance(backend, LocMemCache):
        with backend._lock:
            for key in [k for k in backend._cache if k.startswith(prefix)]:
                del backend._cache[key], backend._expire_info[key]
    else:
        raise NotImplementedError(f"cannot list the keys of {type(backend).__name__}")
