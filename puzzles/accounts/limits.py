"""Counting attempts per client, per account and per pair of the two, to slow down password
guessing, sign-up floods and scripted game starts. Counters live in the cache; if the cache
is down, nothing is limited (a broken Redis must not lock everybody out).

Log-in: a client that fails too often on one account is locked out of that account (the
pair); an account that fails too often from all clients together is closed to the clients
it does not know, while those its owner signed up, logged in, changed or reset the password
on (the address, or a device cookie) still get in. A success lifts the lock of its own pair
only. A client is known to an account under its password: a new password forgets every
client known before, but the one that set it.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from .players import current_player

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    """At most `count` attempts per `seconds`, for one kind of action."""

    name: str
    count: int
    seconds: int


# Failed log-ins. Accounts are counted under usernames.login_key, the name Django
# authenticates, so no other spelling of a name has a fresh counter.
LOGIN_PER_CLIENT = Limit("login-client", 30, 15 * 60)  # across accounts
LOGIN_PER_PAIR = Limit("login-pair", 10, 15 * 60)  # one client on one account
# One account from every client: past it, only the clients the account knows may try.
LOGIN_PER_ACCOUNT = Limit("login-account", 100, 15 * 60)
# How long a client that logged in (or reset the password) stays known to the account.
KNOWN_CLIENT_SECONDS = 90 * 24 * 60 * 60
KNOWN_COOKIE = "known_accounts"

SIGNUP_PER_CLIENT = Limit("signup-client", 10, 60 * 60)
SIGNUP_PER_PAIR = Limit("signup-pair", 5, 60 * 60)  # one client retrying one name
# Per username and per e-mail address tried, from any client: a flood spread over many
# addresses still cannot hammer one name, and a handful of tries cannot block it.
SIGNUP_PER_ACCOUNT = Limit("signup-account", 50, 15 * 60)
# Tries at the password-change form, right or wrong: each checks the old password, a
# full password hash, so they are counted before it is checked.
PASSWORD_CHANGE_PER_CLIENT = Limit("password-change-client", 20, 15 * 60)
PASSWORD_CHANGE_PER_ACCOUNT = Limit("password-change-account", 10, 15 * 60)
RESET_PER_CLIENT = Limit("reset-client", 10, 60 * 60)
RESET_PER_ACCOUNT = Limit("reset-account", 3, 60 * 60)

# New games (POST /play/<difficulty>/ and /daily/<date>/<difficulty>/): each fresh game
# takes a puzzle from the pool, so a script must not drain it.
GAME_START_PER_CLIENT = Limit("start-client", 60, 10 * 60)
GAME_START_PER_ACCOUNT = Limit("start-account", 30, 10 * 60)  # a user, or a guest's id

# Puzzles typed in at /play/custom/: each is solved, counted and perhaps graded.
CUSTOM_PER_CLIENT = Limit("custom-client", 30, 10 * 60)
CUSTOM_PER_ACCOUNT = Limit("custom-account", 20, 10 * 60)  # a user, or a guest's id

# Reads a finished game's player may ask for again and again, each worked out from the
# database (a replay's page, the solving path): a replay at the move cap is 51 pages of 100.
COSTLY_READ_PER_CLIENT = Limit("costly-read-client", 600, 10 * 60)
COSTLY_READ_PER_ACCOUNT = Limit("costly-read-account", 240, 10 * 60)


def client_ip(request: HttpRequest) -> str:
    """The client's address; behind TRUSTED_PROXIES proxies, the one they were given."""
    hops = settings.TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if hops and forwarded:
        chain = [part.strip() for part in forwarded.split(",") if part.strip()]
        if len(chain) >= hops:
            return chain[-hops]
    return request.META.get("REMOTE_ADDR", "unknown")


def pair(client: str, account: str) -> str:
    """The key of one client on one account."""
    return f"{client}|{account}"


PREFIX = "ratelimit:"
GENERATION = f"{PREFIX}generation"


def _generation() -> str:
    """The current generation of counters; clear_all starts a new one."""
    current = cache.get(GENERATION)
    if current is None:
        cache.add(GENERATION, secrets.token_hex(8), None)
        current = cache.get(GENERATION)
    return current


def _key(name: str, who: str) -> str:
    digest = hashlib.sha256(who.strip().lower().encode("utf-8", "replace")).hexdigest()[:32]
    return f"{PREFIX}{_generation()}:{name}:{digest}"


def exceeded(limit: Limit, who: str) -> bool:
    """True when `who` has used up the limit."""
    if not settings.RATE_LIMITS:
        return False
    try:
        return (cache.get(_key(limit.name, who)) or 0) >= limit.count
    except Exception:  # the cache is down: fail open
        log.warning("rate limit %s not checked: cache unavailable", limit.name, exc_info=True)
        return False


