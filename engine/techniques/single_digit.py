"""Single-digit patterns built from strong links: skyscraper, two-string kite, colouring."""

from __future__ import annotations

from ..board import Board, Step
from ..grid import BIT, BOX_OF, PEER_BITS, unit_name
from ..i18n import _
from ..wording import cells_in, cells_text, place, removals_text, sentence
from .kept import Kept
from .table import step


def _links(board: Board, digit: int, units: range) -> list[tuple[int, int, int]]:
    """(unit, cell, cell) for every unit where digit has exactly two places."""
    links = []
    places = board.places()
    for unit in units:
        cells = places[unit][digit]
        if len(cells) == 2:
            links.append((unit, *cells))
    return links


# These patterns depend only on their digit's places: each digit's search is kept for
# every position that has the same places.
_SKYSCRAPERS: Kept[tuple | None] = Kept(4096)
_KITES: Kept[tuple | None] = Kept(4096)
_COLOURINGS: Kept[tuple | None] = Kept(4096)


def skyscraper(board: Board) -> Step | None:
    """Two parallel strong links with one end on a shared line: one of the other ends is true."""
    on = board.digit_cells()
    for digit in range(1, 10):
        found = _SKYSCRAPERS.get((digit, on[digit]), _skyscraper_of, board, digit)
        if found:
            removed, first, second, base1, base2, ends = found
            why = _(
                # Translators: {base}, {other_base}, {end} and {other_end} are places like
                # 'row 2, column 5'.
                "{base} and {other_base} share a line, so at most one of them is {digit}: "
                "{end} or {other_end} is {digit}."
            ).format(
                base=place(base1),
                other_base=place(base2),
                digit=digit,
                end=place(ends[0]),
                other_end=place(ends[1]),
            )
            return _two_links_step("skyscraper", digit, list(removed), first, second, why)
    return None


def _skyscraper_of(board: Board, digit: int) -> tuple | None:
    """The digit's first skyscraper: (removed, the two links, their bases, their tops)."""
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
                            return removed, first, second, base1, base2, (top1, top2)
    return None


def two_string_kite(board: Board) -> Step | None:
    """A row link and a column link meeting in a box: one of their far ends is true."""
    on = board.digit_cells()
    for digit in range(1, 10):
        found = _KITES.get((digit, on[digit]), _kite_of, board, digit)
        if found:
            removed, first, second, near_r, near_c, ends = found
            why = _(
                # Translators: {near}, {other_near}, {end} and {other_end} are places like
                # 'row 2, column 5'; {box} is a box's number.
                "{near} and {other_near} share box {box}, so at most one is {digit}: {end} or "
                "{other_end} is {digit}."
            ).format(
                near=place(near_r),
                other_near=place(near_c),
                box=BOX_OF[near_r] + 1,
                digit=digit,
                end=place(ends[0]),
                other_end=place(ends[1]),
            )
            return _two_links_step("two_string_kite", digit, list(removed), first, second, why)
    return None


def _kite_of(board: Board, digit: int) -> tuple | None:
    """The digit's first two-string kite: (removed, the row's link, the column's, their near
    ends, their far ends)."""
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
                        first, second = (ru, r1, r2), (cu, c1, c2)
                        return removed, first, second, near_r, near_c, (far_r, far_c)
    return None


def _two_links_step(
    name: str,
    digit: int,
    removed: list[tuple[int, int]],
    first: tuple[int, int, int],
    second: tuple[int, int, int],
    why: str,
) -> Step:
    """The step of two strong links of a digit ((unit, cell, cell) each) of which one of the
    two far ends must hold the digit (the sentence `why` says how and which): the cells that
    see both lose it."""
    (u1, a1, a2), (u2, b1, b2) = first, second
    return step(
        name,
        eliminations=removed,
        cells=sorted({a1, a2, b1, b2}),
        units=[u1, u2],
        # Translators: {unit} and {other_unit} are rows, columns or boxes, like 'row 3'.
        region=_("{unit} and {other_unit}").format(unit=unit_name(u1), other_unit=unit_name(u2)),
        reason=_(
            # Translators: {unit} and {other_unit} are rows, columns or boxes, like 'row 3';
            # {cells} and {other_cells} two places in each, like 'columns 2 and 7'.
            "In {unit}, {digit} goes only in {cells}; in {other_unit}, only in {other_cells}."
        ).format(
            unit=unit_name(u1),
            digit=digit,
            cells=cells_in(u1, [a1, a2]),
            other_unit=unit_name(u2),
            other_cells=cells_in(u2, [b1, b2]),
        )
        + " "
        + sentence(why),
        # Translators: {removals} is a list like '5 from row 1, columns 2 and 7'.
        result=_("So {digit} leaves every cell that sees both: take out {removals}.").format(
            digit=digit, removals=removals_text(removed)
        ),
    )


