"""The compiled core: bitmask propagation and search, JIT-compiled once and cached on disk.

A position is an int32[81] of candidate masks (bit d-1 for digit d). A cell whose single
digit has been propagated to its peers also carries the DONE bit. Propagation runs naked
and hidden singles to a fixed point, optionally with locked candidates and naked/hidden
pairs: the medium tier, so the digger can keep a puzzle medium-solvable.
Search branches on the cell with the fewest candidates, on an explicit stack, and stops
at the limit. Functions return False or 0 for a contradiction rather than raising. Search
propagates locked candidates too: on the sparse samples (17-clue, top95) that raises the
count rate 1.5-2x, on hardest_200 and multi_solution_200 it costs 15-40%. `make bench`
prints the rates with and without them side by side (the "search" lines).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

import numpy as np
from numba import njit

from .grid import ALL, BOXES, COLS, PEERS, POPCOUNT, ROWS, UNITS, parse

DONE = 0x200

_UNITS = np.array(UNITS, dtype=np.int32)
_PEERS = np.array(PEERS, dtype=np.int32)
_POP = np.array(POPCOUNT, dtype=np.int32)
_DIGIT = np.array([m.bit_length() if m and not m & (m - 1) else 0 for m in range(512)], np.int32)


def _intersections() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each box and each line through it: the 3 shared cells, the box's other 6, the line's."""
    inter, box_rest, line_rest = [], [], []
    for box in BOXES:
        for line in [r for r in ROWS if set(r) & set(box)] + [c for c in COLS if set(c) & set(box)]:
            shared = [c for c in box if c in line]
            inter.append(shared)
            box_rest.append([c for c in box if c not in shared])
            line_rest.append([c for c in line if c not in shared])
    return (np.array(inter, np.int32), np.array(box_rest, np.int32), np.array(line_rest, np.int32))


_INTER, _BOX_REST, _LINE_REST = _intersections()

log = logging.getLogger(__name__)


@functools.cache
def _warn_uncached() -> None:
    log.warning(
        "numba may write none of its cache folders: the engine's kernels are compiled afresh "
        "in each process (seconds at its start); set NUMBA_CACHE_DIR to a folder this user "
        "may write"
    )


def compiled(func: Callable) -> Callable:
    """njit, its machine code kept in numba's cache on disk (beside the code, in
    NUMBA_CACHE_DIR or in the user's cache folder). Where it may write none of them, numba
    refuses to cache at all: the kernel is then compiled in memory, after one warning."""
    try:
        return njit(cache=True)(func)
    except RuntimeError as error:
        if "no locator available" not in str(error):
            raise
        _warn_uncached()
        return njit(func)


@compiled
def _singles(cand):
    """Naked and hidden singles to a fixed point; False on a contradiction."""
    queue = np.empty(81, np.int32)
    head = 0
    tail = 0
    for c in range(81):
        m = cand[c]
        if m == 0:
            return False
        if not m & DONE and _POP[m] == 1:
            queue[tail] = c
            tail += 1
    while True:
        while head < tail:
            c = queue[head]
            head += 1
            m = cand[c]
            cand[c] = m | DONE
            for k in range(20):
                p = _PEERS[c, k]
                pm = cand[p]
                if pm & m:
                    if pm & DONE:
                        return False
                    pm &= ~m
                    if pm == 0:
                        return False
                    cand[p] = pm
                    if _POP[pm] == 1:
                        queue[tail] = p
                        tail += 1
        for u in range(27):
            once = 0
            twice = 0
            placed = 0
            for k in range(9):
                m = cand[_UNITS[u, k]]
                if m & DONE:
                    placed |= m
                twice |= once & m
                once |= m
            if once & ALL != ALL:
                return False
            exactly = once & ~twice & ~placed & ALL
            if exactly == 0:
                continue
            for k in range(9):
                c = _UNITS[u, k]
                m = cand[c]
                if m & DONE:
                    continue
                x = m & exactly
                if x:
                    if _POP[x] > 1:
                        return False
                    if x != m:  # x == m: made a single earlier in this sweep, queued then
                        cand[c] = x
                        queue[tail] = c
                        tail += 1
        if head == tail:
            return True


@compiled
def _eliminate(cand, cell, mask):
    """Remove mask from an unsolved cell; returns -1 when it empties, 1 if it changed, else 0."""
    m = cand[cell]
    if m & DONE or not m & mask:
        return 0
    m &= ~mask
    if m == 0:
        return -1
    cand[cell] = m
    return 1


