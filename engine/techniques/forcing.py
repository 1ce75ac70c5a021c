"""Forcing chains: try each option of a cell or unit, follow what it forces, keep what is
common or drop what contradicts. The following is done by the compiled propagation."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import kernel
from ..board import Board, Link, Step
from ..grid import ALL, BIT, BOX_OF, DIGITS_OF, PEERS, UNITS, UNITS_OF, unit_name
from ..i18n import N_, _, ngettext
from ..wording import cells_text, digits_text, either, join, place, sentence
from .chains import chain_rating
from .table import entry_of, step

# A forcing chain of singles: its rating grows with its length but stays below the dynamic
# chains', as the tiers rise.
TOP_FORCING_RATING = 8.9

Node = tuple[int, int, bool]  # (cell, digit, true or false)


class _Trace:
    """Singles followed from an assumption, each conclusion with the ones it came from, as
    Sudoku Explainer's chains keep them: its length is what the chain is rated by. A
    dynamic trace also follows locked candidates and pairs once the singles are done, as
    the dynamic chains' propagation does (kernel.MEDIUM), each elimination resting on the
    candidates gone that made the pattern."""

    def __init__(self, board: Board, cell: int, digit: int, dynamic: bool = False) -> None:
        self.dynamic = dynamic
        # How a dynamic trace's pattern took a candidate out: ("pointing", box, line),
        # ("claiming", line, box), ("naked", unit, cells, digits) or ("hidden", unit, cells,
        # digits).
        self.how: dict[Node, tuple] = {}
        self.start = board.cands
        self.values = list(board.values)
        self.cands = list(board.cands)
        self.why: dict[Node, tuple[Node, ...]] = {}
        self.broken: tuple[Node, ...] | None = None  # what a contradiction came from
        # The contradiction: ("cell", cell) left with no candidate, ("unit", unit, digit)
        # with no place for the digit, or ("twice", cell, digit) placed over another digit.
        self.dead: tuple[str, int, int] | None = None
        self._put(cell, digit, ())
        self._follow()

    @classmethod
    def within(cls, outer: _Trace, cell: int, digit: int, dynamic: bool) -> _Trace:
        """An inner trace: an assumption followed from where the outer trace has got to,
        its removals resting on the outer's (the nodes it rests on outside its own `why`)."""
        trace = cls.__new__(cls)
        trace.dynamic, trace.how, trace.start = dynamic, {}, outer.start
        trace.values, trace.cands = list(outer.values), list(outer.cands)
        trace.why, trace.broken, trace.dead = {}, None, None
        trace._put(cell, digit, ())
        trace._follow()
        return trace

    def _put(self, cell: int, digit: int, parents: tuple[Node, ...]) -> None:
        if self.values[cell]:
            if self.values[cell] != digit and self.broken is None:
                self.broken = (*parents, (cell, self.values[cell], True))
                self.dead = ("twice", cell, digit)
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
        while True:
            self._singles()
            if self.broken is not None or not self.dynamic:
                return
            if not (self._locked() or self._pairs()):
                return

    def _drop_all(self, cells, mask: int, parents: tuple[Node, ...], how: tuple) -> bool:
        """Take the digits of `mask` out of every one of the cells, by the pattern `how`;
        whether any was there."""
        dropped = False
        for cell in cells:
            gone = self.cands[cell] & mask
            if self.values[cell] or not gone:
                continue
            self.cands[cell] &= ~gone
            for digit in DIGITS_OF[gone]:
                node = (cell, digit, False)
                if node not in self.why:
                    self.why[node], self.how[node] = parents, how
            dropped = True
        return dropped

    def _gone(self, cells, mask: int) -> tuple[Node, ...]:
        """The candidates of `mask` the trace took out of the cells (a cell placed loses all
        but its digit): what a pattern rests on."""
        return tuple(
            (c, d, False)
            for c in cells
            for d in DIGITS_OF[self.start[c] & ~self.cands[c] & mask]
            if d != self.values[c]
        )

    def _locked(self) -> bool:
        """Pointing and claiming, as the kernel finds them, each once."""
        cands = self.cands
        for box in range(18, 27):
            for line in range(18):
                inter = [c for c in UNITS[line] if c in UNITS[box]]
                if len(inter) != 3:
                    continue
                for digit in range(1, 10):
                    bit = BIT[digit]
                    if not any(cands[c] & bit for c in inter):
                        continue
                    box_rest = [c for c in UNITS[box] if c not in inter]
                    line_rest = [c for c in UNITS[line] if c not in inter]
                    if not any(cands[c] & bit for c in box_rest):
                        why = self._gone(box_rest, bit)
                        if self._drop_all(line_rest, bit, why, ("pointing", box, line)):
                            return True
                    if not any(cands[c] & bit for c in line_rest):
                        why = self._gone(line_rest, bit)
                        if self._drop_all(box_rest, bit, why, ("claiming", line, box)):
                            return True
        return False

    def _pairs(self) -> bool:
        """Naked and hidden pairs, as the kernel finds them, each once."""
        cands = self.cands
        for unit in range(27):
            cells = UNITS[unit]
            for i, a in enumerate(cells):
                m = cands[a]
                if len(DIGITS_OF[m]) != 2:
                    continue
                for b in cells[i + 1 :]:
                    if cands[b] != m:
                        continue
                    why = self._gone((a, b), ALL)
                    rest = [c for c in cells if c not in (a, b)]
                    if self._drop_all(rest, m, why, ("naked", unit, (a, b), DIGITS_OF[m])):
                        return True
            where = {d: [c for c in cells if cands[c] & BIT[d]] for d in range(1, 10)}
            for d in range(1, 10):
                if len(where[d]) != 2:
                    continue
                for e in range(d + 1, 10):
                    if where[e] != where[d]:
                        continue
                    keep = BIT[d] | BIT[e]
                    rest = [c for c in cells if c not in where[d]]
                    why = self._gone(rest, keep)
                    how = ("hidden", unit, tuple(where[d]), (d, e))
                    if self._drop_all(where[d], ALL & ~keep, why, how):
                        return True
        return False

    def _singles(self) -> None:
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
                        self.broken, self.dead = gone, ("cell", cell, 0)
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
                        self.broken, self.dead = gone, ("unit", unit, digit)
                        return
                    self._put(where[0], digit, tuple(n for n in gone if n[0] != where[0]))
                    changed = True
                    if self.broken is not None:
                        return

    def resting(self, nodes: tuple[Node, ...]) -> set[Node]:
        """The conclusions the nodes rest on, themselves and the assumption included."""
        seen: set[Node] = set()
        todo = list(nodes)
        while todo:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                todo.extend(self.why.get(node, ()))
        return seen

    def size(self, nodes: tuple[Node, ...]) -> int:
        """How many conclusions the nodes rest on, themselves and the assumption included."""
        return len(self.resting(nodes))


