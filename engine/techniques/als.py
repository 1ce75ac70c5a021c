"""Almost locked sets: n cells of one unit that hold n + 1 digits between them.

Take one digit out of an almost locked set (ALS) and the rest is locked: its n cells hold the
other n digits. Two sets A and B are linked by a restricted common digit X when every place
of X in A sees every place of X in B: X is then in at most one of them, so one of the two is
locked without X. ALS-XZ: A and B also share Z; whichever set is locked holds its Z, so a
cell that sees every Z of both loses Z. ALS-XY-Wing: A and B are each linked to a third set
C, by X and Y; C cannot lose both, so A or B is locked and holds its Z.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from ..board import Board, Step
from ..grid import BIT, DIGITS_OF, PEER_BITS, POPCOUNT, UNIT_BITS, UNITS, UNITS_OF, unit_name
from ..i18n import _, ngettext
from ..wording import cells_text, digits_text, removals_text
from .kept import Kept
from .table import step

# The largest sets looked at: bigger ones are rare in a solve and costly to pair.
MAX_CELLS = 4
EVERY_CELL = (1 << 81) - 1


class _Set(NamedTuple):
    unit: int
    cells: tuple[int, ...]
    mask: int  # the digits
    where: int  # the cells as a bitmask
    places: dict[int, int]  # digit -> the set's cells holding it, as a bitmask
    seen: dict[int, int]  # digit -> the cells that see every one of those places
    # digit -> the units holding every one of those places. Two sets that do not overlap
    # share a restricted common digit exactly when one unit holds all its places in both:
    # cells that all see each other lie in one unit.
    within: dict[int, tuple[int, ...]]


def _sets(board: Board) -> list[_Set]:
    return board.derived("almost locked sets", _find_sets)


# The sets of a unit depend only on its cells' candidates: found once for every position
# that has them.
_UNIT_SETS: Kept[list[_Set]] = Kept(2048)  # about 5 KB each


def _find_sets(board: Board) -> list[_Set]:
    cands = board.cands
    found: dict[int, _Set] = {}
    for unit in range(27):
        key = (unit, tuple([cands[c] for c in UNITS[unit]]))
        for s in _UNIT_SETS.get(key, _unit_sets, unit, cands):
            if s.where not in found:
                found[s.where] = s
    return list(found.values())


def _unit_sets(unit: int, cands: list[int]) -> list[_Set]:
    """The almost locked sets of one unit, in order."""
    found = []
    empty = [c for c in UNITS[unit] if cands[c]]
    top = min(MAX_CELLS, len(empty) - 1)
    # Groups of cells, size by size in the order of combinations(), with their digits; a
    # group with more digits than the largest set can hold is not grown further.
    groups: list[tuple[int, tuple[int, ...], int]] = [(-1, (), 0)]
    for size in range(1, top + 1):
        groups = [
            (i, (*group, empty[i]), grown)
            for last, group, mask in groups
            for i in range(last + 1, len(empty))
            if POPCOUNT[grown := mask | cands[empty[i]]] <= top + 1
        ]
        for _last, group, mask in groups:
            if POPCOUNT[mask] != size + 1:
                continue
            places, seen, within = {}, {}, {}
            for d in DIGITS_OF[mask]:
                bit, at, sees, first = BIT[d], 0, EVERY_CELL, -1
                for c in group:
                    if cands[c] & bit:
                        at |= 1 << c
                        sees &= PEER_BITS[c]
                        if first < 0:
                            first = c
                places[d], seen[d] = at, sees
                within[d] = tuple(u for u in UNITS_OF[first] if not at & ~UNIT_BITS[u])
            where = sum(1 << c for c in group)
            found.append(_Set(unit, group, mask, where, places, seen, within))
    return found


def _links(board: Board) -> list[list[tuple[int, int]]]:
    """Per set, by its index in _sets(): the sets it does not overlap that share a
    restricted common digit with it, as (their index, the digit), in that order."""
    return board.derived("restricted commons", _find_links)


def _find_links(board: Board) -> list[list[tuple[int, int]]]:
    sets = _sets(board)
    # Per cell, the sets (as bits of their indices) that hold it; a set overlaps those of
    # its cells.
    holding_cell: dict[int, int] = {}
    for i, s in enumerate(sets):
        for c in s.cells:
            holding_cell[c] = holding_cell.get(c, 0) | 1 << i
    overlapping = []
    for s in sets:
        near = 0
        for c in s.cells:
            near |= holding_cell[c]
        overlapping.append(near)
    # Per digit and unit (x * 27 + unit), the sets whose places of x the unit holds all of.
    groups: dict[int, int] = {}
    for i, s in enumerate(sets):
        for x, units in s.within.items():
            for u in units:
                key = x * 27 + u
                groups[key] = groups.get(key, 0) | 1 << i
    # Per set and digit (set * 10 + x), the sets sharing such a unit with it.
    tied: dict[int, int] = {}
    for key, group in groups.items():
        if not group & (group - 1):
            continue  # the set alone
        x = key // 27
        for i in _bits(group):
            at = i * 10 + x
            tied[at] = tied.get(at, 0) | group
    links: list[list[tuple[int, int]]] = [[] for _ in sets]
    for at, others in tied.items():
        i, x = divmod(at, 10)
        others &= ~overlapping[i]
        if others:
            found = links[i]
            for j in _bits(others):
                found.append((j, x))
    for found in links:
        found.sort()
    return links


def _bits(mask: int) -> list[int]:
    """The positions of the bits set: cells, or indices of sets."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def _removed(sets: tuple[_Set, ...], skip: int, digits: int, on: list[int]) -> list:
    """The candidates of the digits seen by every place of theirs in the sets."""
    removed = []
    for z in DIGITS_OF[digits]:
        targets = on[z] & ~skip
        for s in sets:
            targets &= s.seen[z]
        removed += [(c, z) for c in _bits(targets)]
    return sorted(removed)


