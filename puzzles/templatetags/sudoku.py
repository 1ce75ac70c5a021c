"""Template filters: times as clocks."""

from __future__ import annotations

from django import template

from ..stats import clock as clock_text

register = template.Library()


@register.filter
def clock(seconds: float | None) -> str:
    """12:34 or 1:02:03."""
    return clock_text(seconds)
