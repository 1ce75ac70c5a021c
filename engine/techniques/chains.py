"""Alternating inference chains: X-chains (one digit), XY-chains (two-candidate cells), AICs.

A node is a candidate, cell * 9 + digit - 1. A strong link (the only two places of a digit
in a unit, or the only two digits of a cell) means "if one is false the other is true"; a
weak link (same cell, or same digit in cells that see each other) means "if one is true the
other is false". Starting from "s is false" and alternating strong and weak links, every
node reached through a strong link is true. So s or that node is true, and any candidate
weakly linked to both is false. Breadth-first search over bitsets finds the shortest chains.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..board import Board, Step
from ..grid import BIT, DIGITS_OF, PEERS
from ..wording import _COMPACT, place, removals_text
from .table import entry_of, step


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def _node_name(n: int) -> str:
    """5r3c4, or for people (5 in row 3, column 4)."""
    if _COMPACT.get():
        return f"{n % 9 + 1}{place(n // 9)}"
    return f"({n % 9 + 1} in {place(n // 9)})"


@dataclass
class _Graph:
    strong: dict[int, int]
    weak: dict[int, int]  # the links the chain may walk
    sees: dict[int, int]  # every weak link, for conclusions


def _all_weak(board: Board) -> dict[int, int]:
    return board.derived("weak links", _weak_links)


def _weak_links(board: Board) -> dict[int, int]:
    cands = board.cands
    sees = {}
    for cell in range(81):
        m = cands[cell]
        for d in DIGITS_OF[m]:
            n = cell * 9 + d - 1
            links = 0
            for e in DIGITS_OF[m & ~BIT[d]]:
                links |= 1 << (cell * 9 + e - 1)
            for p in PEERS[cell]:
                if cands[p] & BIT[d]:
                    links |= 1 << (p * 9 + d - 1)
            sees[n] = links
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


def _conclusion(graph: _Graph, start: int, end: int) -> list[tuple[int, int]]:
    """Candidates that see both ends of a chain (start false -> end true)."""
    if end == start:
        return []
    both = graph.sees[start] & graph.sees.get(end, 0) & ~(1 << start | 1 << end)
    return [(n // 9, n % 9 + 1) for n in _bits(both)]


def _shortest(graph: _Graph) -> _Found | None:
    """The shortest chain, over every start, whose two ends eliminate something."""
    best: _Found | None = None
    for start in sorted(graph.strong):
        true, false, frontier, length = 0, 1 << start, 1 << start, 0
        while frontier and (best is None or length + 1 < best.length):
            length += 1
            reached = 0
            for f in _bits(frontier):
                reached |= graph.strong.get(f, 0)
            reached &= ~true
            true |= reached
            for end in _bits(reached):
                removed = _conclusion(graph, start, end)
                if removed:
                    best = _Found(length, start, end, sorted(removed))
                    break
            if best is not None and best.length == length:
                break
            frontier = 0
            for t in _bits(reached):
                frontier |= graph.weak.get(t, 0)
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


def _step(graph: _Graph, finder: str, found: _Found) -> Step:
    # A chain of n strong links has 2n nodes, each strong link's two ends.
    rating = chain_rating(entry_of(finder).rating, 2 * found.length)
    path = _path(graph, found.start, found.end)
    links = [_node_name(path[0])]
    for i, n in enumerate(path[1:]):
        links.append(("= " if i % 2 == 0 else "- ") + _node_name(n))
    chain = " ".join(links)
    first, last = path[0], path[-1]
    return step(
        finder,
        rating=rating,
        eliminations=found.eliminations,
        cells=sorted({n // 9 for n in path}),
        area=sorted({first // 9, last // 9}),
        region=f"the chain from {place(first // 9)} to {place(last // 9)}",
        reason=f"Follow the chain {chain} ('=' means at least one is true, '-' at most one). "
        f"If {first % 9 + 1} is not in {place(first // 9)}, the links force {last % 9 + 1} "
        f"into {place(last // 9)}: one of the two is true.",
        result="So any candidate that sees both is false: "
        f"take out {removals_text(found.eliminations)}.",
    )


def _within(links: dict[int, int], keep: int) -> dict[int, int]:
    """The links among the nodes of keep only."""
    return {n: v & keep for n, v in links.items() if keep >> n & 1}


def x_chain(board: Board) -> Step | None:
    """An alternating chain on one digit's strong links."""
    sees = _all_weak(board)
    best = None
    for d in range(1, 10):
        keep = sum(1 << n for n in sees if n % 9 == d - 1)
        graph = _Graph(_bilocal_links(board, (d,)), _within(sees, keep), sees)
        found = _shortest(graph)
        if found and (best is None or found.length < best[1].length):
            best = (graph, found)
    return _step(best[0], "x_chain", best[1]) if best else None


def xy_chain(board: Board) -> Step | None:
    """A chain through two-candidate cells that starts and ends on the same digit."""
    sees = _all_weak(board)
    strong = _bivalue_links(board)
    keep = sum(1 << n for n in strong)
    same_digit = {n: sum(1 << m for m in _bits(v) if m % 9 == n % 9) for n, v in sees.items()}
    graph = _Graph(strong, _within(sees, keep), same_digit)
    found = _shortest(graph)
    return _step(graph, "xy_chain", found) if found else None


def alternating_inference_chain(board: Board) -> Step | None:
    """A chain mixing both kinds of strong link, on any digits."""
    sees = _all_weak(board)
    strong = _merge(_bilocal_links(board, tuple(range(1, 10))), _bivalue_links(board))
    graph = _Graph(strong, sees, sees)
    found = _shortest(graph)
    return _step(graph, "alternating_inference_chain", found) if found else None
