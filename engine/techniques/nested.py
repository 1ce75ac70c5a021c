"""Nested forcing chains: try each option of a cell or unit and follow what it forces, where
the following itself uses forcing chains, the level below's, to take out candidates that
lead nowhere. As in Sudoku Explainer's "Nested Forcing Chains", the levels differ by what the
inner chains may use:

- level 1: inner chains follow singles (an inner forcing chain by contradiction);
- level 2: inner chains follow singles, locked candidates and pairs (inner dynamic chains).

A third level, inner chains nested themselves, is not tried: where the two below find
nothing it would cost a minute a position, and no puzzle of the public hardest lists needs
even level 2.

Every level's following also applies singles, locked candidates and pairs between the inner
chains. The following is compiled (the kernel's propagation inside); each position's answer
is kept, so a hint and a grade of the same position pay once.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from .. import kernel
from ..board import Board, Step
from ..grid import ALL, BIT, BOX_OF, DIGITS_OF, POPCOUNT, UNITS, unit_name
from ..i18n import N_, _
from ..kernel import DONE, MEDIUM, SINGLES, compiled
from ..kernel import _propagate as _kernel_propagate
from ..wording import cells_text, either, join, place, sentence
from .chains import chain_rating
from .forcing import (
    Follow,
    _branches_told,
    _choices,
    _copy,
    _early,
    _position,
    _position_of,
    _told_contradiction,
    _Trace,
)
from .table import entry_of, step

# The levels tried (switched off in tests to reach trial and error).
LEVELS = (1, 2)
# Positions whose answer is kept, per level (a grade and the hints on it share them).
KEPT = 256

_POP = np.array(POPCOUNT, dtype=np.int32)


@compiled
def _removed(before, after):
    """How many candidates the trial took out of the position (its consequences)."""
    n = 0
    for c in range(81):
        n += _POP[before[c] & ALL] - _POP[after[c] & ALL]
    return n


@compiled
def _refute(cand, inner, size):
    """Propagate at the medium level, and take out every candidate whose assumption the
    inner following (SINGLES or MEDIUM propagation) breaks, to a fixed point. The inner
    chains' lengths add to size[0]. False on a contradiction."""
    trial = np.empty(81, np.int32)
    while True:
        if not _kernel_propagate(cand, MEDIUM):
            return False
        changed = False
        for c in range(81):
            m = cand[c]
            if m & DONE:
                continue
            rest = m
            while rest:
                bit = rest & -rest
                rest &= ~bit
                trial[:] = cand
                trial[c] = bit
                if not _kernel_propagate(trial, inner):
                    size[0] += 1 + _removed(cand, trial)
                    cand[c] &= ~bit
                    if cand[c] == 0:
                        return False
                    changed = True
        if not changed:
            return True


@compiled
def _follow(base, cells, bits, level, trials, sizes, ok):
    """Each option (cells[k], bits[k]) assumed in its own row of trials and followed at the
    nesting level; ok[k] False where it runs into a contradiction, sizes[k] the length of
    what it took (its own consequences and its inner chains'). Stops at the first
    contradiction: the number of options followed."""
    acc = np.zeros(1, np.int64)
    for k in range(cells.shape[0]):
        trial = trials[k]
        trial[:] = base
        trial[cells[k]] = bits[k]
        acc[0] = 0
        good = _refute(trial, SINGLES if level == 1 else MEDIUM, acc)
        ok[k] = good
        sizes[k] = acc[0] + _removed(base, trial)
        if not good:
            return k + 1
    return cells.shape[0]


@compiled
def _refutable(cand, inner, out):
    """out[c]: the candidates of cell c whose assumption the inner following (SINGLES or
    MEDIUM propagation) breaks, in the position as it is."""
    trial = np.empty(81, np.int32)
    for c in range(81):
        out[c] = 0
        m = cand[c]
        if m & DONE:
            continue
        rest = m
        while rest:
            bit = rest & -rest
            rest &= ~bit
            trial[:] = cand
            trial[c] = bit
            if not _kernel_propagate(trial, inner):
                out[c] |= bit


def warm() -> None:
    """The kernel a nested chain's telling calls, compiled or loaded."""
    _refutable(np.full(81, ALL, np.int32), SINGLES, np.zeros(81, np.int32))


