"""Days and moments in each language's way (puzzles/templatetags/days.py)."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.utils import translation

from puzzles.templatetags.days import FORMATS, day

DAY = datetime.date(2026, 11, 28)


@pytest.mark.parametrize(
    ("code", "shape", "said"),
    [
        ("en", "day", "28 November"),
        ("en", "short", "28 Nov"),
        ("en", "weekday_year", "Saturday 28 November 2026"),
        ("de", "day", "28. November"),
        ("de", "weekday", "Samstag, 28. November"),
        ("fr", "date", "28 novembre 2026"),
        ("es", "date", "28 de noviembre de 2026"),
        ("pt-br", "day", "28 de Novembro"),  # as Django's catalog writes the month
        ("ja", "date", "2026年11月28日"),
        ("zh-hans", "day", "11月28日"),
        ("ar", "day", "28 نوفمبر"),
    ],
)
def test_a_day_is_written_as_its_language_writes_it(code, shape, said):
    with translation.override(code):
        assert day(DAY, shape) == said


def test_every_shipped_language_has_every_shape():
    shapes = set(FORMATS["en"])
    for code, _ in settings.LANGUAGES:
        assert set(FORMATS[code]) == shapes, code