def _named(s: _Set) -> str:
    return f"{cells_text(s.cells)} ({digits_text(DIGITS_OF[s.mask])})"


def _noted(name: str, s: _Set) -> str:
    """A set as HoDoKu writes it: A=r2c1,r2c6 {158}."""
    cells = ",".join(f"r{c // 9 + 1}c{c % 9 + 1}" for c in s.cells)
    return f"{name}={cells} {{{''.join(map(str, DIGITS_OF[s.mask]))}}}"


def _removals_noted(removed: list[tuple[int, int]]) -> str:
    return ", ".join(f"r{c // 9 + 1}c{c % 9 + 1}<>{d}" for c, d in removed)


def als_xz(board: Board) -> Step | None:
    """Two almost locked sets linked by a restricted common X: a cell seeing every Z of
    both loses Z."""
    sets = _sets(board)
    on = board.digit_cells()
    links = _links(board)
    for i, a in enumerate(sets):
        for j, x in links[i]:
            if j < i:
                continue
            b = sets[j]
            shared = a.mask & b.mask
            if POPCOUNT[shared] < 2:
                continue
            skip = a.where | b.where
            digits = shared & ~BIT[x]
            for z in DIGITS_OF[digits]:
                if on[z] & a.seen[z] & b.seen[z] & ~skip:
                    return _xz_step(a, b, x, _removed((a, b), skip, digits, on))
    return None


