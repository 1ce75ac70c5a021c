"""The board's geometry, computed once at import, the text format of puzzles, and the
candidates the placed digits allow.

Cells are numbered 0-80 row by row. Units are the 9 rows, 9 columns and 9 boxes,
numbered 0-8, 9-17 and 18-26. Candidates are 9-bit masks: bit d-1 set means d is possible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .i18n import _

ROWS = tuple(tuple(r * 9 + c for c in range(9)) for r in range(9))
COLS = tuple(tuple(r * 9 + c for r in range(9)) for c in range(9))
BOXES = tuple(
    tuple((br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3))
    for br in range(3)
    for bc in range(3)
)
UNITS = ROWS + COLS + BOXES

ROW_OF = tuple(cell // 9 for cell in range(81))
COL_OF = tuple(cell % 9 for cell in range(81))
BOX_OF = tuple((cell // 27) * 3 + (cell % 9) // 3 for cell in range(81))
UNITS_OF = tuple((ROW_OF[c], 9 + COL_OF[c], 18 + BOX_OF[c]) for c in range(81))
PEERS = tuple(tuple(sorted({p for u in UNITS_OF[c] for p in UNITS[u]} - {c})) for c in range(81))
# PEERS as 81-bit integers, so "the cells that see both a and b" is one `&`.
PEER_BITS = tuple(sum(1 << p for p in PEERS[c]) for c in range(81))
UNIT_BITS = tuple(sum(1 << c for c in unit) for unit in UNITS)  # the units' cells likewise

ALL = 0x1FF
BIT = (0, *(1 << (d - 1) for d in range(1, 10)))  # BIT[d] is digit d's bit
DIGITS_OF = tuple(tuple(d for d in range(1, 10) if m & (1 << (d - 1))) for m in range(512))
POPCOUNT = tuple(m.bit_count() for m in range(512))

_BLANKS = "0."
_SEPARATORS = set(" \t\r\n|-+")


def shared_units(cells: Iterable[int]) -> list[int]:
    """The units every one of the cells lies in, in order."""
    return sorted(set.intersection(*(set(UNITS_OF[c]) for c in cells)))


class InvalidPuzzle(ValueError):
    """A puzzle text that is not a valid Sudoku position."""


def cell_name(cell: int) -> str:
    """The cell's name as players write it: r3c5."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def unit_name(unit: int) -> str:
    """The unit's name in plain words: row 3, column 5, box 9."""
    number = unit % 9 + 1
    if unit < 9:
        # Translators: a row by its number, 1-9 from the top.
        return _("row {number}").format(number=number)
    if unit < 18:
        # Translators: a column by its number, 1-9 from the left.
        return _("column {number}").format(number=number)
    # Translators: a box (3x3 block) by its number, 1-9 row by row from the top left.
    return _("box {number}").format(number=number)


def parse(text: str) -> str:
    """The normalised 81-character form of a puzzle; raises InvalidPuzzle saying what and where."""
    puzzle = normalise(text)
    _check_givens(puzzle)
    return puzzle


def normalise(text: str) -> str:
    """81 characters, '0' for a blank, separators dropped; a digit may repeat in a unit.

    A player's grid may break the rules, and a hint has to say so rather than refuse it.
    Raises InvalidPuzzle for anything else that is wrong.
    """
    if not isinstance(text, str):
        raise InvalidPuzzle(f"a puzzle is text, not {type(text).__name__}")
    chars = []
    for position, ch in enumerate(text):
        if ch in _SEPARATORS:
            continue
        if ch in _BLANKS:
            chars.append("0")
        elif "1" <= ch <= "9":
            chars.append(ch)
        else:
            raise InvalidPuzzle(
                _(
                    # Translators: a puzzle typed in refused; {character} is the character quoted.
                    "character {character} at position {position} is not a digit 1-9, "
                    "'0' or '.' for a blank"
                ).format(character=repr(ch), position=position + 1)
            )
    if len(chars) != 81:
        raise InvalidPuzzle(
            # Translators: a puzzle typed in refused; {count} is the number of cells it has.
            _("a puzzle has 81 cells, this one has {count}").format(count=len(chars))
        )
    return "".join(chars)


def _check_givens(puzzle: str) -> None:
    for unit in range(27):
        seen: dict[str, int] = {}
        for cell in UNITS[unit]:
            digit = puzzle[cell]
            if digit == "0":
                continue
            if digit in seen:
                raise InvalidPuzzle(
                    # Translators: a puzzle typed in refused: {unit} is "row 3", say, and
                    # {first} and {second} cells in compact notation, "r3c1".
                    _("{unit} has the digit {digit} twice, at {first} and {second}").format(
                        unit=unit_name(unit),
                        digit=digit,
                        first=cell_name(seen[digit]),
                        second=cell_name(cell),
                    )
                )
            seen[digit] = cell


def is_solution(grid: str, puzzle: str | None = None) -> bool:
    """True when grid is a complete valid Sudoku that agrees with puzzle's givens."""
    if len(grid) != 81 or any(ch not in "123456789" for ch in grid):
        return False
    if any(len({grid[c] for c in unit}) != 9 for unit in UNITS):
        return False
    if puzzle is None:
        return True
    return len(puzzle) == 81 and all(p in "0." or p == g for p, g in zip(puzzle, grid, strict=True))


def mask_of(digits: Iterable[int]) -> int:
    """The candidate mask of some digits 1-9."""
    mask = 0
    for d in digits:
        mask |= BIT[d]
    return mask


def allowed_mask(values: Sequence[int], cell: int) -> int:
    """The candidate mask of the digits no peer of the cell holds (values: 81 ints, 0 blank)."""
    seen = 0
    for peer in PEERS[cell]:
        seen |= BIT[values[peer]]
    return ALL & ~seen


def candidates_of(puzzle: str) -> list[int]:
    """Candidate masks for every cell: 0 for a filled cell, else the digits no peer holds."""
    values = [int(ch) for ch in puzzle]
    return [0 if values[cell] else allowed_mask(values, cell) for cell in range(81)]


def candidates(grid: str) -> list[list[int]]:
    """Every cell's candidates as digits: those no peer holds, none in a filled cell."""
    return [list(DIGITS_OF[mask]) for mask in candidates_of(normalise(grid))]


def conflicts(grid: str) -> list[int]:
    """The cells whose digit repeats in their row, column or box (a player's grid may
    break the rules)."""
    bits = [BIT[int(ch)] for ch in normalise(grid)]
    found: set[int] = set()
    for unit in UNITS:
        seen = twice = 0
        for cell in unit:
            twice |= seen & bits[cell]
            seen |= bits[cell]
        if twice:
            found.update(cell for cell in unit if bits[cell] & twice)
    return sorted(found)