def _clusters(board: Board, digit: int) -> list[dict[int, int]]:
    """Connected groups of the digit's strong links, each cell coloured 0 or 1."""
    neighbours: dict[int, set[int]] = {}
    for _unit, a, b in _links(board, digit, range(27)):
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
    on = board.digit_cells()
    for digit in range(1, 10):
        found = _COLOURINGS.get((digit, on[digit]), _colouring_of, board, digit)
        if found is None:
            continue
        return _colouring_step(board, digit, *found)
    return None


def _colouring_step(
    board: Board, digit: int, removed: list, cells: list[int], clash: tuple | None
) -> Step:
    """A colouring told, and drawn in its two colours: the one that may be true ringed
    (on), the other struck through (off), each strong link between them."""
    seen = Board(list(board.values), list(board.cands))  # told later, from this position

    def tell() -> dict:
        if clash:  # two cells of one colour see each other: that colour is wrong
            why = sentence(
                _(
                    # Translators: {place} and {other} are places like 'row 2, column 5'.
                    "{place} and {other} have the same colour and see each other, so that "
                    "colour is wrong."
                ).format(place=place(clash[0]), other=place(clash[1]))
            )
        else:  # cells that see both colours
            why = _("A cell that sees both colours cannot be {digit}.").format(digit=digit)
        colour = next(c for c in _clusters(seen, digit) if sorted(c) == cells)
        wrong = colour[clash[0]] if clash else 1
        return {
            "region": _("the places of {digit}").format(digit=digit),
            "reason": _(
                # Translators: {cells} is a list of places like 'row 1, columns 2 and 5; row 3,
                # column 4'.
                "Colour the places of {digit} linked in pairs ({cells}) in two colours: "
                "exactly one colour is {digit}."
            ).format(digit=digit, cells=cells_text(cells))
            + " "
            + why
            + " "
            + _("On the board one colour is ringed, the other struck through."),
            # Translators: {removals} is a list like '5 from row 1, columns 2 and 7'.
            "result": _("So take out {removals}.").format(removals=removals_text(removed)),
            "on": [(c, digit) for c in cells if colour[c] != wrong],
            "off": [(c, digit) for c in cells if colour[c] == wrong],
            "links": [
                (a, digit, b, digit, "strong")
                for _unit, a, b in _links(seen, digit, range(27))
                if a in colour and b in colour
            ],
        }

    return step("simple_colouring", eliminations=list(removed), cells=list(cells), tell=tell)


def _colouring_of(board: Board, digit: int) -> tuple | None:
    """The digit's first colouring that removes something: (removed, the cells coloured,
    the two cells of one colour that see each other, or None when cells see both)."""
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
                return [(c, digit) for c in sorted(group)], cells, clash
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
            return removed, cells, None
    return None


def empty_rectangle(board: Board) -> Step | None:
    """A digit's places in a box on one row r and one column c of it (the rest of the box
    empty of it), and a line with two places of the digit, one on r (or c): if the far end
    is not the digit, the near one is, the box's digit is on c (or r), and the crossing of
    the far end's line with c (r) is not the digit; if it is, it sees that crossing too."""
    on = board.digit_cells()
    for digit in range(1, 10):
        found = _RECTANGLES.get((digit, on[digit]), _empty_rectangle_of, board, digit)
        if found:
            return _er_step(digit, *found)
    return None


# An empty rectangle depends only on its digit's places: found once for every position
# that has them.
_RECTANGLES: Kept[tuple | None] = Kept(4096)


