"""Plain-English phrases for cells, digits and eliminations, shared by every explanation.

Places are written for people, "row 2, column 5"; inside `compact_places()` they are
written the compact way players of hint tools know, "r2c5".
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from contextvars import ContextVar

from .grid import DIGITS_OF, cell_name

_COMPACT: ContextVar[bool] = ContextVar("compact_places", default=False)


@contextlib.contextmanager
def compact_places(compact: bool = True) -> Iterator[None]:
    """Within the block, places are written r2c5 (compact) or row 2, column 5 (not)."""
    token = _COMPACT.set(compact)
    try:
        yield
    finally:
        _COMPACT.reset(token)


def is_compact() -> bool:
    """Whether places are written compact here (inside `compact_places()`)."""
    return _COMPACT.get()


def place(cell: int) -> str:
    """A cell's name: 'row 2, column 5', or 'r2c5' when places are compact."""
    if _COMPACT.get():
        return cell_name(cell)
    return f"row {cell // 9 + 1}, column {cell % 9 + 1}"


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
    """Several cells: 'row 1, columns 2 and 5; row 3, column 4' (compact: r1c2, r1c5 and
    r3c4). Cells of one column read 'rows 1 and 4, column 5'."""
    cells = sorted(set(cells))
    if _COMPACT.get() or len(cells) <= 1:
        return join(place(c) for c in cells)
    rows: dict[int, list[int]] = {}
    for c in cells:
        rows.setdefault(c // 9 + 1, []).append(c % 9 + 1)
    columns = {c % 9 for c in cells}
    if len(columns) == 1:
        return f"rows {join(str(r) for r in rows)}, column {columns.pop() + 1}"
    parts = [
        f"row {r}, column{'s' if len(cols) > 1 else ''} {join(map(str, cols))}"
        for r, cols in rows.items()
    ]
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2 and len(cells) == 2:
        return " and ".join(parts)
    return "; ".join(parts[:-1]) + "; and " + parts[-1]


def cells_in(unit: int, cells: Iterable[int]) -> str:
    """Cells of a row or column already named, without naming it again: 'columns 2 and 5'
    in row 1 (compact, and in a box: as cells_text)."""
    cells = sorted(set(cells))
    if not _COMPACT.get() and unit < 18:
        by_row = unit < 9
        if all((c // 9 if by_row else 9 + c % 9) == unit for c in cells):
            kind = "column" if by_row else "row"
            numbers = [c % 9 + 1 if by_row else c // 9 + 1 for c in cells]
            return f"{plural(len(numbers), kind)} {join(map(str, numbers))}"
    return cells_text(cells)


def plural(count: int, word: str) -> str:
    """The word for one, or for several: 'column', 'columns'; 'box', 'boxes'."""
    if count == 1:
        return word
    return word + ("es" if word.endswith(("x", "s")) else "s")


def a_digit(digit: int) -> str:
    """'a 4', 'an 8'."""
    return f"{'an' if digit == 8 else 'a'} {digit}"


def digits_text(digits: Iterable[int]) -> str:
    """3, 5 and 7."""
    return join(str(d) for d in sorted(digits))


def digits_text_pair(mask: int) -> str:
    """'{1,5}' for a candidate mask."""
    return "{" + ",".join(map(str, DIGITS_OF[mask])) + "}"


def removals_text(eliminations: Iterable[tuple[int, int]]) -> str:
    """'5 from row 1, columns 2 and 7; also 3 from row 4, column 4', grouped by digit."""
    by_digit: dict[int, list[int]] = {}
    for cell, digit in eliminations:
        by_digit.setdefault(digit, []).append(cell)
    return "; also ".join(f"{d} from {cells_text(cells)}" for d, cells in sorted(by_digit.items()))
