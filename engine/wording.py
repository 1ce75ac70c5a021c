"""Plain-English phrases for cells, digits and eliminations, shared by every explanation."""

from __future__ import annotations

from collections.abc import Iterable

from .grid import DIGITS_OF, cell_name


def join(words: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def either(digits: Iterable[int]) -> str:
    """'3, 5 or 7'."""
    words = [str(d) for d in sorted(digits)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def cells_text(cells: Iterable[int]) -> str:
    """r1c2, r1c5 and r3c4."""
    return join(cell_name(c) for c in sorted(cells))


def digits_text(digits: Iterable[int]) -> str:
    """3, 5 and 7."""
    return join(str(d) for d in sorted(digits))


def digits_text_pair(mask: int) -> str:
    """'{1,5}' for a candidate mask."""
    return "{" + ",".join(map(str, DIGITS_OF[mask])) + "}"


def removals_text(eliminations: Iterable[tuple[int, int]]) -> str:
    """'5 from r1c2 and r1c7; 3 from r4c4', grouped by digit."""
    by_digit: dict[int, list[int]] = {}
    for cell, digit in eliminations:
        by_digit.setdefault(digit, []).append(cell)
    return "; ".join(f"{d} from {cells_text(cells)}" for d, cells in sorted(by_digit.items()))