# How a chain's assumption is followed: a trace of it in a position.
Follow = Callable[[Board, int, int], _Trace]


# A chain told link by link, from a trace: the conclusions an end rests on, in the order the
# singles drew them, each in words and in the notation HoDoKu prints ("r1c3=9 -> r1c1<>9"),
# and drawn as candidates on and off with the links between them. Worked out only when a
# step is told, never while a solve looks for one.


def _short(cell: int) -> str:
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def _noted(node: Node) -> str:
    cell, digit, true = node
    return f"{_short(cell)}{'=' if true else '<>'}{digit}"


def _line(trace: _Trace, ends: tuple[Node, ...]) -> list[Node]:
    """The conclusions the ends rest on, the assumption first, in the order drawn (an inner
    trace's own only: what it rests on of the outer's is the outer's to tell)."""
    seen = trace.resting(ends)
    order = {node: k for k, node in enumerate(trace.why)}
    return sorted((n for n in seen if n in order), key=order.__getitem__)


def _noted_in(trace: _Trace, node: Node) -> str:
    """A node in the notation; one an inner chain took out carries that chain in brackets,
    as Sudoku Explainer shows a nested chain's inner ones."""
    how = trace.how.get(node)
    if how is None or how[0] != "inner":
        return _noted(node)
    inner = how[1]
    links = [_noted_in(inner, n) for n in _line(inner, inner.broken)]
    return f"{_noted(node)} [{' -> '.join([*links, _dead_told(inner)[1]])}]"


