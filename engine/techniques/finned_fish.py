"""Finned and sashimi fish: a basic fish with a few extra places (the fins) in one box.

In n rows a digit goes only in n columns, apart from fins that all lie in one box. Either a
fin holds the digit, or the rows fill the n columns with it; a cell of those columns in the
fins' box, outside the rows, sees the fins and loses the digit either way. When a row keeps
one place or none in the columns without its fins, the fish is "sashimi".
"""

from __future__ import annotations

from functools import partial
from itertools import combinations

from ..board import Board, Step
from ..grid import BIT, BOX_OF, POPCOUNT
from ..i18n import _, ngettext
from ..wording import cells_text, join, removals_text
from .fish import cell_at, line_places
from .kept import Kept
from .table import step

FINNED = {2: "finned_x_wing", 3: "finned_swordfish", 4: "finned_jellyfish"}
SASHIMI = {2: "sashimi_x_wing", 3: "sashimi_swordfish", 4: "sashimi_jellyfish"}


BANDS = (0b111, 0b111000, 0b111000000)


def _bits(mask: int) -> list[int]:
    return [i for i in range(9) if mask >> i & 1]


def _base_sets(lines: list[tuple[int, int]], size: int) -> list[tuple[tuple[int, ...], int]]:
    """Sets of `size` base lines (as their indices in lines, in order) whose places lie in
    at most size + 2 cover lines, with those cover lines: a set that spreads wider is
    dropped as soon as it does."""
    limit = size + 2
    sets: list[tuple[tuple[int, ...], int]] = [((), 0)]
    for depth in range(size):
        last = len(lines) - (size - depth) + 1
        wider: list[tuple[tuple[int, ...], int]] = []
        for bases, union in sets:
            for i in range(bases[-1] + 1 if bases else 0, last):
                grown = union | lines[i][1]
                if POPCOUNT[grown] <= limit:
                    wider.append(((*bases, i), grown))
        sets = wider
    return sets


def _fin_choices(union: int, extra: int) -> list[tuple[int, int, int]]:
    """The ways to pick `extra` of the lines in union as fin lines, all in one band of
    three (the fins must share a box) and leaving a line of union in that band (a cover
    line through the fins' box, where a cell can lose the digit): (fin lines, cover lines,
    the cover lines through the fins' box)."""
    choices = []
    for lines_of_band in BANDS:
        lines = _bits(union & lines_of_band)
        if len(lines) > extra:
            for fins in combinations(lines, extra):
                fin_mask = sum(1 << f for f in fins)
                covers = union & ~fin_mask
                choices.append((fin_mask, covers, covers & lines_of_band))
    return choices


# _FIN_CHOICES[union][extra], for the one or two fin lines a fish can have: three would
# fill their band and leave no cover line through the fins' box.
_FIN_CHOICES = tuple(tuple(_fin_choices(u, e) if e else [] for e in range(3)) for u in range(512))

# A fish of one digit: its base lines, cover lines (a mask), fins as (base line, cover
# line) and the candidates it takes out likewise.
Pattern = tuple[tuple[int, ...], int, list[tuple[int, int]], list[tuple[int, int]]]

# Where a finned fish lies depends only on its digit's places on the lines: the search of
# those places, by size, is kept for every position (and line direction) that has them.
_PATTERNS: Kept[tuple[Pattern | None, Pattern | None]] = Kept(16384)


def _finned(board: Board, size: int, sashimi: bool) -> Step | None:
    """The first finned (or sashimi) fish of the size that takes a candidate out: one search
    a position finds both kinds."""
    return board.derived(f"finned fish {size}", lambda b: _search(b, size))[sashimi]


def _search(board: Board, size: int) -> dict[bool, Step | None]:
    """The first finned fish of the size and the first sashimi one, as {sashimi: step}."""
    found: dict[bool, Step | None] = {False: None, True: None}
    places = line_places(board)
    for digit in range(1, 10):
        for base_is_row in (True, False):
            every = tuple(places[digit][base_is_row])
            kinds = _PATTERNS.get((size, every), _patterns, every, size)
            for sashimi in (False, True):
                fish = kinds[sashimi]
                if fish is not None and found[sashimi] is None:
                    found[sashimi] = _pattern_step(size, sashimi, digit, base_is_row, fish, board)
            if found[False] is not None and found[True] is not None:
                return found
    return found


