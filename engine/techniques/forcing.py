"""Forcing chains: try each option of a cell or unit, follow what it forces, keep what is
common or drop what contradicts. The following is done by the compiled propagation."""

from __future__ import annotations

import numpy as np

from .. import kernel
from ..board import Board, Step
from ..grid import BIT, BOX_OF, DIGITS_OF, PEERS, UNITS, unit_name
from ..wording import cells_text, digits_text, either, join, place
from .chains import chain_rating
from .table import entry_of, step

# A forcing chain's rating grows with its length but stays below the dynamic chains'.
TOP_FORCING_RATING = 8.9

Node = tuple[int, int, bool]  # (cell, digit, true or false)


class _Trace:
    """Singles followed from an assumption, each conclusion with the ones it came from, as
    Sudoku Explainer's chains keep them: its length is what the chain is rated by."""

    def __init__(self, board: Board, cell: int, digit: int) -> None:
        self.start = board.cands
        self.values = list(board.values)
        self.cands = list(board.cands)
        self.why: dict[Node, tuple[Node, ...]] = {}
        self.broken: tuple[Node, ...] | None = None  # what a contradiction came from
        self._put(cell, digit, ())
        self._follow()

    def _put(self, cell: int, digit: int, parents: tuple[Node, ...]) -> None:
        if self.values[cell]:
            if self.values[cell] != digit and self.broken is None:
                self.broken = (*parents, (cell, self.values[cell], True))
            return
        on = (cell, digit, True)
        self.values[cell] = digit
        self.why[on] = parents
        for other in DIGITS_OF[self.cands[cell] & ~BIT[digit]]:
            self.why.setdefault((cell, other, False), (on,))
        self.cands[cell] = 0
        bit = BIT[digit]
        for peer in PEERS[cell]:
            if self.cands[peer] & bit:
                self.cands[peer] &= ~bit
                self.why.setdefault((peer, digit, False), (on,))

    def _follow(self) -> None:
        values, cands, start = self.values, self.cands, self.start
        changed = True
        while changed and self.broken is None:
            changed = False
            for cell in range(81):
                if values[cell]:
                    continue
                m = cands[cell]
                if m & (m - 1) == 0:
                    gone = tuple((cell, d, False) for d in DIGITS_OF[start[cell] & ~m])
                    if not m:
                        self.broken = gone
                        return
                    self._put(cell, DIGITS_OF[m][0], gone)
                    changed = True
            for unit in range(27):
                cells = UNITS[unit]
                # The digits placed in the unit; the loop below places only the digit it is at.
                held = 0
                for c in cells:
                    held |= BIT[values[c]]
                for digit in range(1, 10):
                    bit = BIT[digit]
                    if held & bit:
                        continue
                    where = [c for c in cells if cands[c] & bit]
                    if len(where) > 1:
                        continue
                    gone = tuple((c, digit, False) for c in cells if start[c] & bit)
                    if not where:
                        self.broken = gone
                        return
                    self._put(where[0], digit, tuple(n for n in gone if n[0] != where[0]))
                    changed = True
                    if self.broken is not None:
                        return

    def size(self, nodes: tuple[Node, ...]) -> int:
        """How many conclusions the nodes rest on, themselves and the assumption included."""
        seen: set[Node] = set()
        todo = list(nodes)
        while todo:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                todo.extend(self.why.get(node, ()))
        return len(seen)


def _rating(finder: str, nodes: int) -> float:
    """A forcing chain's rating: its technique's, and what its length adds (Sudoku
    Explainer counts the nodes of every branch, less the two ends)."""
    return min(chain_rating(entry_of(finder).rating, nodes - 2), TOP_FORCING_RATING)


def _contradiction_length(board: Board, cell: int, digit: int) -> int:
    trace = _Trace(board, cell, digit)
    return trace.size(trace.broken or ()) + 1


def _common_length(board: Board, options: list[tuple[int, int]], placed) -> int:
    traces = [_Trace(board, c, d) for c, d in options]
    return min(sum(t.size(((c, d, True),)) for t in traces) for c, d in placed)


def _position(board: Board) -> np.ndarray:
    return np.array(
        [BIT[v] | kernel.DONE if v else m for v, m in zip(board.values, board.cands, strict=True)],
        np.int32,
    )


def _trials(board: Board, level: int) -> tuple[list[tuple[int, int]], np.ndarray, int | None]:
    """Every candidate (cell, digit) in order, each followed in its own row of a position
    array, up to the first whose consequences run into a contradiction (its index; None
    when there is none)."""
    base = _position(board)
    options = [(cell, digit) for cell in range(81) for digit in DIGITS_OF[board.cands[cell]]]
    trials = np.empty((len(options), 81), np.int32)
    for k, (cell, digit) in enumerate(options):
        trial = trials[k]
        trial[:] = base
        trial[cell] = BIT[digit]
        if not kernel.propagate(trial, level):
            return options, trials, k
    return options, trials, None


