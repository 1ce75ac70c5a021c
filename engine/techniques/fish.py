"""Basic fish: n rows whose places for a digit fall in n columns (or the other way round)."""

from __future__ import annotations

from itertools import combinations

from ..board import Board, Step
from ..grid import BIT, POPCOUNT
from ..wording import cells_text, join, removals_text
from .table import step

FINDERS = {2: "x_wing", 3: "swordfish", 4: "jellyfish"}


def _cell(base_is_row: bool, base: int, cover: int) -> int:
    return base * 9 + cover if base_is_row else cover * 9 + base


def _fish(board: Board, size: int) -> Step | None:
    cands = board.cands
    places = board.places()
    for digit in range(1, 10):
        bit = BIT[digit]
        for base_is_row in (True, False):
            lines = {}
            for base in range(9):
                cells = places[base if base_is_row else 9 + base][digit]
                if 2 <= len(cells) <= size:
                    lines[base] = sum(1 << (c % 9 if base_is_row else c // 9) for c in cells)
            if len(lines) < size:
                continue
            for bases in combinations(lines, size):
                covers = 0
                for b in bases:
                    covers |= lines[b]
                if POPCOUNT[covers] != size:
                    continue
                cover_lines = [c for c in range(9) if covers >> c & 1]
                removed = [
                    (_cell(base_is_row, b, c), digit)
                    for c in cover_lines
                    for b in range(9)
                    if b not in bases and cands[_cell(base_is_row, b, c)] & bit
                ]
                if not removed:
                    continue
                corners = [_cell(base_is_row, b, c) for b in bases for c in cover_lines]
                cells = [c for c in corners if cands[c] & bit]
                base_kind, cover_kind = ("rows", "columns") if base_is_row else ("columns", "rows")
                base_names = join(str(b + 1) for b in bases)
                cover_names = join(str(c + 1) for c in cover_lines)
                return step(
                    FINDERS[size],
                    eliminations=sorted(removed),
                    cells=sorted(cells),
                    units=[b if base_is_row else 9 + b for b in bases],
                    region=f"{base_kind} {base_names}",
                    reason=f"In {base_kind} {base_names}, {digit} can go only in {cover_kind} "
                    f"{cover_names} ({cells_text(cells)}). Each of those {base_kind} needs a "
                    f"{digit} there, so they fill {cover_kind} {cover_names} with {digit}s.",
                    result=f"So {digit} leaves the rest of {cover_kind} {cover_names}: "
                    f"take out {removals_text(removed)}.",
                )
    return None


def x_wing(board: Board) -> Step | None:
    """Two rows (columns) whose places for a digit lie in the same two columns (rows)."""
    return _fish(board, 2)


def swordfish(board: Board) -> Step | None:
    """Three rows (columns) whose places for a digit lie in the same three columns (rows)."""
    return _fish(board, 3)


def jellyfish(board: Board) -> Step | None:
    """Four rows (columns) whose places for a digit lie in the same four columns (rows)."""
    return _fish(board, 4)
