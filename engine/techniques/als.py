"""Almost locked sets: n cells of one unit that hold n + 1 digits between them.

Take one digit out of an almost locked set (ALS) and the rest is locked: its n cells hold the
other n digits. Two sets A and B are linked by a restricted common digit X when every place
of X in A sees every place of X in B: X is then in at most one of them, so one of the two is
locked without X. ALS-XZ: A and B also share Z; whichever set is locked holds its Z, so a
cell that sees every Z of both loses Z. ALS-XY-Wing: A and B are each linked to a third set
C, by X and Y; C cannot lose both, so A or B is locked and holds its Z.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ..board import Board, Step
from ..grid import BIT, DIGITS_OF, PEER_BITS, POPCOUNT, UNITS, unit_name
from ..wording import cells_text, digits_text, removals_text
from .table import step

# The largest sets looked at: bigger ones are rare in a solve and costly to pair.
MAX_CELLS = 4
EVERY_CELL = (1 << 81) - 1


@dataclass(frozen=True)
class _Set:
    unit: int
    cells: tuple[int, ...]
    mask: int  # the digits
    where: int  # the cells as a bitmask
    places: dict[int, int]  # digit -> the set's cells holding it, as a bitmask
    seen: dict[int, int]  # digit -> the cells that see every one of those places


def _sets(board: Board) -> list[_Set]:
    return board.derived("almost locked sets", _find_sets)


def _find_sets(board: Board) -> list[_Set]:
    cands = board.cands
    found: dict[int, _Set] = {}
    for unit in range(27):
        empty = [c for c in UNITS[unit] if cands[c]]
        for size in range(1, min(MAX_CELLS, len(empty) - 1) + 1):
            for group in combinations(empty, size):
                mask = 0
                for c in group:
                    mask |= cands[c]
                if POPCOUNT[mask] != size + 1:
                    continue
                where = sum(1 << c for c in group)
                if where in found:
                    continue
                places, seen = {}, {}
                for d in DIGITS_OF[mask]:
                    bit, at, sees = BIT[d], 0, EVERY_CELL
                    for c in group:
                        if cands[c] & bit:
                            at |= 1 << c
                            sees &= PEER_BITS[c]
                    places[d], seen[d] = at, sees
                found[where] = _Set(unit, group, mask, where, places, seen)
    return list(found.values())


def _digit_cells(board: Board) -> list[int]:
    """Per digit, the cells holding it as a candidate, as a bitmask."""
    masks = [0] * 10
    for c, m in enumerate(board.cands):
        for d in DIGITS_OF[m]:
            masks[d] |= 1 << c
    return masks


def _links(board: Board) -> list[list[tuple[int, int]]]:
    """Per set, by its index in _sets(): the sets it does not overlap that share a
    restricted common digit with it, as (their index, the digit), in that order."""
    return board.derived("restricted commons", _find_links)


def _find_links(board: Board) -> list[list[tuple[int, int]]]:
    sets = _sets(board)
    links: list[list[tuple[int, int]]] = [[] for _ in sets]
    for x in range(1, 10):
        holding = [(i, s) for i, s in enumerate(sets) if s.mask & BIT[x]]
        for (i, a), (j, b) in combinations(holding, 2):
            # Seeing is mutual: every X of A sees every X of B, and the other way round.
            if not a.where & b.where and not a.places[x] & ~b.seen[x]:
                links[i].append((j, x))
                links[j].append((i, x))
    for found in links:
        found.sort()
    return links


def _cells_of(mask: int) -> list[int]:
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
        removed += [(c, z) for c in _cells_of(targets)]
    return sorted(removed)


def _named(s: _Set) -> str:
    return f"{cells_text(s.cells)} ({digits_text(DIGITS_OF[s.mask])})"


def als_xz(board: Board) -> Step | None:
    """Two almost locked sets linked by a restricted common X: a cell seeing every Z of
    both loses Z."""
    sets = _sets(board)
    on = board.derived("digit cells", _digit_cells)
    for i, a in enumerate(sets):
        for j, x in _links(board)[i]:
            b = sets[j]
            if j < i or POPCOUNT[a.mask & b.mask] < 2:
                continue
            removed = _removed((a, b), a.where | b.where, a.mask & b.mask & ~BIT[x], on)
            if removed:
                return _xz_step(a, b, x, removed)
    return None


def _xz_step(a: _Set, b: _Set, x: int, removed: list[tuple[int, int]]) -> Step:
    zs = sorted({d for _, d in removed})

    def tell() -> dict:
        return {
            "region": f"{unit_name(a.unit)} and {unit_name(b.unit)}",
            "cause": sorted(a.cells + b.cells),
            "reason": f"{_named(a).capitalize()} and {_named(b)} each hold one digit more "
            f"than they have cells. Every {x} of one sees every {x} of the other, so at most "
            f"one of them holds {x}: the other holds all its other digits. Both have "
            + (
                f"{zs[0]}, so {zs[0]} is in one set or the other."
                if len(zs) == 1
                else f"{digits_text(zs)}, so each of those is in one set or the other."
            ),
            "result": f"So every cell that sees all their places loses it: "
            f"take out {removals_text(removed)}.",
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
    on = board.derived("digit cells", _digit_cells)
    for i, c in enumerate(sets):
        links = [(sets[j], x) for j, x in _links(board)[i]]
        for (a, x), (b, y) in combinations(links, 2):
            if x == y or a is b or a.where & b.where:
                continue
            digits = a.mask & b.mask & ~BIT[x] & ~BIT[y]
            if not digits:
                continue
            skip = a.where | b.where | c.where
            removed = _removed((a, b), skip, digits, on)
            if removed:
                return _xy_step(a, b, c, x, y, removed)
    return None


def _xy_step(a: _Set, b: _Set, c: _Set, x: int, y: int, removed: list) -> Step:
    zs = sorted({d for _, d in removed})

    def tell() -> dict:
        return {
            "region": f"{unit_name(c.unit)}",
            "cause": sorted(a.cells + b.cells + c.cells),
            "reason": f"{_named(c).capitalize()}, {_named(a)} and {_named(b)} each hold one "
            f"digit more than they have cells. The first is tied to the second by {x} (every "
            f"{x} of one sees every {x} of the other) and to the third by {y}. Take "
            + (f"{zs[0]}" if len(zs) == 1 else f"any of {digits_text(zs)}")
            + ": were it in neither of the last two, each would be locked on its other "
            f"digits: the second would hold {x}, the third {y}, and the first, without both, "
            "would be a digit short. So the second or the third holds it.",
            "result": f"So every cell that sees all their places loses it: "
            f"take out {removals_text(removed)}.",
        }

    return step(
        "als_xy_wing",
        eliminations=removed,
        cells=sorted(a.cells + b.cells + c.cells),
        units=[c.unit, a.unit, b.unit],
        tell=tell,
    )