def _unit_of(cells: list[int]) -> int:
    """A unit that holds all the cells (rows first, then columns, then boxes)."""
    return next(u for u in UNITS_OF[cells[0]] if all(c in UNITS[u] for c in cells))


def _said(trace: _Trace, node: Node) -> str:
    """Why the trace concluded the node, in a sentence."""
    cell, digit, true = node
    parents = trace.why.get(node, ())
    if not parents:
        return _("Suppose {place} is {digit}.").format(place=place(cell), digit=digit)
    if true:
        if all(p[0] == cell for p in parents):
            said = _("{place} is {digit}: its last candidate.")
            return sentence(said.format(place=place(cell), digit=digit))
        unit = _unit_of([cell, *(p[0] for p in parents)])
        # Translators: {unit} is a row, column or box, "box 2".
        said = _("{place} is {digit}: the last place for {digit} in {unit}.")
        return sentence(said.format(place=place(cell), digit=digit, unit=unit_name(unit)))
    if node in trace.how:
        return _pattern_said(trace, node)
    (other, held, _placed), *_rest = parents
    if other == cell:
        # Translators: {held} is the digit the cell holds.
        said = _("{place} is not {digit}: it is {held}.")
        return sentence(said.format(place=place(cell), digit=digit, held=held))
    # Translators: {other} is another cell, "row 1, column 4", that holds the digit.
    said = _("{place} is not {digit}: it sees {other}, which is {digit}.")
    return sentence(said.format(place=place(cell), digit=digit, other=place(other)))


def _pattern_said(trace: _Trace, node: Node) -> str:
    """Why a dynamic trace took a candidate out by locked candidates or a pair."""
    cell, digit, _true = node
    what, unit, *more = trace.how[node]
    if what == "inner":
        return _inner_said(node, unit)
    if what in ("pointing", "claiming"):
        (other,) = more
        # Translators: locked candidates. {unit} and {other} are a box and a row or column,
        # "box 2", "row 3".
        said = _("{place} is not {digit}: in {unit}, {digit} is left only in {other}.")
        return sentence(
            said.format(
                place=place(cell), digit=digit, unit=unit_name(unit), other=unit_name(other)
            )
        )
    if what == "naked":
        (a, b), pair = more
        # Translators: a naked pair. {cells} are two cells, {digits} their two digits, "3 and 7".
        said = _("{place} is not {digit}: {cells} hold only {digits}, a pair it sees.")
        return sentence(
            said.format(
                place=place(cell), digit=digit, cells=cells_text([a, b]), digits=digits_text(pair)
            )
        )
    cells, digits = more
    (other,) = [c for c in cells if c != cell]
    # A hidden pair in a row, a column or a box: a sentence for each, the unit's word in it.
    if unit < 9:
        said = _(
            # Translators: a hidden pair. {other} is another cell, {digits} two digits, "3 and 7".
            "{place} is not {digit}: it and {other} are the last places for {digits} in their "
            "row, a hidden pair."
        )
    elif unit < 18:
        said = _(
            # Translators: a hidden pair. {other} is another cell, {digits} two digits, "3 and 7".
            "{place} is not {digit}: it and {other} are the last places for {digits} in their "
            "column, a hidden pair."
        )
    else:
        said = _(
            # Translators: a hidden pair. {other} is another cell, {digits} two digits, "3 and 7".
            "{place} is not {digit}: it and {other} are the last places for {digits} in their "
            "box, a hidden pair."
        )
    return sentence(
        said.format(place=place(cell), digit=digit, other=place(other), digits=digits_text(digits))
    )


