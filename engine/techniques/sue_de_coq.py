"""Sue de Coq: where a box meets a row or column, two or three cells share their digits with
cells of the line and of the box.

The meeting cells hold V, at least two digits more than they have cells. Take cells of the
rest of the line whose digits L and cells of the rest of the box whose digits B have none in
common, so that the meeting cells and those cells hold exactly as many digits as they have
cells: each digit is then in exactly one of them. The digits of L, and those of V in neither
L nor B, are on the line there, so the rest of the line loses them; the digits of B, and
those of V in neither, leave the rest of the box likewise.
"""

from __future__ import annotations

from itertools import combinations

from ..board import Board, Step
from ..grid import BOX_OF, DIGITS_OF, POPCOUNT, UNITS, unit_name
from ..i18n import _, ngettext
from ..wording import cells_in, cells_text, digits_text, removals_text
from .kept import Kept
from .table import step


def _groups(cells: list[int], cands: list[int], most: int) -> list[tuple[tuple[int, ...], int]]:
    """Sets of up to `most` cells, with their digits between them."""
    groups = []
    for size in range(1, most + 1):
        for group in combinations(cells, size):
            mask = 0
            for c in group:
                mask |= cands[c]
            groups.append((group, mask))
    return groups


# The cells of a line and a box that meet, by (line, box).
_AREA = {
    (line, box): tuple(sorted(set(UNITS[line]) | set(UNITS[box])))
    for line in range(18)
    for box in {18 + BOX_OF[c] for c in UNITS[line]}
}

# What a line and a box yield depends only on their cells' candidates: found once for
# every position that has them.
_MEETINGS: Kept[tuple | None] = Kept(16384)


def sue_de_coq(board: Board) -> Step | None:
    """Two or three cells where a box meets a line, with cells of each that use up their
    digits between them."""
    cands = board.cands
    for line in range(18):
        for box in {18 + BOX_OF[c] for c in UNITS[line]}:
            key = (line, box, tuple([cands[c] for c in _AREA[line, box]]))
            found = _MEETINGS.get(key, _meeting, cands, line, box)
            if found:
                core, v, lg, lm, bg, bm, removed = found
                return _step(line, box, core, v, lg, lm, bg, bm, list(removed))
    return None


def _meeting(cands: list[int], line: int, box: int) -> tuple | None:
    """The first Sue de Coq where the line meets the box, as _step's arguments after those
    two."""
    meet = [c for c in UNITS[line] if c in UNITS[box] and cands[c]]
    line_rest = [c for c in UNITS[line] if c not in UNITS[box] and cands[c]]
    box_rest = [c for c in UNITS[box] if c not in UNITS[line] and cands[c]]
    for size in (2, 3):
        for core in combinations(meet, size):
            v = 0
            for c in core:
                v |= cands[c]
            if POPCOUNT[v] < size + 2:
                continue
            found = _around(cands, core, v, line_rest, box_rest)
            if found:
                return found
    return None


def _around(
    cands: list[int],
    core: tuple[int, ...],
    v: int,
    line_rest: list[int],
    box_rest: list[int],
) -> tuple | None:
    spare = POPCOUNT[v] - len(core)  # cells the line and box parts must fill between them
    line_cells = [c for c in line_rest if cands[c] & v and POPCOUNT[cands[c]] <= spare + 1]
    box_cells = [c for c in box_rest if cands[c] & v and POPCOUNT[cands[c]] <= spare + 1]
    box_groups = _groups(box_cells, cands, spare - 1)
    for lg, lm in _groups(line_cells, cands, spare - 1):
        for bg, bm in box_groups:
            if lm & bm:  # their cells never meet (off the box, off the line): digits may not
                continue
            every = v | lm | bm
            if POPCOUNT[every] != len(core) + len(lg) + len(bg):
                continue
            on_line = (v | lm) & ~bm
            in_box = (v | bm) & ~lm
            removed = sorted(
                {(c, d) for c in line_rest if c not in lg for d in DIGITS_OF[cands[c] & on_line]}
                | {(c, d) for c in box_rest if c not in bg for d in DIGITS_OF[cands[c] & in_box]}
            )
            if removed:
                return core, v, lg, lm, bg, bm, removed
    return None


def _step(
    line: int,
    box: int,
    core: tuple[int, ...],
    v: int,
    lg: tuple[int, ...],
    lm: int,
    bg: tuple[int, ...],
    bm: int,
    removed: list[tuple[int, int]],
) -> Step:
    cells = sorted(core + lg + bg)

    def tell() -> dict:
        return {
            # Translators: {line} is a row or column, like 'row 3'; {box} like 'box 2'.
            "region": _("{line} and {box}").format(line=unit_name(line), box=unit_name(box)),
            "cause": cells,
            # Translators: {line} is a row or column, like 'row 3'; {box} like 'box 2';
            # {cells} the meeting cells named within the line, like 'columns 4 and 5';
            # {digits} like '3, 5 and 7'.
            "reason": _("Where {line} meets {box}, its {cells} hold {digits}.").format(
                line=unit_name(line),
                box=unit_name(box),
                cells=cells_in(line, core),
                digits=digits_text(DIGITS_OF[v]),
            )
            + " "
            + ngettext(
                # Translators: {line_cells} are places named within the line, like 'columns 1
                # and 8'; {box_cells} places like 'row 2, column 5'; {line_digits} and
                # {box_digits} their digits, like '3 and 7'; {n} counts the cells.
                "With {line_cells} of the line ({line_digits}) and {box_cells} of the box "
                "({box_digits}), which share no digit, these {n} cell hold exactly {n} digit: "
                "each is in one of them.",
                "With {line_cells} of the line ({line_digits}) and {box_cells} of the box "
                "({box_digits}), which share no digit, these {n} cells hold exactly {n} "
                "digits: each is in one of them.",
                len(cells),
            ).format(
                line_cells=cells_in(line, lg),
                line_digits=digits_text(DIGITS_OF[lm]),
                box_cells=cells_text(bg),
                box_digits=digits_text(DIGITS_OF[bm]),
                n=len(cells),
            )
            + " "
            + _(
                "So the line's part holds its digits for the line, and the box's part for the box."
            ),
            "result": _(
                # Translators: {removals} is a list like '5 from row 1, columns 2 and 7'.
                "So the rest of the line and of the box lose them: take out {removals}."
            ).format(removals=removals_text(removed)),
        }

    return step(
        "sue_de_coq",
        eliminations=removed,
        cells=cells,
        units=[line, box],
        tell=tell,
    )