def _patterns(every: tuple[int, ...], size: int) -> tuple[Pattern | None, Pattern | None]:
    """The first finned fish of the size and the first sashimi one in one digit's places
    on the lines of one direction (every: per line, the cover lines it has places on)."""
    found: list[Pattern | None] = [None, None]
    # The fins and a candidate to take out share a box on two base lines of one band.
    if not any(
        sum(1 for b in range(3 * band, 3 * band + 3) if every[b] & cover) >= 2
        for band in range(3)
        for cover in BANDS
    ):
        return None, None
    lines = [(b, m) for b, m in enumerate(every) if 1 <= POPCOUNT[m] <= size + 2]
    for chosen, union in _base_sets(lines, size):
        extra = POPCOUNT[union] - size
        if extra < 1:
            continue
        bases = tuple(lines[i][0] for i in chosen)
        masks = [lines[i][1] for i in chosen]
        for fin_mask, covers, targets in _FIN_CHOICES[union][extra]:
            # The fins share a box when the base lines holding them share a band.
            band = -1
            for b, m in zip(bases, masks, strict=True):
                if not m & covers:
                    break
                if m & fin_mask:
                    if band < 0:
                        band = b // 3
                    elif band != b // 3:
                        break
            else:
                # The cells of the box on cover lines, outside the base lines.
                losing = [
                    (b, every[b] & targets)
                    for b in range(3 * band, 3 * band + 3)
                    if every[b] & targets and b not in bases
                ]
                if not losing:
                    continue
                sashimi = any(POPCOUNT[m & covers] < 2 for m in masks)
                if found[sashimi] is not None:
                    continue
                fins = [
                    (b, f) for b, m in zip(bases, masks, strict=True) for f in _bits(m & fin_mask)
                ]
                removed = [(b, c) for b, on in losing for c in _bits(on)]
                found[sashimi] = (bases, covers, fins, removed)
                if found[not sashimi] is not None:
                    return found[0], found[1]
    return found[0], found[1]


def _pattern_step(
    size: int, sashimi: bool, digit: int, base_is_row: bool, fish: Pattern, board: Board
) -> Step:
    """The step of a fish found in a digit's places on the rows (or columns)."""
    bases, covers, fins, removed = fish
    at = partial(cell_at, base_is_row)
    fin_cells = [at(b, f) for b, f in fins]
    told = (digit, base_is_row, bases, _bits(covers), fin_cells, BOX_OF[fin_cells[0]])
    taken = sorted((at(b, c), digit) for b, c in removed)
    return _fish_step(size, sashimi, told, taken, board.cands)


def _lines(rows: bool, lines: list[int]) -> str:
    """Rows or columns by their numbers (from 0): 'rows 1, 4 and 7', 'column 5'."""
    numbers = join(str(line + 1) for line in lines)
    if rows:
        # Translators: {numbers} is a list of row numbers, like '1, 4 and 7'.
        return ngettext("row {numbers}", "rows {numbers}", len(lines)).format(numbers=numbers)
    # Translators: {numbers} is a list of column numbers, like '1, 4 and 7'.
    return ngettext("column {numbers}", "columns {numbers}", len(lines)).format(numbers=numbers)