@compiled
def _locked_candidates(cand):
    """Pointing and claiming in every box/line intersection; -1, 0 or 1 as _eliminate."""
    changed = 0
    for i in range(_INTER.shape[0]):
        inter = 0
        for k in range(3):
            m = cand[_INTER[i, k]]
            if not m & DONE:
                inter |= m
        box_rest = 0
        line_rest = 0
        for k in range(6):
            box_rest |= cand[_BOX_REST[i, k]] & ALL
            line_rest |= cand[_LINE_REST[i, k]] & ALL
        pointing = inter & ~box_rest
        claiming = inter & ~line_rest
        for k in range(6):
            if pointing:
                r = _eliminate(cand, _LINE_REST[i, k], pointing)
                if r < 0:
                    return -1
                changed |= r
            if claiming:
                r = _eliminate(cand, _BOX_REST[i, k], claiming)
                if r < 0:
                    return -1
                changed |= r
    return changed


@compiled
def _pairs(cand):
    """Naked and hidden pairs in every unit; -1, 0 or 1 as _eliminate."""
    changed = 0
    where = np.zeros(9, np.int32)
    for u in range(27):
        for a in range(9):
            ma = cand[_UNITS[u, a]]
            if ma & DONE or _POP[ma] != 2:
                continue
            for b in range(a + 1, 9):
                if cand[_UNITS[u, b]] != ma:
                    continue
                for k in range(9):
                    if k != a and k != b:
                        r = _eliminate(cand, _UNITS[u, k], ma)
                        if r < 0:
                            return -1
                        changed |= r
        for d in range(9):
            where[d] = 0
        for k in range(9):
            m = cand[_UNITS[u, k]]
            if m & DONE:
                continue
            for d in range(9):
                if m & (1 << d):
                    where[d] |= 1 << k
        for d in range(9):
            if _POP[where[d]] != 2:
                continue
            for e in range(d + 1, 9):
                if where[e] != where[d]:
                    continue
                keep = (1 << d) | (1 << e)
                for k in range(9):
                    if where[d] & (1 << k):
                        r = _eliminate(cand, _UNITS[u, k], ALL & ~keep)
                        if r < 0:
                            return -1
                        changed |= r
    return changed


SINGLES, LOCKED, MEDIUM = 0, 1, 2


@compiled
def _propagate(cand, level):
    """Propagate to a fixed point: singles (level 0), then locked candidates (1), then
    naked and hidden pairs (2, the whole medium tier). False on a contradiction."""
    while True:
        if not _singles(cand):
            return False
        if level == SINGLES:
            return True
        r = _locked_candidates(cand)
        if r == 0 and level == MEDIUM:
            r = _pairs(cand)
        if r < 0:
            return False
        if r == 0:
            return True


@compiled
def _fill(cand, digits):
    for c in range(81):
        cand[c] = (1 << (digits[c] - 1)) if digits[c] else ALL


@compiled
def _search(cand0, limit, solution, level):
    """Number of solutions below cand0, up to limit; the first one goes into solution.

    Every node propagates at the level (SINGLES or LOCKED)."""
    stack = np.empty((81, 81), np.int32)
    cells = np.empty(81, np.int32)
    rest = np.empty(81, np.int32)
    cand = cand0.copy()
    count = 0
    sp = 0
    ok = _propagate(cand, level)
    while True:
        if ok:
            best = -1
            fewest = 10
            for c in range(81):
                m = cand[c]
                if m & DONE:
                    continue
                n = _POP[m]
                if n < fewest:
                    fewest = n
                    best = c
                    if n == 2:
                        break
            if best < 0:
                count += 1
                if count == 1:
                    for c in range(81):
                        solution[c] = _DIGIT[cand[c] & ALL]
                if count >= limit:
                    return count
            else:
                stack[sp] = cand
                cells[sp] = best
                rest[sp] = cand[best]
                sp += 1
        ok = False
        while sp > 0 and not ok:
            top = sp - 1
            r = rest[top]
            bit = r & -r
            rest[top] = r & ~bit
            cand[:] = stack[top]
            cand[cells[top]] = bit
            if rest[top] == 0:
                sp -= 1
            ok = _propagate(cand, level)
        if not ok:
            return count


@compiled
def _count(digits, limit, solution, level):
    cand = np.empty(81, np.int32)
    _fill(cand, digits)
    return _search(cand, limit, solution, level)


