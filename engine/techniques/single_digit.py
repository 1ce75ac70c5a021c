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
            for i, (u1, a1, a2) in enumerate(links):
                for u2, b1, b2 in links[i + 1 :]:
                    for base1, top1 in ((a1, a2), (a2, a1)):
                        for base2, top2 in ((b1, b2), (b2, b1)):
                            if other(base1) != other(base2) or other(top1) == other(top2):
                                continue
                            pattern = {a1, a2, b1, b2}
                            removed = board.seen_by_all((top1, top2), digit, pattern)
                            if removed:
                                return step(
                                    "skyscraper",
                                    eliminations=removed,
                                    cells=sorted(pattern),
                                    units=[u1, u2],
                                    region=f"{unit_name(u1)} and {unit_name(u2)}",
                                    reason=f"In {unit_name(u1)}, {digit} goes in "
                                    f"{cells_text([a1, a2])}; in {unit_name(u2)}, in "
                                    f"{cells_text([b1, b2])}. {place(base1).capitalize()} and "
                                    f"{place(base2)} share a line, so at most one of them is "
                                    f"{digit}: {place(top1)} or {place(top2)} is {digit}.",
                                    result=f"So {digit} leaves every cell that sees both: "
                                    f"take out {removals_text(removed)}.",
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
                        pattern = {r1, r2, c1, c2}
                        removed = board.seen_by_all((far_r, far_c), digit, pattern)
                        if removed:
                            return step(
                                "two_string_kite",
                                eliminations=removed,
                                cells=sorted(pattern),
                                units=[ru, cu],
                                region=f"{unit_name(ru)} and {unit_name(cu)}",
                                reason=f"In {unit_name(ru)}, {digit} goes in "
                                f"{cells_text([r1, r2])}; in {unit_name(cu)}, in "
                                f"{cells_text([c1, c2])}. {place(near_r).capitalize()} and "
                                f"{place(near_c)} share box {BOX_OF[near_r] + 1}, so at most "
                                f"one is {digit}: {place(far_r)} or {place(far_c)} is {digit}.",
                                result=f"So {digit} leaves every cell that sees both: "
                                f"take out {removals_text(removed)}.",
                            )
    return None


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
