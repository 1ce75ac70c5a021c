"""Alternating inference chains: X-chains (one digit), XY-chains (two-candidate cells), AICs.

A node is a candidate, cell * 9 + digit - 1. A strong link (the only two places of a digit
in a unit, or the only two digits of a cell) means "if one is false the other is true"; a
weak link (same cell, or same digit in cells that see each other) means "if one is true the
other is false". Starting from "s is false" and alternating strong and weak links, every
node reached through a strong link is true. So s or that node is true, and any candidate
weakly linked to both is false. Breadth-first search over bitsets finds the shortest chains.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from ..board import Board, Link, Step
from ..grid import BIT, DIGITS_OF, PEERS, UNITS, UNITS_OF, unit_name
from ..i18n import N_, _
from ..wording import is_compact, place, removals_text
from .kept import Kept
from .table import entry_of, step


def _bits(x: int) -> list[int]:
    found = []
    while x:
        low = x & -x
        found.append(low.bit_length() - 1)
        x ^= low
    return found


@dataclass
class _Graph:
    strong: dict[int, int]
    weak: dict[int, int]  # the links the chain may walk
    sees: dict[int, int]  # every weak link, for conclusions


def _all_weak(board: Board) -> dict[int, int]:
    return board.derived("weak links", _weak_links)


# Nodes as bits: per cell and digit - 1, the digit's nodes in the cell's peers.
_PEER_NODES = tuple(
    tuple(sum(1 << (p * 9 + e) for p in PEERS[cell]) for e in range(9)) for cell in range(81)
)
# Per digit - 1, its nodes in every cell.
_DIGIT_NODES = tuple(sum(1 << (cell * 9 + e) for cell in range(81)) for e in range(9))


def _weak_links(board: Board) -> dict[int, int]:
    cands = board.cands
    present = 0  # every candidate, as nodes
    for cell, m in enumerate(cands):
        present |= m << (cell * 9)
    sees = {}
    for cell in range(81):
        m = cands[cell]
        if not m:
            continue
        same = m << (cell * 9)
        peers = _PEER_NODES[cell]
        for d in DIGITS_OF[m]:
            n = cell * 9 + d - 1
            sees[n] = same & ~(1 << n) | peers[d - 1] & present
    return sees


def _bilocal_links(board: Board, digits: tuple[int, ...]) -> dict[int, int]:
    strong: dict[int, int] = {}
    places = board.places()
    for d in digits:
        for unit in range(27):
            cells = places[unit][d]
            if len(cells) == 2:
                a, b = (c * 9 + d - 1 for c in cells)
                strong[a] = strong.get(a, 0) | 1 << b
                strong[b] = strong.get(b, 0) | 1 << a
    return strong


def _bivalue_links(board: Board) -> dict[int, int]:
    strong: dict[int, int] = {}
    for cell in range(81):
        digits = DIGITS_OF[board.cands[cell]]
        if len(digits) == 2:
            a, b = (cell * 9 + d - 1 for d in digits)
            strong[a] = strong.get(a, 0) | 1 << b
            strong[b] = strong.get(b, 0) | 1 << a
    return strong


def _merge(*maps: dict[int, int]) -> dict[int, int]:
    merged: dict[int, int] = {}
    for m in maps:
        for k, v in m.items():
            merged[k] = merged.get(k, 0) | v
    return merged


@dataclass
class _Found:
    length: int
    start: int
    end: int
    eliminations: list[tuple[int, int]]


def _shortest(graph: _Graph) -> _Found | None:
    """The shortest chain, over every start, whose two ends eliminate something."""
    best: _Found | None = None
    strong, weak, sees = graph.strong, graph.weak, graph.sees
    for start in sorted(strong):
        # What the ends eliminate sees both: a start that sees nothing concludes nothing,
        # and an end concludes something only if it sees what the start sees (links are
        # mutual: an end sees x when x sees the end).
        start_sees = sees[start] & ~(1 << start)
        if not start_sees:
            continue
        near = 0
        for x in _bits(start_sees):
            near |= sees.get(x, 0)
        true, false, frontier, length = 0, 1 << start, 1 << start, 0
        while frontier and (best is None or length + 1 < best.length):
            length += 1
            reached = 0
            for f in _bits(frontier):
                reached |= strong.get(f, 0)
            reached &= ~true
            true |= reached
            for end in _bits(reached & near):
                if end == start:
                    continue
                both = start_sees & sees.get(end, 0) & ~(1 << end)
                if both:
                    removed = [(n // 9, n % 9 + 1) for n in _bits(both)]
                    best = _Found(length, start, end, removed)
                    break
            if best is not None and best.length == length:
                break
            frontier = 0
            for t in _bits(reached):
                frontier |= weak.get(t, 0)
            frontier &= ~false
            false |= frontier
    return best


def _path(graph: _Graph, start: int, end: int) -> list[int]:
    """The nodes of a shortest chain from start (false) to end (true), alternating links."""
    parent = {(start, False): None}
    frontier = [(start, False)]
    while frontier:
        following = []
        for node, is_true in frontier:
            links = graph.weak.get(node, 0) if is_true else graph.strong.get(node, 0)
            for n in _bits(links):
                key = (n, not is_true)
                if key not in parent:
                    parent[key] = (node, is_true)
                    following.append(key)
                    if key == (end, True):
                        path, at = [], key
                        while at is not None:
                            path.append(at[0])
                            at = parent[at]
                        return path[::-1]
        frontier = following
    raise AssertionError("chain end not reachable")  # _shortest found it, so it is


def length_increment(nodes: int) -> float:
    """What Sudoku Explainer adds to a chain's rating for its length: nothing up to 4 nodes,
    then 0.1 more past each of 4, 6, 8, 12, 16, 24, 32, 48... nodes (ChainingHint's
    getLengthDifficulty, whose length is the chain's nodes between the assumption and its
    end)."""
    added, ceiling, odd = 0.0, 4, False
    while nodes > ceiling:
        added += 0.1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added


def chain_rating(base: float, nodes: int) -> float:
    """A chain's rating: its technique's, and what its length adds."""
    return round(base + length_increment(nodes), 1)


def eureka(n: int) -> str:
    """A node in Eureka notation, as HoDoKu and sudokuwiki print it: (5)r3c4."""
    cell = n // 9
    return f"({n % 9 + 1})r{cell // 9 + 1}c{cell % 9 + 1}"


def _node_name(n: int) -> str:
    """A node in a chain said in words: (5 in row 3, column 4), or compact: (5)r3c4."""
    return eureka(n) if is_compact() else f"({_said(n)})"


def _said(n: int) -> str:
    """A node for people: 5 in row 3, column 4."""
    # Translators: a candidate, a digit in a cell: "5 in row 3, column 4".
    return _("{digit} in {place}").format(digit=n % 9 + 1, place=place(n // 9))


def _link_said(cands: list[int], a: int, b: int, strong: bool) -> str:
    """One link of an alternating chain, a true or false, in a sentence."""
    ca, cb, da, db = a // 9, b // 9, a % 9 + 1, b % 9 + 1
    first, then = _said(a), _said(b)
    if strong:
        if ca == cb:
            return _(
                # Translators: a strong link of a chain. {first} and {then} are candidates
                # ("5 in row 3, column 4"), {place} their cell, {digit} and {other} its two
                # candidates.
                "If {first} is false, {then} is true: {place} has only {digit} and {other} left."
            ).format(first=first, then=then, place=place(ca), digit=da, other=db)
        unit = next(
            (u for u in UNITS_OF[ca] if cb in UNITS[u] and _places(cands, u, da) == 2),
            next(u for u in UNITS_OF[ca] if cb in UNITS[u]),
        )
        return _(
            # Translators: a strong link of a chain. {first} and {then} are candidates
            # ("5 in row 3, column 4"), {unit} a row, column or box ("box 2").
            "If {first} is false, {then} is true: these are the only two places for {digit} "
            "in {unit}."
        ).format(first=first, then=then, digit=da, unit=unit_name(unit))
    if ca == cb:
        # Translators: a weak link of a chain. {first} and {then} are candidates of one
        # cell ("5 in row 3, column 4").
        return _("If {first} is true, {then} is false: a cell holds one digit.").format(
            first=first, then=then
        )
    unit = next(u for u in UNITS_OF[ca] if cb in UNITS[u])
    # Translators: a weak link of a chain. {first} and {then} are candidates ("5 in row 3,
    # column 4"), {unit} a row, column or box ("box 2") that holds both.
    return _("If {first} is true, {then} is false: both are in {unit}.").format(
        first=first, then=then, unit=unit_name(unit)
    )


def _places(cands: list[int], unit: int, digit: int) -> int:
    return sum(1 for c in UNITS[unit] if cands[c] & BIT[digit])


def _step(finder: str, found: _Found, path: list[int], board: Board) -> Step:
    """The step of a chain found, whose nodes are path; its words, each link told, only
    when the step is told."""
    # A chain of n strong links has 2n nodes, each strong link's two ends.
    rating = chain_rating(entry_of(finder).rating, 2 * found.length)
    first, last = path[0], path[-1]
    cands = list(board.cands)

    def told() -> dict:
        notation = [eureka(path[0])]
        named = [_node_name(path[0])]
        # Translators: {candidate} is a digit in a cell, "5 in row 3, column 4".
        words = [_("Suppose {candidate} is false.").format(candidate=_said(first))]
        links: list[Link] = []
        for i, (a, b) in enumerate(pairwise(path)):
            strong = i % 2 == 0  # from a false node a strong link, from a true one a weak
            notation.append(("= " if strong else "- ") + eureka(b))
            named.append(("= " if strong else "- ") + _node_name(b))
            words.append(_link_said(cands, a, b, strong))
            links.append((a // 9, a % 9 + 1, b // 9, b % 9 + 1, "strong" if strong else "weak"))
        chain = " ".join(named)
        return {
            # Where to look names neither end: the cells that see both are what changes.
            "region": _(_LOOK[finder]).format(digit=first % 9 + 1),
            "area": list(range(81)),
            "reason": _(
                # Translators: {chain} is the chain in notation, "(5)r3c4 = (5)r3c8 - ...",
                # or in words, "(5 in row 3, column 4) = (5 in row 3, column 8) - ...". The
                # chain starts at {digit} in {place} and ends at {end_digit} in {end_place}.
                "Follow the chain {chain} ('=' means at least one is true, '-' at most one). "
                "If {digit} is not in {place}, the links force {end_digit} into {end_place}: "
                "one of the two is true."
            ).format(
                chain=chain,
                digit=first % 9 + 1,
                place=place(first // 9),
                end_digit=last % 9 + 1,
                end_place=place(last // 9),
            ),
            # Translators: {removals} is "5 from row 1, columns 2 and 7; also 3 from ...".
            "result": _("So any candidate that sees both is false: take out {removals}.").format(
                removals=removals_text(found.eliminations)
            ),
            "chain": [
                *words,
                # Translators: {first} and {last} are candidates, "5 in row 3, column 4".
                _("So {first} or {last} is true.").format(first=_said(first), last=_said(last)),
            ],
            "notation": [" ".join(notation)],
            "on": [(n // 9, n % 9 + 1) for n in path[1::2]],
            "off": [(n // 9, n % 9 + 1) for n in path[0::2]],
            "links": links,
        }

    return step(
        finder,
        rating=rating,
        eliminations=list(found.eliminations),
        cells=sorted({n // 9 for n in path}),
        tell=told,
    )


# A chain's hint at its first level: the technique, and for one digit's chain that digit.
# Said with _() when a step is told.
_LOOK = {
    # Translators: where to look for an X-chain, a chain on one digit.
    "x_chain": N_("the places of {digit}"),
    "xy_chain": N_("the cells with two candidates"),
    "alternating_inference_chain": N_("the whole grid"),
}


def _within(links: dict[int, int], keep: int) -> dict[int, int]:
    """The links among the nodes of keep only."""
    return {n: v & keep for n, v in links.items() if keep >> n & 1}


# An X-chain depends only on its digit's places: what the places of a digit yield is kept
# for every position that has them.
_X_CHAINS: Kept[tuple[_Found, list[int]] | None] = Kept(4096)


def x_chain(board: Board) -> Step | None:
    """An alternating chain on one digit's strong links."""
    on = board.digit_cells()
    best = None
    for d in range(1, 10):
        chain = _X_CHAINS.get((d, on[d]), _x_chain_of, board, d)
        if chain and (best is None or chain[0].length < best[0].length):
            best = chain
    return _step("x_chain", *best, board) if best else None