class _NestedTrace(_Trace):
    """A nested chain's assumption followed as the compiled search follows it, link by
    link: singles, locked candidates and pairs, and, where those stop, every candidate an
    inner chain (the level's) refutes taken out, resting on the outer links that inner
    chain used. Worked out only when a step is told."""

    def __init__(self, board: Board, cell: int, digit: int, level: int) -> None:
        self.inner = SINGLES if level == 1 else MEDIUM
        super().__init__(board, cell, digit, dynamic=True)

    def _follow(self) -> None:
        while True:
            super()._follow()
            if self.broken is not None or not self._inner_chains():
                return

    def _inner_chains(self) -> bool:
        """Take out the first candidate an inner chain refutes; whether there was one. One
        at a time, the outer following in between, so that each inner chain starts from
        all the outer one has concluded and rests on its own assumption."""
        cand = _position_of(self.values, self.cands)
        out = np.zeros(81, np.int32)
        _refutable(cand, self.inner, out)
        for cell in np.flatnonzero(out).tolist():
            for digit in DIGITS_OF[int(out[cell])]:
                inner = _Trace.within(self, cell, digit, self.inner != SINGLES)
                if inner.broken is None:  # the compiled following and this one disagree
                    continue
                node = (cell, digit, False)
                rests = inner.resting(inner.broken)
                self.why[node] = tuple(n for n in rests if n not in inner.why)
                self.how[node] = ("inner", inner)
                self.cands[cell] &= ~BIT[digit]
                return True
        return False


def _follower(level: int) -> Follow:
    return lambda board, cell, digit: _NestedTrace(board, cell, digit, level)


def _finder_of(level: int) -> str:
    return "nested_forcing_chain" if level == 1 else f"nested_forcing_chain_{level}"


_kept: dict[int, OrderedDict] = {level: OrderedDict() for level in (1, 2)}


def forget() -> None:
    """Drop the positions kept (for measuring a search afresh)."""
    for kept in _kept.values():
        kept.clear()


def _found(board: Board, level: int) -> tuple | None:
    """A conclusion at the level in the position: the first candidate found false, cells
    with fewest candidates tried first, as ("false", cell, digit, size), else the shortest
    choice whose options agree, as ("common", choice, placements, size); None when there is
    none. Kept per position."""
    key = (tuple(board.values), tuple(board.cands))
    kept = _kept[level]
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    answer = _search(board, level)
    kept[key] = answer
    if len(kept) > KEPT:
        kept.popitem(last=False)
    return answer


def _search(board: Board, level: int) -> tuple | None:
    # The cells with fewest candidates first: their contradictions come soonest.
    order = sorted(range(81), key=lambda c: (POPCOUNT[board.cands[c]], c))
    options = [(cell, digit) for cell in order for digit in DIGITS_OF[board.cands[cell]]]
    if not options:
        return None
    base = _position(board)
    cells = np.array([c for c, _ in options], np.int32)
    bits = np.array([BIT[d] for _, d in options], np.int32)
    trials = np.empty((len(options), 81), np.int32)
    sizes = np.zeros(len(options), np.int64)
    ok = np.zeros(len(options), np.bool_)
    followed = _follow(base, cells, bits, level, trials, sizes, ok)
    if followed < len(options) or not ok[-1]:
        cell, digit = options[followed - 1]
        return ("false", cell, digit, int(sizes[followed - 1]))
    best: tuple | None = None
    row = {option: k for k, option in enumerate(options)}
    placed = kernel.placed(trials)
    empty = np.array(board.values) == 0
    for choice in _choices(board):
        at = [row[o] for o in choice[2]]
        first = placed[at[0]]
        same = (placed[at] == first).all(axis=0) & empty & (first > 0)
        if not same.any():
            continue
        size = int(sizes[at].sum())
        if best is None or size < best[3]:
            common = [(int(c), int(first[c])) for c in np.flatnonzero(same)]
            best = ("common", choice, common, size)
    return best


def _rating(level: int, size: int) -> float:
    """The level's rating and what the length adds, as Sudoku Explainer grows it."""
    return chain_rating(entry_of(_finder_of(level)).rating, size)


# What each level follows, said in "follow {how}" when a step is told (with _()).
_HOW = {
    # Translators: what a nested forcing chain follows, said in "follow {how}".
    1: N_("what it forces, taking out on the way any digit whose own singles lead to a dead end"),
    2: N_(
        # Translators: what a nested forcing chain follows, said in "follow {how}".
        "what it forces, taking out on the way any digit whose own chain of singles, locked "
        "candidates and pairs leads to a dead end"
    ),
}


