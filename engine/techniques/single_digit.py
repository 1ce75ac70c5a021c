"""Single-digit patterns built from strong links: skyscraper, two-string kite, colouring."""

from __future__ import annotations

from ..board import Board, Step
from ..grid import BIT, BOX_OF, PEER_BITS, unit_name
from ..wording import cells_text, place, removals_text
from .table import step


def _links(board: Board, digit: int, units: range) -> list[tuple[int, int, int]]:
    """(unit, cell, cell) for every unit where digit has exactly two places."""
    links = []
    for unit in units:
        cells = board.cells_with(digit, unit)
        if len(cells) == 2:
            links.append((unit, *cells))
    return links


def skyscraper(board: Board) -> Step | None:
    """Two parallel strong links with one end on a shared line: one of the other ends is true."""
    for digit in range(1, 10):
        for units, other in ((range(9), lambda c: c % 9), (range(9, 18), lambda c: c // 9)):
            links = _links(board, digit, units)
            for i, first in enumerate(links):
                for second in links[i + 1 :]:
                    (_, a1, a2), (_, b1, b2) = first, second
                    for base1, top1 in ((a1, a2), (a2, a1)):
                        for base2, top2 in ((b1, b2), (b2, b1)):
                            if other(base1) != other(base2) or other(top1) == other(top2):
                                continue
                            removed = board.seen_by_all((top1, top2), digit, {a1, a2, b1, b2})
                            if removed:
                                why = (
                                    f"{place(base1).capitalize()} and {place(base2)} share a "
                                    f"line, so at most one of them is {digit}"
                                )
                                ends = (top1, top2)
                                return _two_links_step(
                                    "skyscraper", digit, removed, first, second, ends, why
                                )
    return None


def two_string_kite(board: Board) -> Step | None:
    """A row link and a column link meeting in a box: one of their far ends is true."""
    for digit in range(1, 10):
        rows = _links(board, digit, range(9))
        cols = _links(board, digit, range(9, 18))
        for ru, r1, r2 in rows:
            for cu, c1, c2 in cols:
                if {r1, r2} & {c1, c2}:
                    continue
                for near_r, far_r in ((r1, r2), (r2, r1)):
                    for near_c, far_c in ((c1, c2), (c2, c1)):
                        if BOX_OF[near_r] != BOX_OF[near_c]:
                            continue
                        removed = board.seen_by_all((far_r, far_c), digit, {r1, r2, c1, c2})
                        if removed:
                            why = (
                                f"{place(near_r).capitalize()} and {place(near_c)} share box "
                                f"{BOX_OF[near_r] + 1}, so at most one is {digit}"
                            )
                            first, second, ends = (ru, r1, r2), (cu, c1, c2), (far_r, far_c)
                            return _two_links_step(
                                "two_string_kite", digit, removed, first, second, ends, why
                            )
    return None


def _two_links_step(
    name: str,
    digit: int,
    removed: list[tuple[int, int]],
    first: tuple[int, int, int],
    second: tuple[int, int, int],
    ends: tuple[int, int],
    why: str,
) -> Step:
    """The step of two strong links of a digit ((unit, cell, cell) each) of which one of the
    two far ends must hold the digit (`why` says how): the cells that see both lose it."""
    (u1, a1, a2), (u2, b1, b2) = first, second
    return step(
        name,
        eliminations=removed,
        cells=sorted({a1, a2, b1, b2}),
        units=[u1, u2],
        region=f"{unit_name(u1)} and {unit_name(u2)}",
        reason=f"In {unit_name(u1)}, {digit} goes in {cells_text([a1, a2])}; in "
        f"{unit_name(u2)}, in {cells_text([b1, b2])}. {why}: {place(ends[0])} or "
        f"{place(ends[1])} is {digit}.",
        result=f"So {digit} leaves every cell that sees both: take out {removals_text(removed)}.",
    )


def _clusters(board: Board, digit: int) -> list[dict[int, int]]:
    """Connected groups of the digit's strong links, each cell coloured 0 or 1."""
    neighbours: dict[int, set[int]] = {}
    for _, a, b in _links(board, digit, range(27)):
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    clusters, seen = [], set()
    for start in sorted(neighbours):
        if start in seen:
            continue
        colour = {start: 0}
        queue = [start]
        for cell in queue:
            for n in sorted(neighbours[cell]):
                if n not in colour:
                    colour[n] = 1 - colour[cell]
                    queue.append(n)
        seen |= colour.keys()
        if len(colour) > 2:
            clusters.append(colour)
    return clusters


def simple_colouring(board: Board) -> Step | None:
    """Colour a digit's chain of strong links: a colour that sees itself is false (wrap),
    and a cell that sees both colours loses the digit (trap)."""
    for digit in range(1, 10):
        bit = BIT[digit]
        for colour in _clusters(board, digit):
            groups = ([c for c in colour if colour[c] == 0], [c for c in colour if colour[c] == 1])
            cells = sorted(colour)
            for group in groups:
                clash = next(
                    ((a, b) for a in group for b in group if a < b and PEER_BITS[a] >> b & 1),
                    None,
                )
                if clash:
                    removed = [(c, digit) for c in sorted(group)]
                    return step(
                        "simple_colouring",
                        eliminations=removed,
                        cells=cells,
                        region=f"the places of {digit}",
                        reason=f"Colour the places of {digit} linked in pairs "
                        f"({cells_text(cells)}) in two colours: exactly one colour is {digit}. "
                        f"{place(clash[0]).capitalize()} and {place(clash[1])} have the same "
                        "colour and see each other, so that colour is wrong.",
                        result=f"So take out {removals_text(removed)}.",
                    )
            seen_by = [0, 0]
            for k, group in enumerate(groups):
                for c in group:
                    seen_by[k] |= PEER_BITS[c]
            both = seen_by[0] & seen_by[1]
            removed = [
                (c, digit)
                for c in range(81)
                if both >> c & 1 and board.cands[c] & bit and c not in colour
            ]
            if removed:
                return step(
                    "simple_colouring",
                    eliminations=removed,
                    cells=cells,
                    region=f"the places of {digit}",
                    reason=f"Colour the places of {digit} linked in pairs "
                    f"({cells_text(cells)}) in two colours: exactly one colour is {digit}. "
                    f"A cell that sees both colours cannot be {digit}.",
                    result=f"So take out {removals_text(removed)}.",
                )
    return None