def _empty_rectangle_of(board: Board, digit: int) -> tuple | None:
    """The first empty rectangle of the digit, as _er_step's arguments after the digit."""
    places = board.places()
    for box in range(9):
        cells = places[18 + box][digit]
        if len(cells) < 3:
            continue
        rows = {c // 9 for c in cells}
        cols = {c % 9 for c in cells}
        if len(rows) < 2 or len(cols) < 2:
            continue
        for r in sorted(rows):
            for c in sorted(cols):
                if any(x // 9 != r and x % 9 != c for x in cells):
                    continue
                found = _empty_rectangle_link(board, digit, box, r, c, cells)
                if found:
                    return found
    return None


def _empty_rectangle_link(
    board: Board, digit: int, box: int, r: int, c: int, cells: list[int]
) -> tuple | None:
    """The pair that completes the empty rectangle of box on row r and column c, as
    _er_step's arguments after the digit."""
    places = board.places()
    bit = BIT[digit]
    band, stack = box // 3, box % 3
    # A column outside the box's stack whose two places are one on row r: the other's row
    # meets column c. Then the same with rows and columns swapped.
    for line in range(9):
        if line // 3 != stack:
            pair = places[9 + line][digit]
            if len(pair) == 2:
                for near, far in (pair, pair[::-1]):
                    if near // 9 == r and far // 9 // 3 != band:
                        target = far // 9 * 9 + c
                        if board.cands[target] & bit:
                            return box, r, c, list(cells), 9 + line, near, far, target
        if line // 3 != band:
            pair = places[line][digit]
            if len(pair) == 2:
                for near, far in (pair, pair[::-1]):
                    if near % 9 == c and far % 9 // 3 != stack:
                        target = r * 9 + far % 9
                        if board.cands[target] & bit:
                            return box, r, c, list(cells), line, near, far, target
    return None


def _er_step(
    digit: int,
    box: int,
    r: int,
    c: int,
    cells: list[int],
    unit: int,
    near: int,
    far: int,
    target: int,
) -> Step:
    removed = [(target, digit)]
    on_row = unit >= 9  # the pair is in a column, its near end on row r

    def tell() -> dict:
        # Translators: a row of the grid, said within a sentence; {number} is its number.
        row = _("row {number}").format(number=r + 1)
        # Translators: a column of the grid, said within a sentence; {number} is its number.
        column = _("column {number}").format(number=c + 1)
        box_line, other_line = (row, column) if on_row else (column, row)
        return {
            # Translators: {box} is a box's number; {unit} a row or column, like 'row 3'.
            "region": _("box {box} and {unit}").format(box=box + 1, unit=unit_name(unit)),
            "cause": sorted({*cells, near, far}),
            "reason": _(
                # Translators: {box} is a box's number; {box_line} and {other_line} the row and
                # the column through the box, like 'row 2' and 'column 5' (either way round);
                # {cells} a list of places; {unit} a row or column, like 'column 8'; {pair} its
                # two places of {digit}, named within it, like 'rows 2 and 7'; {near} and {far}
                # those two places, like 'row 2, column 8'.
                "In box {box}, every cell that can still hold {digit} lies on {box_line} or on "
                "{other_line} ({cells}). In {unit}, {digit} can go only in {pair}. If {far} is "
                "not {digit}, {near} is: it rules {digit} out of {box_line} in box {box}, so the "
                "box's {digit} is on {other_line}. Either way, a cell that sees both {far} and "
                "the places of {digit} on {other_line} in box {box} cannot be {digit}."
            ).format(
                box=box + 1,
                digit=digit,
                box_line=box_line,
                other_line=other_line,
                cells=cells_text(cells),
                unit=unit_name(unit),
                pair=cells_in(unit, [near, far]),
                far=place(far),
                near=place(near),
            ),
            # Translators: {place} is a place like 'row 2, column 5'; {removals} a list like
            # '5 from row 2, column 5'.
            "result": _("So {place} is not {digit}: take out {removals}.").format(
                place=place(target), digit=digit, removals=removals_text(removed)
            ),
        }

    return step(
        "empty_rectangle",
        eliminations=removed,
        cells=sorted({*cells, near, far}),
        units=[18 + box, unit],
        tell=tell,
    )
