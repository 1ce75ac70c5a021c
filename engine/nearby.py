"""The full grids near a puzzle: its solutions, and those of the puzzle with a given or two
taken out. A typed puzzle that tells something about a stored one has that puzzle's
solution among them: a copy with a given taken out has it among its solutions, a copy with
a wrong digit added has it once that digit is taken out again.

A puzzle's solutions are listed all or not at all: which grids are listed then depends on
the puzzle alone, never on where some solution falls in the order of the search.
"""

from __future__ import annotations

from itertools import combinations

from .grid import candidates
from .kernel import count_solutions, solve

# The most grids near one puzzle worth listing: bounds the work for a loose puzzle.
NEAR_LIMIT = 128


def solutions(puzzle: str, limit: int) -> list[str]:
    """Up to `limit` solutions of a puzzle, in a fixed order."""
    count = count_solutions(puzzle, 2)
    if count == 0 or limit < 1:
        return []
    if count == 1:
        return [solve(puzzle)]
    options = candidates(puzzle)
    cell = min((c for c in range(81) if puzzle[c] == "0"), key=lambda c: len(options[c]))
    found: list[str] = []
    for digit in options[cell]:
        found += solutions(puzzle[:cell] + str(digit) + puzzle[cell + 1 :], limit - len(found))
        if len(found) >= limit:
            break
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


def near_grids(puzzle: str, limit: int = NEAR_LIMIT) -> list[str]:
    """Full grids that fit every given of the puzzle but at most two, at most `limit`,
    each once: the puzzle's solutions (if it has no more than `limit`); else those of the
    puzzle with one given taken out, each such puzzle's all or none, sharing what is left
    of the limit; and, for a puzzle with no solution, the single solutions of the puzzle
    with two taken out."""
    own = all_solutions(puzzle, limit)
    if own:
        return own
    givens = [c for c in range(81) if puzzle[c] != "0"]
    variants = [_without(puzzle, (cell,)) for cell in givens]
    alive = [v for v in variants if count_solutions(v, 1)]
    found: dict[str, None] = {}
    for variant in alive:
        each = (limit - len(found)) // max(1, len(alive))
        found |= dict.fromkeys(all_solutions(variant, each) or [])
    if own is None:  # several solutions: more givens taken out tell nothing more
        return list(found)
    for pair in combinations(givens, 2):
        if len(found) >= limit:
            break
        smaller = _without(puzzle, pair)
        if count_solutions(smaller, 2) == 1:
            found[solve(smaller)] = None
    return list(found)
