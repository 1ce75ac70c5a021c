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
from ..i18n import _, ngettext
from ..wording import (
    cells_in,
    cells_text,
    digits_text,
    digits_text_pair,
    either,
    join,
    place,
    removals_text,
    sentence,
)
from .table import step


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
    return ngettext(
        # Translators: a cell's digits besides the rectangle's two; {digits} is like '6' or
        # '4, 6 and 9'. Said in 'the fourth must hold ...' and 'one of ... holds ...'.
        "its other digit, {digits}",
        "one of its other digits, {digits}",
        len(digits),
    ).format(digits=digits_text(digits))


def _intro(corners: tuple[int, ...], m: int) -> str:
    """Why a rectangle cannot hold only its two digits, said once for every type."""
    return _(
        # Translators: {cells} is a list of places like 'rows 1 and 4, columns 2 and 5';
        # {pair} the rectangle's two digits, like '{1,5}'.
        "The rectangle {cells} sits on two rows, two columns and two boxes. Four such cells "
        "that could hold only {pair} would let the two digits swap places, and the puzzle "
        "would have two solutions."
    ).format(cells=cells_text(corners), pair=digits_text_pair(m))


def _removals(removed: list[tuple[int, int]]) -> str:
    # Translators: {removals} is a list like '5 from row 1, columns 2 and 7'.
    return _("So take out {removals}.").format(removals=removals_text(removed))


def _leaves(digit: int, removed: list[tuple[int, int]]) -> str:
    # Translators: {removals} is a list like '5 from row 1, columns 2 and 7'.
    return _("So {digit} leaves every cell that sees both: take out {removals}.").format(
        digit=digit, removals=removals_text(removed)
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
            reason=_intro(corners, m)
            + " "
            # Translators: {cells} is a list of places; {pair} two digits like '{1,5}';
            # {other} is 'its other digit, 6' or 'one of its other digits, 4, 6 and 9'.
            + _("Three of them, {cells}, hold only {pair}: the fourth must hold {other}.").format(
                cells=cells_text(floor),
                pair=digits_text_pair(m),
                other=_other_digits(cands[roof] & ~m),
            ),
            result=_removals(removed),
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
                reason=_intro(corners, m)
                + " "
                + sentence(
                    _(
                        # Translators: {floor} and {roof} are two places each, like 'row 1,
                        # columns 2 and 5'; {pair} and {roof_digits} digits like '{1,5}'.
                        "{floor} hold only {pair}, and {roof} hold only {roof_digits}: one of "
                        "those two must be {digit}."
                    ).format(
                        floor=cells_text(floor),
                        pair=digits_text_pair(m),
                        roof=cells_text(roof),
                        roof_digits=digits_text_pair(cands[roof[0]]),
                        digit=z,
                    )
                ),
                result=_leaves(z, removed),
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
                    where = join(unit_name(u) for u in units)
                    return step(
                        "unique_rectangle_3",
                        rating=4.5 + 0.1 * size,
                        eliminations=removed,
                        cells=[*corners, *group],
                        area=[*corners, *group],
                        cause=[*corners, *group],
                        units=units,
                        region=cells_text(corners),
                        reason=_intro(corners, m)
                        + " "
                        + sentence(
                            # Translators: {floor} and {roof} are two places each, like
                            # 'row 1, columns 2 and 5'; {pair} two digits like '{1,5}';
                            # {other} is 'its other digit, 6' or 'one of its other digits,
                            # 4, 6 and 9'.
                            _("{floor} hold only {pair}, so one of {roof} holds {other}.").format(
                                floor=cells_text(floor),
                                pair=digits_text_pair(m),
                                roof=cells_text(roof),
                                other=_other_digits(extra),
                            )
                        )
                        + " "
                        + ngettext(
                            # Translators: {units} is like 'row 3 and box 2'; {cells} the other
                            # places of the subset, like 'columns 4 and 6'; {digits} like
                            # '3, 5 and 7'.
                            "In {units}, together with {cells}, that makes {n} place for the "
                            "{n} digit {digits}: they belong to these places.",
                            "In {units}, together with {cells}, that makes {n} places for the "
                            "{n} digits {digits}: they belong to these places.",
                            size + 1,
                        ).format(
                            units=where,
                            cells=cells_in(units[0], group),
                            n=size + 1,
                            digits=digits_text(DIGITS_OF[union]),
                        ),
                        # Translators: {units} is like 'row 3 and box 2'; {removals} a list
                        # like '5 from row 1, columns 2 and 7'.
                        result=_("So they leave the rest of {units}: take out {removals}.").format(
                            units=where, removals=removals_text(removed)
                        ),
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
                    reason=_intro(corners, m)
                    + " "
                    + sentence(
                        _(
                            # Translators: {floor} and {roof} are two places each, like 'row 1,
                            # columns 2 and 5' and 'columns 2 and 5'; {pair} two digits like
                            # '{1,5}'; {unit} a row, column or box, like 'row 3'.
                            "{floor} hold only {pair}. In {unit}, {a} can go only in {roof}, so "
                            "one of them is {a}; were the other {b}, the four cells would hold "
                            "only {pair}."
                        ).format(
                            floor=cells_text(floor),
                            pair=digits_text_pair(m),
                            unit=unit_name(unit),
                            a=a,
                            roof=cells_in(unit, roof),
                            b=b,
                        )
                    ),
                    # Translators: {removals} is a list like '5 from row 1, columns 2 and 7'.
                    result=_("So neither can be {digit}: take out {removals}.").format(
                        digit=b, removals=removals_text(removed)
                    ),
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
        reason=_(
            # Translators: {box} is like 'box 5'; {others} the cell's other two digits, like
            # '4 or 7'.
            "Every empty cell but one, in {box}, holds two candidates. If that cell held "
            "{others}, every digit would have two places in each row, column and box, a "
            "pattern that can always be solved two ways: the puzzle would have two solutions. "
            "Only {digit} has three places in that cell's row, column and box."
        ).format(box=unit_name(18 + BOX_OF[odd]), others=either(others), digit=digit),
        explanation=_(
            # Translators: {place} is a place like 'row 2, column 5'; {others} the cell's other
            # two digits, like '4 or 7'.
            "Every empty cell but {place} holds two candidates. Were it {others}, every digit "
            "would have two places in each row, column and box, a pattern that can always be "
            "solved two ways: the puzzle would have two solutions. Only {digit} has three "
            "places in the row, column and box of {place}. So {place} is {digit}."
        ).format(place=place(odd), others=either(others), digit=digit),
        # Translators: {place} is a place like 'row 2, column 5'.
        result=_("So {place} is {digit}.").format(place=place(odd), digit=digit),
    )