def _inner_said(node: Node, inner: _Trace) -> str:
    """Why a nested trace took a candidate out: an inner chain from it ends in a
    contradiction, named."""
    cell, digit, _true = node
    assert inner.dead is not None
    what, at, other = inner.dead
    if what == "cell":
        said = _(
            # Translators: a nested forcing chain's link. {other} is a cell, "row 3, column 4".
            "{place} is not {digit}: if it were, an inner chain would leave {other} with no "
            "candidate."
        )
        return sentence(said.format(place=place(cell), digit=digit, other=place(at)))
    if what == "unit":
        said = _(
            # Translators: a nested forcing chain's link. {unit} is a row, column or box, "box
            # 2"; {missing} a digit.
            "{place} is not {digit}: if it were, an inner chain would leave {unit} with no place "
            "for {missing}."
        )
        return sentence(
            said.format(place=place(cell), digit=digit, unit=unit_name(at), missing=other)
        )
    said = _(
        # Translators: a nested forcing chain's link. {other} is a cell, "row 3, column 4";
        # {first} and {second} two digits it would hold at once.
        "{place} is not {digit}: if it were, an inner chain would make {other} both {first} and "
        "{second}."
    )
    return sentence(
        said.format(
            place=place(cell), digit=digit, other=place(at), first=inner.values[at], second=other
        )
    )


def _dead_told(trace: _Trace) -> tuple[str, str]:
    """The contradiction in words and in the notation."""
    assert trace.dead is not None
    what, at, digit = trace.dead
    if what == "cell":
        return (
            sentence(_("{place} is left with no candidate.").format(place=place(at))),
            # Translators: the end of a chain in notation; {cell} is a cell as r2c5.
            _("{cell} has no candidate").format(cell=_short(at)),
        )
    if what == "unit":
        name = unit_name(at)
        # Translators: {unit} is a row, column or box, "box 2".
        said = _("{unit} is left with no place for {digit}.")
        return (
            sentence(said.format(unit=name, digit=digit)),
            # Translators: the end of a chain in notation; {unit} is a row, column or box.
            _("no {digit} in {unit}").format(digit=digit, unit=name),
        )
    first = trace.values[at]
    # Translators: {first} and {digit} are two digits the cell would hold at once.
    said = _("{place} would be both {first} and {digit}.")
    return (
        sentence(said.format(place=place(at), first=first, digit=digit)),
        # Translators: the end of a chain in notation, "r2c5=3 and r2c5=7": a cell placed
        # twice. Only the word "and" is to translate.
        _("{cell}={first} and {cell}={digit}").format(cell=_short(at), first=first, digit=digit),
    )


def _drawn(
    trace: _Trace, nodes: list[Node]
) -> tuple[set[tuple[int, int]], set[tuple[int, int]], list[Link]]:
    """The candidates a branch marks true and false, and its links: strong where a
    candidate false makes another true, weak where one true makes another false."""
    on = {(c, d) for c, d, true in nodes if true}
    off = {(c, d) for c, d, true in nodes if not true}
    kept = set(nodes)
    links: list[Link] = []
    for node in nodes:
        if node in trace.how:
            continue  # a pattern's removal: no strong or weak link between two candidates
        for parent in trace.why.get(node, ()):
            if parent in kept:
                kind = "weak" if parent[2] else "strong"
                links.append((parent[0], parent[1], node[0], node[1], kind))
    return on, off, links


def _follower(dynamic: bool) -> Follow:
    return lambda board, cell, digit: _Trace(board, cell, digit, dynamic)


def _told_contradiction(
    board: Board,
    cell: int,
    digit: int,
    how: str,
    kind_of: str,
    follow: Follow,
) -> dict | None:
    """A single assumption followed to a contradiction, link by link (by `follow`: singles,
    with locked candidates and pairs when dynamic, or inner chains when nested); None when
    the following does not reach it."""
    trace = follow(board, cell, digit)
    if trace.broken is None:
        return None
    nodes = _line(trace, trace.broken)
    dead, dead_noted = _dead_told(trace)
    on, off, links = _drawn(trace, nodes)
    return {
        "kind": kind_of,
        "region": place(cell),
        "area": [cell],
        "cause": sorted({c for c, *_rest in nodes}),
        # The why, at a hint's second level, does not name the cell that changes.
        "reason": _(
            # Translators: {box} is a box, "box 2"; {how} what is followed, "the singles" or "the
            # singles, locked candidates and pairs"; {contradiction} a sentence, "Row 3, column 4
            # is left with no candidate."
            "One candidate in {box} cannot be true: suppose it were and follow {how} that "
            "forces, link by link: it ends in a contradiction. {contradiction}"
        ).format(box=unit_name(18 + BOX_OF[cell]), how=_(how), contradiction=dead),
        "explanation": _(
            # Translators: {how} is what is followed, "the singles" or "the singles, locked
            # candidates and pairs"; {contradiction} a sentence, "Row 3, column 4 is left with no
            # candidate."
            "Suppose {place} were {digit} and follow {how} that forces, link by link: it ends "
            "in a contradiction. {contradiction} So {place} is not {digit}."
        ).format(place=place(cell), digit=digit, how=_(how), contradiction=dead),
        "result": _("So {place} is not {digit}.").format(place=place(cell), digit=digit),
        "chain": [*(_said(trace, n) for n in nodes), dead],
        "notation": [" -> ".join([*(_noted_in(trace, n) for n in nodes), dead_noted])],
        "on": on,
        "off": off,
        "links": links,
    }