# What each level's chain follows, told link by link, said in "follow {how} that forces".
_HOW_TOLD = {
    # Translators: what a nested forcing chain follows, said in "follow {how} that forces".
    1: N_("the singles, locked candidates and pairs, and the inner chains of singles"),
    # Translators: what a nested forcing chain follows, said in "follow {how} that forces".
    2: N_("the singles, locked candidates and pairs, and the inner dynamic chains"),
}


def _nested(board: Board, level: int) -> Step | None:
    found = _found(board, level)
    if found is None:
        return None
    finder, how = _finder_of(level), _(_HOW[level])
    kind, where, what, size = found
    rating = _rating(level, size)
    seen, follow = _copy(board), _follower(level)
    if kind == "false":
        cell, digit = where, what
        said = {
            "kind": "contradiction",
            "area": [cell],
            "region": place(cell),
            # The why, at a hint's second level, does not name the cell that changes.
            "reason": _(
                # Translators: {box} is a box, "box 2"; {how} what is followed, "what it forces,
                # taking out on the way any digit whose own singles lead to a dead end".
                "One candidate in {box} cannot be true: suppose it were and follow {how}, and "
                "some cell is left with no candidate, or some digit with no place in a unit."
            ).format(box=unit_name(18 + BOX_OF[cell]), how=how),
            "explanation": _(
                # Translators: {how} is what is followed, "what it forces, taking out on the way
                # any digit whose own singles lead to a dead end".
                "Suppose {place} were {digit} and follow {how}: some cell is left with no "
                "candidate, or some digit with no place in a unit. So {place} is not {digit}."
            ).format(place=place(cell), digit=digit, how=how),
            "result": _("So {place} is not {digit}.").format(place=place(cell), digit=digit),
        }

        def told_contradiction() -> dict:
            how_told = _HOW_TOLD[level]
            told = _told_contradiction(seen, cell, digit, how_told, "contradiction", follow)
            return told or said

        return step(
            finder,
            rating=rating,
            eliminations=[(cell, digit)],
            cells=[cell],
            tell=told_contradiction,
            **_early("contradiction", said["region"], [cell]),
        )
    (at, digit, chosen), placed = where, what
    # Translators: one placement of several, joined into "So {placements}.".
    each = [_("{place} is {digit}").format(place=place(c), digit=d) for c, d in placed]
    # Translators: {placements} are "row 1, column 2 is 5 and row 4, column 4 is 3".
    done = _("So {placements}.").format(placements=join(each))
    if digit < 0:
        digits = [d for _d, d in chosen]
        said = {
            "kind": "cell",
            "area": [at],
            "region": place(at),
            "reason": sentence(
                _(
                    # Translators: {digits} are the cell's candidates, "3, 5 or 7"; {how}
                    # what is followed, "what it forces, taking out on the way any digit
                    # whose own singles lead to a dead end".
                    "{place} is {digits}. For each choice, follow {how}: the same digits end up "
                    "in the same cells every time."
                ).format(place=place(at), digits=either(digits), how=how)
            ),
            "result": done,
        }
        cells = [at, *(c for c, _d in placed)]
    else:
        places = [c for c, _d in chosen]
        said = {
            "kind": "unit",
            "region": unit_name(at),
            "reason": _(
                # Translators: {unit} is a row, column or box, "box 2"; {cells} the places of
                # {digit} in it; {how} what is followed, "what it forces, taking out on the way
                # any digit whose own singles lead to a dead end".
                "In {unit}, {digit} goes in one of {cells}. For each choice, follow {how}: the "
                "same digits end up in the same cells every time."
            ).format(unit=unit_name(at), digit=digit, cells=cells_text(places), how=how),
            "result": done,
        }
        cells = [*places, *(c for c, _d in placed)]

    def told_branches() -> dict:
        return said | _branches_told(seen, chosen, placed, said, follow)

    return step(
        finder,
        rating=rating,
        placements=placed,
        cells=cells,
        units=[] if digit < 0 else [at],
        tell=told_branches,
        **_early(said["kind"], said["region"], [at] if digit < 0 else sorted(UNITS[at])),
    )


def nested_forcing_chain(board: Board) -> Step | None:
    """A forcing chain whose following uses inner forcing chains of singles."""
    return _nested(board, 1) if 1 in LEVELS else None


def nested_forcing_chain_2(board: Board) -> Step | None:
    """A forcing chain whose following uses inner dynamic forcing chains."""
    return _nested(board, 2) if 2 in LEVELS else None
