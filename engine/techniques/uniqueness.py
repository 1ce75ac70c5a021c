"""Uniqueness: patterns that would leave a puzzle with two solutions, so cannot happen.

A proper puzzle has one solution. Four cells on two rows, two columns and two boxes that
could all hold only the same two digits (a "deadly pattern") could swap them and still be
right, so some cell of the rectangle must take a third digit. A board where every empty cell
has two candidates and every digit two places in each unit (a bivalue universal grave) has
two solutions likewise, so the one cell with a third candidate holds it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ..board import Board, Step
from ..grid import BIT, BOX_OF, DIGITS_OF, POPCOUNT, UNITS, UNITS_OF, shared_units, unit_name
from ..wording import cells_in, cells_text, digits_text, digits_text_pair, place, removals_text
from .table import step

# Why a rectangle cannot hold only its two digits, said once for every type.
_DEADLY = (
    "could hold only {pair} would let the two digits swap places, and the puzzle would have "
    "two solutions"
)


def _rectangles(board: Board) -> Iterator[tuple[tuple[int, int, int, int], int, list[int]]]:
    """Every rectangle on two rows, two columns and two boxes whose four cells are empty and
    hold both digits of a pair: (corners, pair mask, the corners holding only the pair)."""
    cands = board.cands
    for a in range(81):
        m = cands[a]
        if POPCOUNT[m] != 2:
            continue
        ra, ca = divmod(a, 9)
        for c2 in range(ca + 1, 9):
            b = ra * 9 + c2
            if cands[b] & m != m:
                continue
            for r2 in range(9):
                if r2 == ra:
                    continue
                c, d = r2 * 9 + ca, r2 * 9 + c2
                if cands[c] & m != m or cands[d] & m != m:
                    continue
                if len({BOX_OF[a], BOX_OF[b], BOX_OF[c], BOX_OF[d]}) != 2:
                    continue
                corners = tuple(sorted((a, b, c, d)))
                floor = [x for x in corners if cands[x] == m]
                # Met once from each bivalue corner: keep the meeting from the first.
                if floor[0] == a:
                    yield corners, m, floor  # type: ignore[misc]


def _opposite(x: int, y: int) -> bool:
    """Two corners of a rectangle on a diagonal (no shared row or column)."""
    return x // 9 != y // 9 and x % 9 != y % 9


Rectangle = tuple[tuple[int, ...], int, list[int], list[int]]


def _floor_on_a_line(board: Board) -> Iterator[Rectangle]:
    """The rectangles of types 2-4, whose two corners holding only the pair share a row or
    column: (corners, pair mask, those two corners, the other two)."""
    for corners, m, floor in _rectangles(board):
        if len(floor) == 2 and not _opposite(*floor):
            yield corners, m, floor, [x for x in corners if x not in floor]


def _other_digits(extra: int) -> str:
    """'its other digit, 6' or 'one of its other digits, 4, 6 and 9'."""
    digits = DIGITS_OF[extra]
    if len(digits) == 1:
        return f"its other digit, {digits[0]}"
    return f"one of its other digits, {digits_text(digits)}"


def _intro(corners: tuple[int, ...], m: int) -> str:
    return (
        f"The rectangle {cells_text(corners)} sits on two rows, two columns and two boxes. "
        f"Four such cells that {_DEADLY.format(pair=digits_text_pair(m))}."
    )


def unique_rectangle_1(board: Board) -> Step | None:
    """Three corners hold only {a,b}: the fourth cannot be a or b."""
    cands = board.cands
    for corners, m, floor in _rectangles(board):
        if len(floor) != 3:
            continue
        (roof,) = [x for x in corners if x not in floor]
        removed = [(roof, d) for d in DIGITS_OF[m]]
        return step(
            "unique_rectangle_1",
            eliminations=removed,
            cells=list(corners),
            area=list(corners),
            cause=floor,
            region=cells_text(corners),
            reason=f"{_intro(corners, m)} Three of them, {cells_text(floor)}, hold only "
            f"{digits_text_pair(m)}: the fourth must hold {_other_digits(cands[roof] & ~m)}.",
            result=f"So take out {removals_text(removed)}.",
        )
    return None


def unique_rectangle_2(board: Board) -> Step | None:
    """Two corners on a line hold only {a,b}, the other two {a,b,c}: one of those is c."""
    cands = board.cands
    for corners, m, floor, roof in _floor_on_a_line(board):
        extra = cands[roof[0]] & ~m
        if POPCOUNT[extra] != 1 or cands[roof[1]] & ~m != extra:
            continue
        (z,) = DIGITS_OF[extra]
        removed = board.seen_by_all(roof, z, keep=corners)
        if removed:
            return step(
                "unique_rectangle_2",
                eliminations=removed,
                cells=list(corners),
                area=list(corners),
                cause=list(corners),
                region=cells_text(corners),
                reason=f"{_intro(corners, m)} {cells_text(floor).capitalize()} hold only "
                f"{digits_text_pair(m)}, and {cells_text(roof)} hold only "
                f"{digits_text_pair(cands[roof[0]])}: one of those two must be {z}.",
                result=f"So {z} leaves every cell that sees both: "
                f"take out {removals_text(removed)}.",
            )
    return None


def unique_rectangle_3(board: Board) -> Step | None:
    """Two corners on a line hold only {a,b}; the other two's extra digits act as one cell
    and form a naked subset with other cells of a unit they share."""
    cands = board.cands
    for corners, m, floor, roof in _floor_on_a_line(board):
        extra = (cands[roof[0]] | cands[roof[1]]) & ~m
        for unit in shared_units(roof):
            others = [
                c
                for c in UNITS[unit]
                if c not in roof and cands[c] and not cands[c] & m and POPCOUNT[cands[c]] <= 4
            ]
            for size in range(1, 4):
                for group in combinations(others, size):
                    union = extra
                    for c in group:
                        union |= cands[c]
                    if POPCOUNT[union] != size + 1:
                        continue
                    # The subset holds in every unit its places share (a row and a box).
                    units = shared_units([*roof, *group])
                    removed = sorted(
                        {
                            (c, d)
                            for u in units
                            for c in UNITS[u]
                            if c not in roof and c not in group
                            for d in DIGITS_OF[cands[c] & union]
                        }
                    )
                    if not removed:
                        continue
                    where = " and ".join(unit_name(u) for u in units)
                    return step(
                        "unique_rectangle_3",
                        rating=4.5 + 0.1 * size,
                        eliminations=removed,
                        cells=[*corners, *group],
                        area=[*corners, *group],
                        cause=[*corners, *group],
                        units=units,
                        region=cells_text(corners),
                        reason=f"{_intro(corners, m)} {cells_text(floor).capitalize()} hold "
                        f"only {digits_text_pair(m)}, so one of {cells_text(roof)} holds "
                        f"{_other_digits(extra)}. In {where}, together with "
                        f"{cells_in(units[0], group)}, that makes "
                        f"{size + 1} places for the {size + 1} digits "
                        f"{digits_text(DIGITS_OF[union])}: they belong to these places.",
                        result=f"So they leave the rest of {where}: "
                        f"take out {removals_text(removed)}.",
                    )
    return None


def unique_rectangle_4(board: Board) -> Step | None:
    """Two corners on a line hold only {a,b}; in a unit the other two share, a has no
    other place: so neither of them can be b."""
    places = board.places()
    for corners, m, floor, roof in _floor_on_a_line(board):
        for unit in shared_units(roof):
            for a in DIGITS_OF[m]:
                if sorted(places[unit][a]) != roof:
                    continue
                (b,) = DIGITS_OF[m & ~BIT[a]]
                removed = [(c, b) for c in roof]
                return step(
                    "unique_rectangle_4",
                    eliminations=removed,
                    cells=list(corners),
                    area=list(corners),
                    cause=floor,
                    units=[unit],
                    region=cells_text(corners),
                    reason=f"{_intro(corners, m)} {cells_text(floor).capitalize()} hold "
                    f"only {digits_text_pair(m)}. In {unit_name(unit)}, {a} can go only in "
                    f"{cells_in(unit, roof)}, so one of them is {a}; were the other {b}, the "
                    f"four cells would hold only {digits_text_pair(m)}.",
                    result=f"So neither can be {b}: take out {removals_text(removed)}.",
                )
    return None


def bug_plus_1(board: Board) -> Step | None:
    """Every empty cell has two candidates but one, which has three: that one holds the
    digit that would otherwise have three places in its units."""
    cands = board.cands
    odd = None
    for c in range(81):
        n = POPCOUNT[cands[c]]
        if board.values[c] or n == 2:
            continue
        if n != 3 or odd is not None:
            return None
        odd = c
    if odd is None:
        return None
    places = board.places()
    # Every other digit must have two places in every unit, or it is no grave.
    for unit in range(27):
        for d in range(1, 10):
            n = len(places[unit][d])
            if n not in (0, 2) and not (n == 3 and odd in places[unit][d]):
                return None
    three = [d for d in DIGITS_OF[cands[odd]] if all(len(places[u][d]) == 3 for u in UNITS_OF[odd])]
    if len(three) != 1:
        return None
    (digit,) = three
    others = [d for d in DIGITS_OF[cands[odd]] if d != digit]
    return step(
        "bug_plus_1",
        placements=[(odd, digit)],
        cells=[odd],
        area=[odd],
        cause=sorted({c for u in UNITS_OF[odd] for c in places[u][digit]} - {odd}),
        region=place(odd),
        reason=f"Every empty cell but one, in {unit_name(18 + BOX_OF[odd])}, holds two "
        f"candidates. If that cell held {digits_text(others).replace(' and ', ' or ')}, every "
        "digit would have two places in each row, column and box, a pattern that can always "
        "be solved two ways: the puzzle would have two solutions. Only "
        f"{digit} has three places in that cell's row, column and box.",
        explanation=f"Every empty cell but {place(odd)} holds two candidates. Were it "
        f"{digits_text(others).replace(' and ', ' or ')}, every digit would have two places "
        "in each row, column and box, a pattern that can always be solved two ways: the "
        f"puzzle would have two solutions. Only {digit} has three places in the row, column "
        f"and box of {place(odd)}. So {place(odd)} is {digit}.",
        result=f"So {place(odd)} is {digit}.",
    )