def _told_branches(
    board: Board, chosen: list[tuple[int, int]], placed: list[tuple[int, int]], follow: Follow
) -> dict | None:
    """Each choice followed to the placement they all lead to (the one with the fewest
    links), branch by branch; None when the following does not reach it."""
    traces = [follow(board, c, d) for c, d in chosen]
    if any(
        t.broken is not None or not all((c, d, True) in t.why for c, d in placed) for t in traces
    ):
        return None
    end = min(placed, key=lambda p: sum(t.size(((p[0], p[1], True),)) for t in traces))
    chain, notation, on, off, links = [], [], set(), set(), []
    for (c, d), trace in zip(chosen, traces, strict=True):
        nodes = _line(trace, ((end[0], end[1], True),))
        # Translators: the head of a branch of a forcing chain, the lines below it following.
        chain.append(_("If {place} is {digit}:").format(place=place(c), digit=d))
        chain.extend(_said(trace, n) for n in nodes[1:])
        notation.append(" -> ".join(_noted_in(trace, n) for n in nodes))
        these = _drawn(trace, nodes)
        on |= these[0]
        off |= these[1]
        links.extend(these[2])
    return {
        "end": end,
        "chain": chain,
        "notation": notation,
        "on": on,
        "off": off - on,
        "links": links,
    }


def _rating(finder: str, nodes: int) -> float:
    """A forcing chain's rating: its technique's, and what its length adds (Sudoku
    Explainer counts the nodes of every branch, less the two ends). The forcing chains of
    singles stay below the dynamic chains', which start at 9.0: a master puzzle never
    scores above an extreme one."""
    rating = chain_rating(entry_of(finder).rating, nodes - 2)
    return rating if finder != "forcing_chain" else min(rating, TOP_FORCING_RATING)


def _contradiction_length(board: Board, cell: int, digit: int, dynamic: bool) -> int:
    trace = _Trace(board, cell, digit, dynamic)
    return trace.size(trace.broken or ()) + 1


def _common_length(board: Board, options: list[tuple[int, int]], placed, dynamic: bool) -> int:
    traces = [_Trace(board, c, d, dynamic) for c, d in options]
    return min(sum(t.size(((c, d, True),)) for t in traces) for c, d in placed)


def _position(board: Board) -> np.ndarray:
    return _position_of(board.values, board.cands)