def _xz_step(a: _Set, b: _Set, x: int, removed: list[tuple[int, int]]) -> Step:
    zs = sorted({d for _c, d in removed})

    def tell() -> dict:
        return {
            # Translators: where to look: two units, "row 3 and box 2".
            "region": _("{unit} and {other}").format(
                unit=unit_name(a.unit), other=unit_name(b.unit)
            ),
            "cause": sorted(a.cells + b.cells),
            "reason": ngettext(
                # Translators: ALS-XZ. {a} and {b} are the two sets, cells and their digits,
                # "row 1, columns 2 and 5 (3, 5 and 7)"; {x} a digit; {z} one digit or several,
                # "3 and 7". A, B, X and Z are the names of the sets and digits: keep them.
                "Set A, {a}, and set B, {b}, each hold one digit more than they have cells. X is "
                "{x}: every {x} of one sees every {x} of the other, so at most one of them holds "
                "{x}, and the other holds all its other digits. Z is {z}: both have it, so {z} "
                "is in one set or the other.",
                "Set A, {a}, and set B, {b}, each hold one digit more than they have cells. X is "
                "{x}: every {x} of one sees every {x} of the other, so at most one of them holds "
                "{x}, and the other holds all its other digits. Z is {z}: both have each, so "
                "each of those is in one set or the other.",
                len(zs),
            ).format(a=_named(a), b=_named(b), x=x, z=digits_text(zs)),
            "result": _(
                # Translators: {removals} is "5 from row 1, columns 2 and 7; also 3 from ...".
                "So every cell that sees all their places loses it: take out {removals}."
            ).format(removals=removals_text(removed)),
            "notation": [
                f"{_noted('A', a)}, {_noted('B', b)}, X={x}, Z={''.join(map(str, zs))} => "
                + _removals_noted(removed)
            ],
        }

    return step(
        "als_xz",
        eliminations=removed,
        cells=sorted(a.cells + b.cells),
        units=[a.unit, b.unit],
        tell=tell,
    )


def als_xy_wing(board: Board) -> Step | None:
    """Sets A and B each linked to a pivot set C, by different digits X and Y: a cell seeing
    every Z of A and of B loses Z."""
    sets = _sets(board)
    on = board.digit_cells()
    every_link = _links(board)
    for i, c in enumerate(sets):
        links = [(sets[j], x) for j, x in every_link[i]]
        for (a, x), (b, y) in combinations(links, 2):
            if x == y or a is b or a.where & b.where:
                continue
            digits = a.mask & b.mask & ~BIT[x] & ~BIT[y]
            if not digits:
                continue
            skip = a.where | b.where | c.where
            for z in DIGITS_OF[digits]:
                if on[z] & a.seen[z] & b.seen[z] & ~skip:
                    return _xy_step(a, b, c, x, y, _removed((a, b), skip, digits, on))
    return None


def _xy_step(a: _Set, b: _Set, c: _Set, x: int, y: int, removed: list) -> Step:
    zs = sorted({d for _c, d in removed})

    def tell() -> dict:
        return {
            "region": f"{unit_name(c.unit)}",
            "cause": sorted(a.cells + b.cells + c.cells),
            "reason": ngettext(
                # Translators: ALS-XY-Wing. {a}, {b} and {c} are the three sets, cells and their
                # digits, "row 1, columns 2 and 5 (3, 5 and 7)"; {x} and {y} digits; {z} one digit
                # or several, "3 and 7". A, B, C, X, Y and Z are the names of the sets and digits:
                # keep them.
                "Set C, {c}, set A, {a}, and set B, {b}, each hold one digit more than they have "
                "cells. C is tied to A by X, {x} (every {x} of one sees every {x} of the other), "
                "and to B by Y, {y}. Z is {z}: were it in neither A nor B, each would be locked "
                "on its other digits: A would hold {x}, B {y}, and C, without both, would be a "
                "digit short. So A or B holds it.",
                "Set C, {c}, set A, {a}, and set B, {b}, each hold one digit more than they have "
                "cells. C is tied to A by X, {x} (every {x} of one sees every {x} of the other), "
                "and to B by Y, {y}. Z is any of {z}: were it in neither A nor B, each would be "
                "locked on its other digits: A would hold {x}, B {y}, and C, without both, would "
                "be a digit short. So A or B holds it.",
                len(zs),
            ).format(a=_named(a), b=_named(b), c=_named(c), x=x, y=y, z=digits_text(zs)),
            "result": _(
                # Translators: {removals} is "5 from row 1, columns 2 and 7; also 3 from ...".
                "So every cell that sees all their places loses it: take out {removals}."
            ).format(removals=removals_text(removed)),
            "notation": [
                f"{_noted('A', a)}, {_noted('B', b)}, {_noted('C', c)}, X={x}, Y={y}, "
                f"Z={''.join(map(str, zs))} => " + _removals_noted(removed)
            ],
        }

    return step(
        "als_xy_wing",
        eliminations=removed,
        cells=sorted(a.cells + b.cells + c.cells),
        units=[c.unit, a.unit, b.unit],
        tell=tell,
    )