def count(limit: Limit, who: str) -> None:
    """Record one attempt by `who`."""
    if not settings.RATE_LIMITS:
        return
    try:
        key = _key(limit.name, who)
        try:
            if not cache.add(key, 1, limit.seconds):
                cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, limit.seconds)
    except Exception:
        log.warning("rate limit %s not counted: cache unavailable", limit.name, exc_info=True)


def reset(limit: Limit, who: str) -> None:
    """Forget `who`'s attempts (a pair's, after a successful login)."""
    try:
        cache.delete(_key(limit.name, who))
    except Exception:
        log.warning("rate limit %s not reset: cache unavailable", limit.name, exc_info=True)


def clear_all() -> None:
    """Forget every attempt of every limit, and the clients known to accounts, leaving the
    rest of the cache alone: lifts all limits at once (an operator after a false alarm; the
    tests between cases). The counters of the old generation expire by themselves."""
    cache.set(GENERATION, secrets.token_hex(8), None)


# Clients known to an account --------------------------------------------------------


def _account_mark(user) -> str:
    """The mark of an account under its present password: a new password, a new mark."""
    return salted_hmac(KNOWN_COOKIE, f"{user.pk}:{user.password}").hexdigest()[:24]


def _users(account: str) -> list:
    """The users whose log-in name is `account` (usernames.login_key)."""
    from django.contrib.auth import get_user_model

    from .usernames import login_key

    found = get_user_model().objects.filter(username__iexact=account)
    return [user for user in found if login_key(user.get_username()) == account]


def _known_marks(request: HttpRequest) -> list[str]:
    """The marks of the accounts the device cookie says were used on this client; none
    when it is missing, too old or tampered with."""
    try:
        cookie = request.get_signed_cookie(
            KNOWN_COOKIE, default="", salt=KNOWN_COOKIE, max_age=KNOWN_CLIENT_SECONDS
        )
    except signing.BadSignature:
        return []
    return [mark for mark in cookie.split(",") if mark]


def is_known(request: HttpRequest, account: str) -> bool:
    """True when the account's owner used this client under the present password: from
    this address, or with the device cookie a sign-up, log-in or new password left."""
    marks = [_account_mark(user) for user in _users(account)]
    if set(marks) & set(_known_marks(request)):
        return True
    try:
        ip = client_ip(request)
        return any(cache.get(_key("known", pair(ip, mark))) for mark in marks)
    except Exception:
        log.warning("known clients not checked: cache unavailable", exc_info=True)
        return False


def remember(request: HttpRequest, response: HttpResponse, user) -> None:
    """The account's owner is on this client: know its address and give it the cookie,
    both under the account's present password."""
    mark = _account_mark(user)
    try:
        cache.set(_key("known", pair(client_ip(request), mark)), 1, KNOWN_CLIENT_SECONDS)
    except Exception:
        log.warning("known client not stored: cache unavailable", exc_info=True)
    marks = [m for m in _known_marks(request) if m != mark]
    marks = [*marks[-4:], mark]  # the last five accounts used here
    response.set_signed_cookie(
        KNOWN_COOKIE,
        ",".join(marks),
        salt=KNOWN_COOKIE,
        max_age=KNOWN_CLIENT_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


# Costly requests: new games and typed-in puzzles ------------------------------------------

TOO_MANY_GAMES = _(
    "Too many new games in a short time from here. Your games in progress are saved; "
    "wait a few minutes before starting another."
)


def used_up(request: HttpRequest, per_client: Limit, per_player: Limit) -> Limit | None:
    """Count a costly request against the client and the player (account or guest); the
    limit either has used up (the request is then not counted), or None."""
    player = current_player(request)
    checks = [(per_client, client_ip(request))]
    if player.user is not None:
        checks.append((per_player, f"user:{player.user.pk}"))
    elif player.guest_id is not None:
        checks.append((per_player, f"guest:{player.guest_id}"))
    for limit, who in checks:
        if exceeded(limit, who):
            return limit
    for limit, who in checks:
        count(limit, who)
    return None


def start_refused(
    request: HttpRequest,
    per_client: Limit = GAME_START_PER_CLIENT,
    per_player: Limit = GAME_START_PER_ACCOUNT,
    message: str = TOO_MANY_GAMES,
) -> HttpResponse | None:
    """Count a game start (or another costly request) against the client and the player
    (account or guest); the 429 page when either has used up its limit."""
    limit = used_up(request, per_client, per_player)
    if limit is None:
        return None
    response = render(request, "puzzles/unavailable.html", {"message": message}, status=429)
    response["Retry-After"] = str(limit.seconds)
    return response