def _position_of(values: list[int], cands: list[int]) -> np.ndarray:
    """The kernel's position array: a placed digit's bit marked done, else the candidates."""
    return np.array(
        [BIT[v] | kernel.DONE if v else m for v, m in zip(values, cands, strict=True)], np.int32
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
    for _where, _digit, these in choices:
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
    # Translators: what a forcing chain follows, said in "follow {how} that forces".
    singles = N_("the singles")
    # Translators: what a dynamic forcing chain follows, said in "follow {how} that forces".
    more = N_("the singles, locked candidates and pairs")
    how = singles if level == kernel.SINGLES else more
    dynamic = level != kernel.SINGLES
    options, trials, false = _trials(board, level)
    if false is not None:
        cell, digit = options[false]
        nodes = _contradiction_length(board, cell, digit, dynamic)
        seen = _copy(board)  # the step is told later, from the position as it is now

        def told_contradiction() -> dict:
            return _told_contradiction(
                seen, cell, digit, how, "contradiction", _follower(dynamic)
            ) or {
                "kind": "contradiction",
                "region": place(cell),
                "area": [cell],
                "reason": _(
                    # Translators: {box} is a box, "box 2"; {how} what is followed, "the singles"
                    # or "the singles, locked candidates and pairs".
                    "One candidate in {box} cannot be true: suppose it were and follow {how} "
                    "that forces, and some cell is left with no candidate, or some digit with "
                    "no place in a unit."
                ).format(box=unit_name(18 + BOX_OF[cell]), how=_(how)),
                "explanation": _(
                    # Translators: {how} is what is followed, "the singles" or "the singles,
                    # locked candidates and pairs".
                    "Suppose {place} were {digit} and follow {how} that forces: some cell is "
                    "left with no candidate, or some digit with no place in a unit. So {place} "
                    "is not {digit}."
                ).format(place=place(cell), digit=digit, how=_(how)),
                "result": _("So {place} is not {digit}.").format(place=place(cell), digit=digit),
            }

        return step(
            finder,
            rating=_rating(finder, nodes),
            eliminations=[(cell, digit)],
            cells=[cell],
            tell=told_contradiction,
            **_early("contradiction", place(cell), [cell]),
        )
    choices = _choices(board)
    found = _first_common(board, choices, options, trials)
    if found is None:
        return None
    k, placed = found
    where, digit, chosen = choices[k]
    rating = _rating(finder, _common_length(board, chosen, placed, dynamic))
    seen = _copy(board)
    if digit < 0:
        cell, digits = where, [d for _d, d in chosen]

        def cell_reason(end: tuple[int, int] | None = None) -> str:
            """The why; with the end every branch reaches, said as that end."""
            if end is None:
                said = _(
                    # Translators: {digits} are the cell's candidates, "3, 5 or 7"; {how} what is
                    # followed, "the singles" or "the singles, locked candidates and pairs".
                    "{place} is {digits}. Follow {how} each choice forces: the same digits end "
                    "up in the same cells every time."
                )
                return sentence(said.format(place=place(cell), digits=either(digits), how=_(how)))
            said = _(
                # Translators: {digits} are the cell's candidates, "3, 5 or 7"; {how} what is
                # followed, "the singles" or "the singles, locked candidates and pairs"; every
                # branch ends with {end_digit} placed in the cell {end}.
                "{place} is {digits}. Follow {how} each choice forces: every branch below ends "
                "with {end_digit} in {end}."
            )
            return sentence(
                said.format(
                    place=place(cell),
                    digits=either(digits),
                    how=_(how),
                    end_digit=end[1],
                    end=place(end[0]),
                )
            )

        def told_cell() -> dict:
            told = {
                "kind": "cell",
                "region": place(cell),
                "area": [cell],
                "reason": cell_reason(),
                "result": _placed_said(placed),
            }
            return told | _branches_told(
                seen, chosen, placed, told, _follower(dynamic), cell_reason
            )

        return step(
            finder,
            rating=rating,
            placements=placed,
            cells=[cell, *(c for c, _d in placed)],
            tell=told_cell,
            **_early("cell", place(cell), [cell]),
        )
    unit, cells = where, [c for c, _d in chosen]

    def unit_reason(end: tuple[int, int] | None = None) -> str:
        """The why; with the end every branch reaches, said as that end."""
        if end is None:
            return _(
                # Translators: {unit} is a row, column or box, "box 2"; {cells} the places of
                # {digit} in it; {how} what is followed, "the singles" or "the singles, locked
                # candidates and pairs".
                "In {unit}, {digit} goes in one of {cells}. Follow {how} each choice forces: the "
                "same digits end up in the same cells every time."
            ).format(unit=unit_name(unit), digit=digit, cells=cells_text(cells), how=_(how))
        return _(
            # Translators: {unit} is a row, column or box, "box 2"; {cells} the places of {digit}
            # in it; {how} what is followed, "the singles" or "the singles, locked candidates and
            # pairs"; every branch ends with {end_digit} placed in the cell {end}.
            "In {unit}, {digit} goes in one of {cells}. Follow {how} each choice forces: every "
            "branch below ends with {end_digit} in {end}."
        ).format(
            unit=unit_name(unit),
            digit=digit,
            cells=cells_text(cells),
            how=_(how),
            end_digit=end[1],
            end=place(end[0]),
        )

    def told_unit() -> dict:
        told = {
            "kind": "unit",
            "region": unit_name(unit),
            "reason": unit_reason(),
            "result": _placed_said(placed),
        }
        return told | _branches_told(seen, chosen, placed, told, _follower(dynamic), unit_reason)

    return step(
        finder,
        rating=rating,
        placements=placed,
        cells=[*cells, *(c for c, _d in placed)],
        units=[unit],
        tell=told_unit,
        **_early("unit", unit_name(unit), sorted(UNITS[unit])),
    )


def _early(kind: str, region: str, area: list[int]) -> dict:
    """A forcing chain's words a hint's first level reads, given with its tell(): its
    links are worked out only past that level."""
    return {"kind": kind, "region": region, "area": area}


def _placed_said(placed: list[tuple[int, int]]) -> str:
    """The placements a forcing chain concludes, in a sentence."""
    # Translators: one placement of several, joined into "So {placements}.".
    each = [_("{place} is {digit}").format(place=place(c), digit=d) for c, d in placed]
    # Translators: {placements} are "row 1, column 2 is 5 and row 4, column 4 is 3".
    return _("So {placements}.").format(placements=join(each))


def _copy(board: Board) -> Board:
    return Board(list(board.values), list(board.cands))


def _branches_told(
    board: Board,
    chosen: list[tuple[int, int]],
    placed: list[tuple[int, int]],
    told: dict,
    follow: Follow,
    reason: Callable[[tuple[int, int]], str] | None = None,
) -> dict:
    """A cell or unit forcing chain's branches, when the following (`follow`, as above)
    reaches the end of each; the why, `reason` given, says the end they reach (else it
    stays `told`'s)."""
    branches = _told_branches(board, chosen, placed, follow)
    if branches is None:
        return {}
    (cell, digit) = branches.pop("end")
    others = [p for p in placed if p != (cell, digit)]
    if others:
        # Translators: one placement of several, "5 in row 1, column 2".
        each = [_("{digit} in {place}").format(digit=d, place=place(c)) for c, d in others]
        result = _(
            # Translators: {others} are the other placements, "5 in row 1, column 2 and 3 in row
            # 4, column 4".
            "So {place} is {digit}: every choice leads there. Each also gives {others}."
        ).format(place=place(cell), digit=digit, others=join(each))
    else:
        result = _("So {place} is {digit}: every choice leads there.").format(
            place=place(cell), digit=digit
        )
    return branches | {
        "reason": reason((cell, digit)) if reason else told["reason"],
        "result": result,
        "cause": sorted({c for c, *_rest in branches["links"]} - {c for c, _d in placed}),
    }


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
    if others:
        explanation = ngettext(
            # Translators: {others} are the cell's other candidates, "3 and 7", that lead nowhere.
            "No pattern settles this position. Try each candidate of {place} in turn and search "
            "on: {others} leads nowhere. So {place} is {digit}.",
            "No pattern settles this position. Try each candidate of {place} in turn and search "
            "on: {others} lead nowhere. So {place} is {digit}.",
            len(others),
        ).format(place=place(cell), others=digits_text(others), digit=digit)
    else:
        explanation = _(
            "No pattern settles this position. Try each candidate of {place} in turn and search "
            "on. So {place} is {digit}."
        ).format(place=place(cell), digit=digit)
    return step(
        "trial_and_error",
        placements=[(cell, digit)],
        cells=[cell],
        area=[cell],
        region=place(cell),
        reason=_(
            # Translators: {box} is a box, "box 2".
            "No pattern settles this position. Take a cell of {box} with the fewest candidates, "
            "try each in turn and search on: all but one lead nowhere."
        ).format(box=unit_name(18 + BOX_OF[cell])),
        explanation=explanation,
        result=_("So {place} is {digit}.").format(place=place(cell), digit=digit),
    )