@compiled
def _solvable(digits, level):
    """True when propagation at the level alone fills the grid (so it has one solution)."""
    cand = np.empty(81, np.int32)
    _fill(cand, digits)
    if not _propagate(cand, level):
        return False
    for c in range(81):  # noqa: SIM110 - numba compiles loops, not all() over generators
        if not cand[c] & DONE:
            return False
    return True


@compiled
def _unique_without(puzzle, grid, orbit, cand, scratch):
    """Whether the puzzle (already missing orbit's cells) still has grid as its only solution.

    Any other solution would differ from grid in one of the removed cells, so it is enough
    to look for a solution with each of those cells forced away from its digit.
    """
    for k in range(orbit.shape[0]):
        c = orbit[k]
        if c < 0:
            break
        _fill(cand, puzzle)
        cand[c] = ALL & ~(1 << (grid[c] - 1))
        if _search(cand, 1, scratch, LOCKED) > 0:
            return False
    return True


@compiled
def _dig(grid, orbits, target, level):
    """Remove orbits of givens in the order given while the puzzle stays unique.

    level -1 keeps uniqueness by search; SINGLES or MEDIUM keeps the puzzle solvable by
    that level's propagation, which implies uniqueness and bounds the difficulty.
    """
    puzzle = grid.copy()
    clues = 81
    cand = np.empty(81, np.int32)
    scratch = np.empty(81, np.int32)
    for o in range(orbits.shape[0]):
        size = 0
        for k in range(orbits.shape[1]):
            if orbits[o, k] >= 0:
                size += 1
        if clues - size < target:
            continue
        for k in range(size):
            puzzle[orbits[o, k]] = 0
        if level < 0:
            ok = _unique_without(puzzle, grid, orbits[o], cand, scratch)
        else:
            ok = _solvable(puzzle, level)
        if ok:
            clues -= size
        else:
            for k in range(size):
                puzzle[orbits[o, k]] = grid[orbits[o, k]]
    return puzzle


_TABLE = np.full(256, -1, np.int32)
_TABLE[ord("0") : ord("9") + 1] = np.arange(10, dtype=np.int32)
_TABLE[ord(".")] = 0


def to_digits(puzzle: str) -> np.ndarray:
    """int32[81] digits of an 81-character puzzle string ('0' or '.' blank); ValueError if not."""
    raw = np.frombuffer(puzzle.encode("latin-1", "replace"), np.uint8)
    digits = _TABLE[raw]
    if digits.shape[0] != 81 or (digits < 0).any():
        raise ValueError("not an 81-character puzzle string")
    return digits


def to_text(digits: np.ndarray) -> str:
    """The 81-character string of an int32[81] digit array."""
    return (digits.astype(np.uint8) + ord("0")).tobytes().decode("ascii")


def count_digits(digits: np.ndarray, limit: int = 2, level: int = LOCKED) -> tuple[int, np.ndarray]:
    """Number of solutions up to limit, and the first solution's digits (zeros if none).

    level is the propagation at every node of the search: LOCKED, or SINGLES to compare."""
    solution = np.zeros(81, np.int32)
    return int(_count(digits, limit, solution, level)), solution


def solvable(digits: np.ndarray, level: int) -> bool:
    """True when the level's propagation alone solves the position."""
    return bool(_solvable(digits, level))


def dig_digits(grid: np.ndarray, orbits: np.ndarray, target: int, level: int) -> np.ndarray:
    """The digger's loop: see _dig."""
    return _dig(grid, orbits, target, level)


def propagate(cand: np.ndarray, level: int = SINGLES) -> bool:
    """Propagate in place an int32[81] candidate array (DONE bits kept); False on contradiction."""
    return bool(_propagate(cand, level))


def placed(cand: np.ndarray) -> np.ndarray:
    """The digit each cell of a propagated candidate array holds (0 where still open)."""
    return np.where(cand & DONE, _DIGIT[cand & ALL], 0)


def _digits_of(puzzle: str) -> np.ndarray:
    if isinstance(puzzle, str) and len(puzzle) == 81:
        try:
            return to_digits(puzzle)
        except ValueError:
            pass
    return to_digits(parse(puzzle))


def count_solutions(puzzle: str, limit: int = 2) -> int:
    """Number of solutions of the puzzle, counting no further than limit."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    return count_digits(_digits_of(puzzle), limit)[0]


def solve(puzzle: str) -> str | None:
    """The puzzle's solution (the first found, if it has several), or None when it has none."""
    count, solution = count_digits(_digits_of(puzzle), 1)
    return to_text(solution) if count else None
