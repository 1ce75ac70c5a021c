"""The full grids near a puzzle: its solutions; those of the puzzle with one given changed
to another digit; and, for a puzzle with no solution, those with two givens taken out.

A typed copy of a stored puzzle has that puzzle's solution among them: a copy with givens
taken out or right digits added among its own solutions, a copy with one wrong digit among
those of the copy with that digit put right. So a right digit and a wrong one typed into
a copy find the stored solution alike whenever the copy with the right digit has it among
its own (no more than NEAR_LIMIT solutions), unless the wrong one's changed copies hold
too many grids to list before it (NEAR_MOST in all, CHANGED_LISTED listed).

A puzzle's solutions are taken all or not at all, and which are taken depends on the
puzzle alone (numbers of solutions, which grids differ where), never on where some
solution falls in the order of the search.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from .grid import ALL, BIT, DIGITS_OF, POPCOUNT, allowed_mask, normalise
from .kernel import DONE, LOCKED, count_solutions, placed, propagate, to_digits, to_text

# The most solutions of one puzzle worth listing: bounds the work for a loose puzzle.
NEAR_LIMIT = 128
# The most grids near one puzzle. Each costs its print (some 0.5 ms) when a typed puzzle
# is looked up: with the listing and counting below, some 0.25 s at most.
NEAR_MOST = 256
# The most solutions listed for the copies with a given changed, of which NEAR_MOST at
# most are kept: listing costs some 0.05 ms a grid, a tenth of a print.
CHANGED_LISTED = 1024

_POP = np.array(POPCOUNT, dtype=np.int32)


def _search(cand: np.ndarray, limit: int, found: list[str]) -> None:
    if not propagate(cand, LOCKED):
        return
    open_cells = (cand & DONE) == 0
    if not open_cells.any():
        found.append(to_text(placed(cand)))
        return
    cell = int(np.where(open_cells, _POP[cand & ALL], 10).argmin())
    for digit in DIGITS_OF[int(cand[cell]) & ALL]:
        branch = cand.copy()
        branch[cell] = BIT[digit]
        _search(branch, limit, found)
        if len(found) >= limit:
            return


def solutions(puzzle: str, limit: int) -> list[str]:
    """Up to `limit` solutions of a puzzle, in a fixed order."""
    if limit < 1:
        return []
    digits = to_digits(normalise(puzzle))
    cand = np.where(digits > 0, 1 << (digits - 1), ALL).astype(np.int32)
    found: list[str] = []
    _search(cand, limit, found)
    return found


def all_solutions(puzzle: str, most: int) -> list[str] | None:
    """Every solution of a puzzle, or None when it has more than `most`."""
    if count_solutions(puzzle, most + 1) > most:
        return None
    return solutions(puzzle, most)


def _without(puzzle: str, cells: tuple[int, ...]) -> str:
    chars = list(puzzle)
    for cell in cells:
        chars[cell] = "0"
    return "".join(chars)


def _one_given_away(grids: list[str]) -> list[bool]:
    """For each of a puzzle's solutions, whether one more given pins it: it alone among
    them has its digit in some cell."""
    digits = np.frombuffer("".join(grids).encode(), np.uint8).reshape(len(grids), 81) - 48
    sharing = (digits[:, None, :] == np.arange(10)[None, :, None]).sum(axis=0)
    return (np.take_along_axis(sharing, digits, axis=0) == 1).any(axis=1).tolist()


def _changed_grids(puzzle: str, limit: int, most: int, listed_most: int) -> list[str]:
    """The solutions of the puzzle with one given changed to another digit its peers allow,
    no more than `most`, of those of such puzzles with at most `limit` solutions each, no
    more than `listed_most` listed. Each puzzle's are taken all or none, in two rounds:
    first those one more given pins, then the others."""
    values = [int(ch) for ch in puzzle]
    cells = []
    for cell in (c for c in range(81) if values[c]):
        copies = []
        for digit in DIGITS_OF[allowed_mask(values, cell) & ~BIT[values[cell]]]:
            copy = puzzle[:cell] + str(digit) + puzzle[cell + 1 :]
            copies.append((count_solutions(copy, limit + 1), copy))
        cells.append((sum(count for count, _ in copies), cell, copies))
    # A wrong digit added to a copy with a given taken out is, most often, the given whose
    # changes leave the fewest solutions: changed, it gives back the copy with the given
    # taken out, while changing any other takes out a second given the solution needs.
    parts = []
    listed = 0
    for _, _, copies in sorted(cells):
        for count, copy in copies:
            if 0 < count <= limit and listed + count <= listed_most:
                listed += count
                grids = solutions(copy, count)
                parts.append((grids, _one_given_away(grids)))
    # A stored puzzle's solution is one given away from a copy with a given taken out (the
    # given put back pins it): those are few, a tenth of the grids, and come first.
    found: list[str] = []
    for pinned in (True, False):
        for grids, away in parts:
            taken = [grid for grid, one in zip(grids, away, strict=True) if one == pinned]
            if len(found) + len(taken) <= most:
                found += taken
    return found


def _two_out_singles(puzzle: str, most: int) -> list[str]:
    """The single solutions of the puzzle with two givens taken out, at most `most`."""
    givens = [c for c in range(81) if puzzle[c] != "0"]
    found: dict[str, None] = {}
    for pair in combinations(givens, 2):
        if len(found) >= most:
            break
        fewer = _without(puzzle, pair)
        if count_solutions(fewer, 2) == 1:
            found[solutions(fewer, 1)[0]] = None
    return list(found)


def near_grids(puzzle: str, limit: int = NEAR_LIMIT, most: int = NEAR_MOST) -> list[str]:
    """Full grids that fit every given of the puzzle but one (two, for a puzzle with no
    solution), each once, no more than `most`: the puzzle's solutions (if it has no more
    than `limit`); then those of the puzzle with one given changed to another digit, each
    such puzzle's all or none (at most `limit`), while the room lasts; then, for a puzzle
    with no solution, the single solutions of the puzzle with two givens taken out."""
    own = all_solutions(puzzle, limit)
    found = list(own or [])
    found += _changed_grids(puzzle, limit, most - len(found), CHANGED_LISTED)
    if own == []:
        found += _two_out_singles(puzzle, min(limit, most - len(found)))
    return list(dict.fromkeys(found))
