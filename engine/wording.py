"""Plain phrases for cells, digits and eliminations, shared by every explanation, said in
the current language (see `i18n`).

Places are written for people, "row 2, column 5"; inside `compact_places()` they are
written the compact way players of hint tools know, "r2c5".
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from contextvars import ContextVar

from .grid import DIGITS_OF, cell_name
from .i18n import _, ngettext

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
    # Translators: a cell's name by its row and column numbers, 1-9.
    return _("row {row}, column {column}").format(row=cell // 9 + 1, column=cell % 9 + 1)


def sentence(text: str) -> str:
    """The text with its first letter in upper case, to begin a sentence: 'Row 2, ...'."""
    return text[:1].upper() + text[1:]


def _listed(words: list[str]) -> str:
    """All words but the last, between the list's separators: 'a, b'."""
    # Translators: what separates the items of a list but the last two: "a, b and c".
    return _(", ").join(words)


def join(words: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    # Translators: the end of a list: {items} are all the items but the last, "a, b".
    return _("{items} and {last}").format(items=_listed(words[:-1]), last=words[-1])


def either(digits: Iterable[int]) -> str:
    """'3, 5 or 7'."""
    words = [str(d) for d in sorted(digits)]
    if len(words) == 1:
        return words[0]
    # Translators: the end of a list of choices: {items} are all of them but the last, "3, 5".
    return _("{items} or {last}").format(items=_listed(words[:-1]), last=words[-1])


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
        # Translators: cells of one column in several rows; {rows} is a list, "1 and 4".
        return _("rows {rows}, column {column}").format(
            rows=join(str(r) for r in rows), column=columns.pop() + 1
        )
    parts = [
        # Translators: cells of one row in some columns; {columns} is a list, "2 and 5".
        ngettext("row {row}, column {columns}", "row {row}, columns {columns}", len(cols)).format(
            row=r, columns=join(map(str, cols))
        )
        for r, cols in rows.items()
    ]
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2 and len(cells) == 2:
        return _("{items} and {last}").format(items=parts[0], last=parts[1])
    # Translators: what separates the groups of cells, row by row, in a list of cells:
    # "row 1, columns 2 and 5; row 3, column 4; and row 7, column 1".
    items = _("; ").join(parts[:-1])
    # Translators: the end of a list of cells, row by row: {items} are all groups but the
    # last, "row 1, columns 2 and 5; row 3, column 4".
    return _("{items}; and {last}").format(items=items, last=parts[-1])


def cells_in(unit: int, cells: Iterable[int]) -> str:
    """Cells of a row or column already named, without naming it again: 'columns 2 and 5'
    in row 1 (compact, and in a box: as cells_text)."""
    cells = sorted(set(cells))
    if not _COMPACT.get() and unit < 18:
        by_row = unit < 9
        if all((c // 9 if by_row else 9 + c % 9) == unit for c in cells):
            numbers = [c % 9 + 1 if by_row else c // 9 + 1 for c in cells]
            listed = join(map(str, numbers))
            if by_row:
                # Translators: cells of a row already named, by their columns: "columns 2 and 5".
                said = ngettext("column {numbers}", "columns {numbers}", len(numbers))
            else:
                # Translators: cells of a column already named, by their rows: "rows 2 and 5".
                said = ngettext("row {numbers}", "rows {numbers}", len(numbers))
            return said.format(numbers=listed)
    return cells_text(cells)


def plural(count: int, word: str) -> str:
    """The word for one, or for several: 'column', 'columns'; 'box', 'boxes' (the words
    of the units in the current language; any other in English)."""
    if word in _UNIT_WORDS:
        return _UNIT_WORDS[word](count)
    if count == 1:
        return word
    return word + ("es" if word.endswith(("x", "s")) else "s")


# The units' words, for one or several, said when asked for (see `plural`).
_UNIT_WORDS = {
    "row": lambda n: ngettext("row", "rows", n),
    "column": lambda n: ngettext("column", "columns", n),
    "box": lambda n: ngettext("box", "boxes", n),
}


def a_digit(digit: int) -> str:
    """'a 4', 'an 8'."""
    if digit == 8:
        # Translators: one of the digit 8, as in "every other cell sees an 8".
        return _("an {digit}").format(digit=digit)
    # Translators: one of a digit (any but 8), as in "every other cell sees a 4".
    return _("a {digit}").format(digit=digit)


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
    said = [
        # Translators: a digit to take out of some cells, as in "take out 5 from row 1, column 2".
        _("{digit} from {cells}").format(digit=d, cells=cells_text(cells))
        for d, cells in sorted(by_digit.items())
    ]
    # Translators: what separates the digits to take out: "5 from row 1; also 3 from row 4".
    return _("; also ").join(said)
