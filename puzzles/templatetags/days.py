"""Days and moments as each language writes them: `{{ date|day:"short" }}` gives "28 Nov"
in English, "28. Nov." in German, "11月28日" in Japanese. Django's own formats name only a
few shapes (no weekday with day and month), so the site keeps its own per language, in
Django's date format letters; month and weekday names come from Django's catalogs."""

from __future__ import annotations

import datetime

from django import template
from django.utils import dateformat, translation

register = template.Library()

# The shapes: a day of the month ("day", "short"), with its year ("date"), with its weekday
# ("weekday", "weekday_year"), and a moment ("moment").
FORMATS: dict[str, dict[str, str]] = {
    "en": {
        "day": "j F",
        "short": "j M",
        "date": "j F Y",
        "weekday": "l j F",
        "weekday_year": "l j F Y",
        "moment": "j M Y, H:i",
    },
    "de": {
        "day": "j. F",
        "short": "j. M",
        "date": "j. F Y",
        "weekday": "l, j. F",
        "weekday_year": "l, j. F Y",
        "moment": "j. M Y, H:i",
    },
    "es": {
        "day": r"j \d\e F",
        "short": "j M",
        "date": r"j \d\e F \d\e Y",
        "weekday": r"l, j \d\e F",
        "weekday_year": r"l, j \d\e F \d\e Y",
        "moment": "j M Y, H:i",
    },
    "ja": {
        "day": "n月j日",
        "short": "n月j日",
        "date": "Y年n月j日",
        "weekday": "n月j日 l",
        "weekday_year": "Y年n月j日 l",
        "moment": "Y年n月j日 H:i",
    },
    "ar": {
        "day": "j F",
        "short": "j F",
        "date": "j F Y",
        "weekday": "l، j F",
        "weekday_year": "l، j F Y",
        "moment": "j F Y، H:i",
    },
}


# Languages that write days as another does.
FORMATS |= {"fr": FORMATS["en"], "pt-br": FORMATS["es"], "zh-hans": FORMATS["ja"]}


def day_format(shape: str, language: str | None = None) -> str:
    """The date format letters of a shape in a language (English's when it has none)."""
    formats = FORMATS.get((language or translation.get_language() or "en").lower(), FORMATS["en"])
    return formats[shape]


@register.filter
def day(value: datetime.date | datetime.datetime | None, shape: str = "day") -> str:
    """A date or moment in the shape named, as the current language writes it."""
    if value is None or value == "":
        return ""
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        from django.utils import timezone

        value = timezone.localtime(value)
    return dateformat.format(value, day_format(shape))