def _x_chain_of(board: Board, d: int) -> tuple[_Found, list[int]] | None:
    """The shortest X-chain of the digit, and its nodes."""
    sees = _all_weak(board)
    keep = 0
    for n in sees:
        if n % 9 == d - 1:
            keep |= 1 << n
    graph = _Graph(_bilocal_links(board, (d,)), _within(sees, keep), sees)
    found = _shortest(graph)
    return (found, _path(graph, found.start, found.end)) if found else None


def xy_chain(board: Board) -> Step | None:
    """A chain through two-candidate cells that starts and ends on the same digit."""
    sees = _all_weak(board)
    strong = _bivalue_links(board)
    keep = sum(1 << n for n in strong)
    same_digit = {n: v & _DIGIT_NODES[n % 9] for n, v in sees.items()}
    graph = _Graph(strong, _within(sees, keep), same_digit)
    found = _shortest(graph)
    if not found:
        return None
    return _step("xy_chain", found, _path(graph, found.start, found.end), board)


def alternating_inference_chain(board: Board) -> Step | None:
    """A chain mixing both kinds of strong link, on any digits."""
    sees = _all_weak(board)
    strong = _merge(_bilocal_links(board, tuple(range(1, 10))), _bivalue_links(board))
    graph = _Graph(strong, sees, sees)
    found = _shortest(graph)
    if not found:
        return None
    return _step("alternating_inference_chain", found, _path(graph, found.start, found.end), board)
