"""The player's day: the date of the dailies, streaks and leaderboards is the date where
the player is. The browser names its time zone in the `tz` cookie (static/js/site.js); an
account keeps the last one named, for requests that come without it. A name that is no
time zone is ignored. Every "today" of the site's pages comes from player_today.
"""

from __future__ import annotations

import datetime
import functools
import zoneinfo

from django.http import HttpRequest
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from ..accounts.players import preferences_for
from ..models import Preferences
from ..pools.daily import latest_living

ZONE_COOKIE = "tz"
_ZONE_KEY = "_player_zone"


@functools.cache
def _zone_names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_named(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The time zone of an IANA name ("America/Los_Angeles"), or None for any other text."""
    if not name or len(name) > 64 or name not in _zone_names():
        return None
    return zoneinfo.ZoneInfo(name)


def player_zone(request: HttpRequest) -> datetime.tzinfo:
    """The player's time zone: the browser's, else the account's, else the site's. An
    account whose browser names another zone keeps the new one."""
    cached = getattr(request, _ZONE_KEY, None)
    if cached is not None:
        return cached
    named = request.COOKIES.get(ZONE_COOKIE)
    zone = zone_named(named)
    if request.user.is_authenticated:
        prefs = preferences_for(request)
        if zone is not None and prefs.time_zone != named:
            Preferences.objects.filter(pk=prefs.pk).update(time_zone=named)
            prefs.time_zone = named
        zone = zone or zone_named(prefs.time_zone)
    zone = zone or timezone.get_default_timezone()
    setattr(request, _ZONE_KEY, zone)
    return zone


def today_in(zone: datetime.tzinfo) -> datetime.date:
    """The date in a time zone now, never past the latest date lived anywhere."""
    return min(timezone.localdate(timezone=zone), latest_living())


def player_today(request: HttpRequest) -> datetime.date:
    """The date where the player is: the day of their dailies, streak and leaderboards."""
    return today_in(player_zone(request))


def seconds_to_tomorrow(zone: datetime.tzinfo) -> int:
    """Seconds until the next date starts in the zone: the next dailies come out then."""
    now = timezone.localtime(timezone=zone)
    midnight = datetime.datetime.combine(
        now.date() + datetime.timedelta(days=1), datetime.time(), tzinfo=zone
    )
    return max(0, int((midnight - now).total_seconds()))


def zone_name(request: HttpRequest) -> str:
    """The name of the player's time zone, as the page tells the browser."""
    zone = player_zone(request)
    return getattr(zone, "key", str(zone))


def zone_context(request: HttpRequest) -> dict:
    """Template context of every page: {"player_zone": the zone's name}, worked out only
    when a template uses it."""
    return {"player_zone": SimpleLazyObject(lambda: zone_name(request))}