def _choices(board: Board) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """The sets of options one of which is true, in order: each cell with two to four
    candidates, as (cell, -1, its options), then each digit with two to four places in a
    unit, as (unit, digit, its options)."""
    found = []
    for cell in range(81):
        digits = DIGITS_OF[board.cands[cell]]
        if 2 <= len(digits) <= 4:
            found.append((cell, -1, [(cell, d) for d in digits]))
    for unit in range(27):
        for digit in range(1, 10):
            cells = [c for c in UNITS[unit] if board.cands[c] & BIT[digit]]
            if 2 <= len(cells) <= 4:
                found.append((unit, digit, [(c, digit) for c in cells]))
    return found


def _first_common(
    board: Board, choices: list, options: list[tuple[int, int]], trials: np.ndarray
) -> tuple[int, list[tuple[int, int]]] | None:
    """The first choice all of whose options lead to placing the same digits in empty cells,
    by its index, with those placements."""
    if not choices:
        return None
    row = {option: k for k, option in enumerate(options)}
    rows = []
    for _, _, these in choices:
        at = [row[o] for o in these]
        rows.append(at + at[:1] * (4 - len(at)))  # four each, the first repeated
    placed = kernel.placed(trials)[np.array(rows)]  # choice, option, cell
    first = placed[:, 0, :]
    same = (placed == first[:, None, :]).all(axis=1)
    empty = np.array(board.values) == 0
    common = np.where(same & empty, first, 0)
    hits = np.flatnonzero((common > 0).any(axis=1))
    if not len(hits):
        return None
    k = int(hits[0])
    return k, [(int(c), int(common[k, c])) for c in np.flatnonzero(common[k] > 0)]


def _forcing(board: Board, level: int, finder: str) -> Step | None:
    how = "the singles" if level == kernel.SINGLES else "the singles, locked candidates and pairs"
    traced = level == kernel.SINGLES  # the dynamic chains keep their one rating
    options, trials, false = _trials(board, level)
    if false is not None:
        cell, digit = options[false]
        nodes = _contradiction_length(board, cell, digit) if traced else 0
        return step(
            finder,
            rating=_rating(finder, nodes) if traced else None,
            eliminations=[(cell, digit)],
            cells=[cell],
            area=[cell],
            region=place(cell),
            # The why, at a hint's second level, does not name the cell that changes.
            reason=f"One candidate in {unit_name(18 + BOX_OF[cell])} cannot be true: suppose it "
            f"were and follow {how} that forces, and some cell is left with no candidate, or "
            "some digit with no place in a unit.",
            explanation=f"Suppose {place(cell)} were {digit} and follow {how} that forces: "
            "some cell is left with no candidate, or some digit with no place in a unit. "
            f"So {place(cell)} is not {digit}.",
            result=f"So {place(cell)} is not {digit}.",
        )
    choices = _choices(board)
    found = _first_common(board, choices, options, trials)
    if found is None:
        return None
    k, placed = found
    where, digit, chosen = choices[k]
    rating = _rating(finder, _common_length(board, chosen, placed)) if traced else None
    if digit < 0:
        cell, digits = where, [d for _, d in chosen]
        return step(
            finder,
            rating=rating,
            placements=placed,
            cells=[cell, *(c for c, _ in placed)],
            area=[cell],
            region=place(cell),
            reason=f"{place(cell).capitalize()} is {either(digits)}. Follow {how} each "
            "choice forces: the same digits end up in the same cells every time.",
            result=f"So {join(f'{place(c)} is {d}' for c, d in placed)}.",
        )
    unit, cells = where, [c for c, _ in chosen]
    return step(
        finder,
        rating=rating,
        placements=placed,
        cells=[*cells, *(c for c, _ in placed)],
        units=[unit],
        region=unit_name(unit),
        reason=f"In {unit_name(unit)}, {digit} goes in one of "
        f"{cells_text(cells)}. Follow {how} each choice forces: the same "
        "digits end up in the same cells every time.",
        result=f"So {join(f'{place(c)} is {d}' for c, d in placed)}.",
    )


def forcing_chain(board: Board) -> Step | None:
    """Options whose singles lead to a contradiction, or all to the same placement."""
    return _forcing(board, kernel.SINGLES, "forcing_chain")


def dynamic_forcing_chain(board: Board) -> Step | None:
    """The same, following locked candidates and pairs as well as singles."""
    return _forcing(board, kernel.MEDIUM, "dynamic_forcing_chain")


def trial_and_error(board: Board) -> Step | None:
    """The last resort: search settles the cell with the fewest candidates."""
    open_cells = [c for c in range(81) if not board.values[c]]
    if not open_cells:
        return None
    solution = kernel.solve(board.grid())
    if solution is None:
        return None
    cell = min(open_cells, key=lambda c: (board.cands[c].bit_count(), c))
    digit = int(solution[cell])
    others = [d for d in board.digits(cell) if d != digit]
    return step(
        "trial_and_error",
        placements=[(cell, digit)],
        cells=[cell],
        area=[cell],
        region=place(cell),
        reason="No pattern settles this position. Take a cell of "
        f"{unit_name(18 + BOX_OF[cell])} with the fewest candidates, try each in turn and "
        "search on: all but one lead nowhere.",
        explanation="No pattern settles this position. Try each candidate of "
        f"{place(cell)} in turn and search on"
        + (
            f": {digits_text(others)} {'leads' if len(others) == 1 else 'lead'} nowhere."
            if others
            else "."
        )
        + f" So {place(cell)} is {digit}.",
        result=f"So {place(cell)} is {digit}.",
    )
