"""Template tags: times as clocks, and the board's 81 cells."""

from __future__ import annotations

import datetime
import math

from django import template
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..learn.tiers import tier_name
from ..play.stats import clock as clock_text

register = template.Library()


@register.filter
def tier(code: str) -> str:
    """A difficulty by its code as the page's language names it (learn/tiers.py)."""
    return tier_name(code)


@register.filter
def clock(seconds: float | None) -> str:
    """12:34 or 1:02:03."""
    return clock_text(seconds)


@register.filter
def get_item(mapping: dict, key: str) -> object:
    """mapping[key] in a template, or None."""
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def svg_points(points: list[tuple[float, float]]) -> str:
    """An SVG points attribute: "12.0,30.5 40.0,18.2"."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


@register.filter
def ago(when: datetime.datetime) -> str:
    """ "just now" within the minute, else "3 hours ago"."""
    if timezone.now() - when < datetime.timedelta(minutes=1):
        return _("just now")
    # Translators: %(time)s is a time span, "3 hours".
    return _("%(time)s ago") % {"time": timesince(when)}


# A cell's part in a step drawn as a level-2 hint draws it, as a screen reader says it.
HINT_PARTS = {
    "region": gettext_lazy("; where to look"),
    "cause": gettext_lazy("; part of the pattern"),
    "target": gettext_lazy("; the step changes it"),
}


class _Words:
    """What a screen reader says of the board's cells, in the request's language: looked up
    once a board rather than three times a cell."""

    def __init__(self) -> None:
        # Translators: a given digit of a cell as a screen reader says it, "7, given".
        self.given = _("%(digit)d, given")
        # Translators: a cell as a screen reader says it; %(notes)s is "1 5 9".
        self.notes = _("empty, notes %(notes)s")
        self.empty = _("empty")
        # Translators: a cell as a screen reader names it, "Row 2, column 5: 7, given".
        self.label = _("Row %(row)d, column %(column)d: %(content)s")
        self.parts = {part: str(said) for part, said in HINT_PARTS.items()}


def _cell(cell: dict, words: _Words) -> str:
    """One grid cell, with the data-* hooks the page script and tests rely on."""
    index, row, col, value, notes = (
        cell["index"],
        cell["row"],
        cell["col"],
        cell["value"],
        cell["notes"],
    )
    given = " given" if cell["given"] else ""
    if value:
        content = words.given % {"digit": value} if cell["given"] else str(value)
    elif notes:
        content = words.notes % {"notes": " ".join(map(str, notes))}
    else:
        content = words.empty
    # The notes' slots with spaces between: the cell's visible text ("1 5") is then part of
    # its name ("notes 1 5"), as a voice-control user reads it off the screen.
    on, off = cell.get("on") or [], cell.get("off") or []
    if on or off:
        slots = " ".join(
            f'<span data-note="{d}"{_chain_class(d, on, off)}>{d if d in notes else ""}</span>'
            for d in range(1, 10)
        )
    else:  # most cells of a board in play: the slots of their notes, as they are
        slots = _NO_NOTES if not notes else " ".join(_SLOTS[d in notes][d] for d in range(1, 10))
    # A board that shows a step (the technique guide) marks each cell's part in it.
    part = cell.get("hint", "")
    hint = f' data-hint="{part}"' if part in HINT_PARTS else ""
    # A chain's candidates on the cell: those it marks true, and false.
    if on:
        hint += f' data-hint-on="{"".join(map(str, sorted(on)))}"'
    if off:
        hint += f' data-hint-off="{"".join(map(str, sorted(off)))}"'
    content += words.parts.get(part, "")
    label = words.label % {"row": row, "column": col, "content": content}
    return (
        f'<div class="cell{given}" role="gridcell" data-cell="{index}" data-value="{value}"'
        f'{" data-given" if given else ""}{hint} data-row="{row}" data-col="{col}"'
        f' tabindex="{0 if index == 0 else -1}" aria-selected="false"'
        f' aria-label="{escape(label)}">'
        f'<span class="value" aria-hidden="true">{value or ""}</span>'
        f'<span class="notes" aria-hidden="true">{slots}</span></div>'
    )


# A note's slot, empty (False) and holding its digit (True), with no chain's mark on it.
_SLOTS = {
    held: {d: f'<span data-note="{d}">{d if held else ""}</span>' for d in range(1, 10)}
    for held in (False, True)
}
_NO_NOTES = " ".join(_SLOTS[False][d] for d in range(1, 10))


def _chain_class(digit: int, on: list[int], off: list[int]) -> str:
    if digit in on:
        return ' class="hint-on"'
    return ' class="hint-off"' if digit in off else ""


def _spot(node: str) -> tuple[float, float]:
    """Where a candidate "cell:digit" sits on a board drawn 900 units wide: its cell's
    3 by 3 notes, as the page's views/chain.js places it."""
    cell, digit = (int(part) for part in node.split(":"))
    k = digit - 1
    return (cell % 9 * 100 + k % 3 * 100 / 3 + 50 / 3, cell // 9 * 100 + k // 3 * 100 / 3 + 50 / 3)


@register.simple_tag
def hint_links(links: list[dict] | None) -> SafeString:
    """A chain's links over the board, as the game page draws them (views/chain.js): a line
    each, strong solid, weak dashed, with data-hint-link, data-from and data-to."""
    if not links:
        return mark_safe("")
    lines = []
    for link in links:
        (x1, y1), (x2, y2) = _spot(link["from"]), _spot(link["to"])
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        gap = min(12.0, length / 3)
        dx, dy = (x2 - x1) / length * gap, (y2 - y1) / length * gap
        kind = "strong" if link.get("kind") == "strong" else "weak"
        lines.append(
            f'<line x1="{x1 + dx:.1f}" y1="{y1 + dy:.1f}" x2="{x2 - dx:.1f}" y2="{y2 - dy:.1f}"'
            f' data-hint-link="{kind}" data-from="{escape(link["from"])}"'
            f' data-to="{escape(link["to"])}" marker-end="url(#hint-arrow)"></line>'
        )
    return mark_safe(  # numbers, and the ends escaped
        '<svg class="hint-links" viewBox="0 0 900 900" aria-hidden="true" focusable="false">'
        '<defs><marker id="hint-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5"'
        ' markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z"></path></marker></defs>'
        + "".join(lines)
        + "</svg>"
    )


@register.simple_tag
def board_rows(cells: list[dict]) -> SafeString:
    """The grid's nine rows of cells. Built here rather than in template loops: a board is
    over 800 elements, and the game page renders it on every visit."""
    words = _Words()
    rows = (
        '<div class="board-row" role="row">'
        + "".join(_cell(c, words) for c in cells[r * 9 : r * 9 + 9])
        + "</div>"
        for r in range(9)
    )
    return mark_safe("".join(rows))  # every value above is a number or escaped
