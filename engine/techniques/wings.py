"""Wings: small patterns of two- and three-candidate cells that trap a digit."""

from __future__ import annotations

from ..board import Board, Step
from ..grid import (
    BIT,
    DIGITS_OF,
    PEER_BITS,
    PEERS,
    POPCOUNT,
    UNITS,
    unit_name,
)
from ..i18n import _
from ..wording import cells_in, digits_text_pair, place, removals_text, sentence
from .table import step


def _bivalue_cells(board: Board) -> list[int]:
    return [c for c in range(81) if POPCOUNT[board.cands[c]] == 2]


def xy_wing(board: Board) -> Step | None:
    """A pivot {x,y} sees pincers {x,z} and {y,z}: whichever way, one pincer is z."""
    cands = board.cands
    bivalue = set(_bivalue_cells(board))
    for pivot in sorted(bivalue):
        m = cands[pivot]
        wings = [p for p in PEERS[pivot] if p in bivalue and POPCOUNT[cands[p] & m] == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                za, zb = cands[a] & ~m, cands[b] & ~m
                if za != zb or cands[a] & cands[b] & m:
                    continue
                z = DIGITS_OF[za][0]
                removed = board.seen_by_all((a, b), z)
                if removed:
                    x, y = DIGITS_OF[m]
                    return step(
                        "xy_wing",
                        eliminations=removed,
                        cells=[pivot, a, b],
                        area=[pivot],
                        region=place(pivot),
                        reason=sentence(
                            _(
                                # Translators: {pivot}, {first} and {second} are places
                                # like 'row 2, column 5'; {first_pair} and {second_pair}
                                # their candidates, like '{1,5}'.
                                "{pivot} is {x} or {y}. Either way one of {first} and {second} "
                                "(the cells it sees with {first_pair} and {second_pair}) must "
                                "be {z}."
                            ).format(
                                pivot=place(pivot),
                                x=x,
                                y=y,
                                first=place(a),
                                second=place(b),
                                first_pair=digits_text_pair(cands[a]),
                                second_pair=digits_text_pair(cands[b]),
                                z=z,
                            )
                        ),
                        result=_(
                            # Translators: {removals} is a list like
                            # '5 from row 1, columns 2 and 7'.
                            "So {digit} leaves every cell that sees both: take out {removals}."
                        ).format(digit=z, removals=removals_text(removed)),
                    )
    return None


def xyz_wing(board: Board) -> Step | None:
    """A pivot {x,y,z} sees pincers {x,z} and {y,z}: one of the three is z."""
    cands = board.cands
    for pivot in range(81):
        m = cands[pivot]
        if POPCOUNT[m] != 3:
            continue
        wings = [p for p in PEERS[pivot] if POPCOUNT[cands[p]] == 2 and cands[p] & m == cands[p]]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                shared = cands[a] & cands[b]
                if POPCOUNT[shared] != 1 or cands[a] | cands[b] != m:
                    continue
                z = DIGITS_OF[shared][0]
                removed = board.seen_by_all((pivot, a, b), z)
                if removed:
                    return step(
                        "xyz_wing",
                        eliminations=removed,
                        cells=[pivot, a, b],
                        area=[pivot],
                        region=place(pivot),
                        reason=sentence(
                            _(
                                # Translators: {pivot}, {first} and {second} are places like
                                # 'row 2, column 5'; {digits}, {first_pair} and {second_pair} their
                                # candidates, like '{1,5,7}'.
                                "{pivot} holds {digits} and sees {first} {first_pair} and "
                                "{second} {second_pair}: whatever the pivot is, one of the three "
                                "cells is {z}."
                            ).format(
                                pivot=place(pivot),
                                digits=digits_text_pair(m),
                                first=place(a),
                                first_pair=digits_text_pair(cands[a]),
                                second=place(b),
                                second_pair=digits_text_pair(cands[b]),
                                z=z,
                            )
                        ),
                        result=_(
                            # Translators: {removals} is a list like
                            # '5 from row 1, columns 2 and 7'.
                            "So {digit} leaves every cell that sees all three: take out {removals}."
                        ).format(digit=z, removals=removals_text(removed)),
                    )
    return None


def w_wing(board: Board) -> Step | None:
    """Two {x,y} cells joined by a strong link on x: one of them is y."""
    cands = board.cands
    bivalue = _bivalue_cells(board)
    for i, a in enumerate(bivalue):
        for b in bivalue[i + 1 :]:
            if cands[a] != cands[b] or PEER_BITS[a] >> b & 1:
                continue
            for x in DIGITS_OF[cands[a]]:
                y = DIGITS_OF[cands[a] & ~BIT[x]][0]
                link = _strong_link_between(board, x, a, b)
                if link is None:
                    continue
                removed = board.seen_by_all((a, b), y)
                if removed:
                    unit, ends = link
                    return step(
                        "w_wing",
                        eliminations=removed,
                        cells=[a, b, *ends],
                        units=[unit],
                        region=unit_name(unit),
                        reason=sentence(
                            _(
                                # Translators: {first} and {second} are places like
                                # 'row 2, column 5'; {pair} their candidates, like
                                # '{1,5}'; {unit} is a row, column or box, like 'row 3';
                                # {ends} the two places of {x} in it, like 'columns 2
                                # and 7'.
                                "{first} and {second} both hold {pair}. In {unit}, {x} can go "
                                "only in {ends}, one seen by each of them, so they cannot both "
                                "be {x}: one of them is {y}."
                            ).format(
                                first=place(a),
                                second=place(b),
                                pair=digits_text_pair(cands[a]),
                                unit=unit_name(unit),
                                x=x,
                                ends=cells_in(unit, ends),
                                y=y,
                            )
                        ),
                        result=_(
                            # Translators: {removals} is a list like
                            # '5 from row 1, columns 2 and 7'.
                            "So {digit} leaves every cell that sees both: take out {removals}."
                        ).format(digit=y, removals=removals_text(removed)),
                    )
    return None


def _strong_link_between(board: Board, x: int, a: int, b: int) -> tuple[int, list[int]] | None:
    """A unit where x has exactly two places, one seeing a and the other seeing b."""
    for unit in range(27):
        ends = board.cells_with(x, unit)
        if len(ends) != 2 or a in ends or b in ends or a in UNITS[unit] or b in UNITS[unit]:
            continue
        p, q = ends
        if (PEER_BITS[a] >> p & 1 and PEER_BITS[b] >> q & 1) or (
            PEER_BITS[a] >> q & 1 and PEER_BITS[b] >> p & 1
        ):
            return unit, ends
    return None