def _fish_step(
    size: int, sashimi: bool, fish: tuple, removed: list[tuple[int, int]], cands: list[int]
) -> Step:
    """The step of a fish: (digit, whether its base lines are rows, the base lines, the
    cover lines, the fins, the fins' box), told when read."""
    digit, base_is_row, bases, cover_lines, fins, box = fish
    bit = BIT[digit]
    body = [
        c
        for b in bases
        for cover in cover_lines
        if cands[c := cell_at(base_is_row, b, cover)] & bit
    ]
    # Only the cover lines through the fins' box meet it: rows of its band, or columns of
    # its stack.
    band = box % 3 if base_is_row else box // 3
    through = [c for c in cover_lines if c // 3 == band]

    def tell() -> dict:
        base_names = _lines(base_is_row, list(bases))
        cover_names = _lines(not base_is_row, cover_lines)
        n = len(fins)
        numbers = join(str(c + 1) for c in through)
        if base_is_row:
            meeting = ngettext(
                # Translators: {numbers} is a list of column numbers, like '5' or '4 and 6';
                # said in 'Where ... box 3, the cells outside ... see the fin'.
                "column {numbers} crosses",
                "columns {numbers} cross",
                len(through),
            ).format(numbers=numbers)
            either = ngettext(
                # Translators: {covers} is like 'columns 2, 5 and 8'.
                "Either the fin is {digit}, or those rows fill {covers} with {digit}s.",
                "Either a fin is {digit}, or those rows fill {covers} with {digit}s.",
                n,
            )
        else:
            meeting = ngettext(
                # Translators: {numbers} is a list of row numbers, like '5' or '4 and 6'; said in
                # 'Where ... box 3, the cells outside ... see the fin'.
                "row {numbers} crosses",
                "rows {numbers} cross",
                len(through),
            ).format(numbers=numbers)
            either = ngettext(
                # Translators: {covers} is like 'rows 2, 5 and 8'.
                "Either the fin is {digit}, or those columns fill {covers} with {digit}s.",
                "Either a fin is {digit}, or those columns fill {covers} with {digit}s.",
                n,
            )
        return {
            "region": base_names,
            "cause": sorted(body + fins),
            "reason": ngettext(
                # Translators: {bases} and {covers} are rows or columns, like 'rows 1 and 4' and
                # 'columns 2 and 5'; {cells} and {fins} lists of places; {box} a box's number.
                "In {bases}, {digit} can go only in {covers} ({cells}), apart from the fin "
                "at {fins}, in box {box}.",
                "In {bases}, {digit} can go only in {covers} ({cells}), apart from the fins "
                "at {fins}, in box {box}.",
                n,
            ).format(
                bases=base_names,
                digit=digit,
                covers=cover_names,
                cells=cells_text(body),
                fins=cells_text(fins),
                box=box + 1,
            )
            + " "
            + either.format(digit=digit, covers=cover_names)
            + " "
            + ngettext(
                # Translators: {meeting} is like 'column 5 crosses' or 'columns 4 and 6 cross';
                # {box} a box's number; {bases} rows or columns, like 'rows 1 and 4'.
                "Where {meeting} box {box}, the cells outside {bases} see the fin: either way "
                "they cannot hold {digit}.",
                "Where {meeting} box {box}, the cells outside {bases} see the fins: either "
                "way they cannot hold {digit}.",
                n,
            ).format(meeting=meeting, box=box + 1, bases=base_names, digit=digit),
            # Translators: {removals} is a list like '5 from row 1, columns 2 and 7'.
            "result": _("So take out {removals}.").format(removals=removals_text(removed)),
        }

    return step(
        (SASHIMI if sashimi else FINNED)[size],
        eliminations=removed,
        cells=sorted(body + fins),
        units=[b if base_is_row else 9 + b for b in bases],
        tell=tell,
    )


def finned_x_wing(board: Board) -> Step | None:
    """An X-Wing with fins in one box."""
    return _finned(board, 2, False)


def sashimi_x_wing(board: Board) -> Step | None:
    """An X-Wing missing a corner, with fins in one box."""
    return _finned(board, 2, True)


def finned_swordfish(board: Board) -> Step | None:
    """A swordfish with fins in one box."""
    return _finned(board, 3, False)


def sashimi_swordfish(board: Board) -> Step | None:
    """A swordfish missing a corner on a line, with fins in one box."""
    return _finned(board, 3, True)


def finned_jellyfish(board: Board) -> Step | None:
    """A jellyfish with fins in one box."""
    return _finned(board, 4, False)


def sashimi_jellyfish(board: Board) -> Step | None:
    """A jellyfish missing a corner on a line, with fins in one box."""
    return _finned(board, 4, True)
