"""The yardstick: Peter Norvig's constraint propagation and search, counting solutions.

Kept as he wrote it (strings of candidate digits in a dict, eliminate/assign recursion),
with search changed to count up to a limit instead of stopping at the first solution.
"""

from __future__ import annotations


def cross(a: str, b: str) -> list[str]:
    return [x + y for x in a for y in b]


digits = "123456789"
rows = "ABCDEFGHI"
cols = digits
squares = cross(rows, cols)
unitlist = (
    [cross(rows, c) for c in cols]
    + [cross(r, cols) for r in rows]
    + [cross(rs, cs) for rs in ("ABC", "DEF", "GHI") for cs in ("123", "456", "789")]
)
units = {s: [u for u in unitlist if s in u] for s in squares}
peers = {s: set(sum(units[s], [])) - {s} for s in squares}


def parse_grid(grid: str) -> dict[str, str] | bool:
    values = {s: digits for s in squares}
    for s, d in zip(squares, grid, strict=True):
        if d in digits and not assign(values, s, d):
            return False
    return values


def assign(values: dict[str, str], s: str, d: str) -> dict[str, str] | bool:
    other_values = values[s].replace(d, "")
    if all(eliminate(values, s, d2) for d2 in other_values):
        return values
    return False


def eliminate(values: dict[str, str], s: str, d: str) -> dict[str, str] | bool:
    if d not in values[s]:
        return values
    values[s] = values[s].replace(d, "")
    if len(values[s]) == 0:
        return False
    elif len(values[s]) == 1:
        d2 = values[s]
        if not all(eliminate(values, s2, d2) for s2 in peers[s]):
            return False
    for u in units[s]:
        dplaces = [s for s in u if d in values[s]]
        if len(dplaces) == 0:
            return False
        elif len(dplaces) == 1 and not assign(values, dplaces[0], d):
            return False
    return values


def count(values: dict[str, str] | bool, limit: int) -> int:
    if values is False:
        return 0
    if all(len(values[s]) == 1 for s in squares):
        return 1
    n, s = min((len(values[s]), s) for s in squares if len(values[s]) > 1)
    found = 0
    for d in values[s]:
        found += count(assign(values.copy(), s, d), limit - found)
        if found >= limit:
            break
    return found


def count_solutions(puzzle: str, limit: int = 2) -> int:
    """Number of solutions up to limit, the Norvig way."""
    return count(parse_grid(puzzle), limit)
