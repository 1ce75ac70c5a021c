"""Hints on a player's own position: mistakes first, then the easiest logical step, and
the step told in three levels (where to look, why, what follows)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

import numpy as np

from . import kernel
from .board import Board, Step
from .grid import (
    BIT,
    BOX_OF,
    DIGITS_OF,
    PEERS,
    UNITS,
    InvalidPuzzle,
    allowed_mask,
    candidates_of,
    normalise,
    parse,
    unit_name,
)
from .i18n import _, ngettext
from .techniques import find_step
from .techniques.table import told_entry
from .wording import (
    a_digit,
    cells_in,
    cells_text,
    compact_places,
    digits_text,
    join,
    place,
    sentence,
)

CHECKS_RATING = 0.0  # pointing out a mistake is not a solving technique


def _conflict(values: list[int], puzzle: str | None, solution: str | None) -> Step | None:
    """Two equal digits in a unit; with the puzzle known, only the one that is not a given."""
    for unit in range(27):
        seen: dict[int, int] = {}
        for cell in UNITS[unit]:
            digit = values[cell]
            if not digit:
                continue
            if digit in seen:
                return _conflict_step(unit, digit, seen[digit], cell, puzzle, solution)
            seen[digit] = cell
    return None


def _conflict_step(
    unit: int, digit: int, first: int, second: int, puzzle: str | None, solution: str | None
) -> Step:
    """The conflict told: a given is never the one at fault."""
    given = [c for c in (first, second) if puzzle is not None and puzzle[c] != "0"]
    where = unit_name(unit)
    if len(given) == 1:
        (placed,) = {first, second} - set(given)
        return Step(
            "Conflict",
            CHECKS_RATING,
            cells=[placed],
            units=[unit],
            cause=[first, second],
            clears=[placed],
            region=where,
            reason=sentence(
                _(
                    # Translators: {unit} is "row 3" (or column, box); {cells} the given's
                    # cell in it.
                    "{unit} already has the given {digit}, in {cells}, and it can hold each "
                    "digit only once."
                ).format(unit=where, digit=digit, cells=cells_in(unit, given))
            ),
            # Translators: {place} is a cell, "row 2, column 5".
            result=_("So the {digit} in {place} cannot stay: take it out.").format(
                digit=digit, place=place(placed)
            ),
        )
    wrong = [c for c in (first, second) if solution is not None and solution[c] != str(digit)]
    clears = wrong or [first, second]
    return Step(
        "Conflict",
        CHECKS_RATING,
        cells=[first, second],
        units=[unit],
        cause=[first, second],
        clears=clears,
        region=where,
        reason=sentence(
            _(
                # Translators: {unit} is "row 3" (or column, box); {cells} the two cells in it.
                "{unit} holds {digit} twice, in {cells}, and it can hold each digit only once."
            ).format(unit=where, digit=digit, cells=cells_in(unit, [first, second]))
        ),
        # Translators: {cells} are one or two cells, "row 2, column 5".
        result=_("Take the {digit} out of {cells}.").format(digit=digit, cells=cells_text(clears)),
    )


def _mistake(cells: list[int], said: str, result: str, region: str = "") -> Step:
    """A step that names placed digits at fault; applied, it takes them out. Its why names
    only the boxes they are in: the digits at fault are named with what follows."""
    boxes = sorted({BOX_OF[c] for c in cells})
    if len(boxes) == 9:
        reason = _(
            "Something placed in the grid is wrong: the puzzle cannot be finished as the board "
            "stands."
        )
    else:
        reason = ngettext(
            # Translators: {boxes} are box numbers, "3 and 7".
            "Something placed in box {boxes} is wrong: the puzzle cannot be finished as the "
            "board stands.",
            "Something placed in boxes {boxes} is wrong: the puzzle cannot be finished as the "
            "board stands.",
            len(boxes),
        ).format(boxes=join(str(b + 1) for b in boxes))
    return Step(
        "Mistake",
        CHECKS_RATING,
        cells=cells,
        clears=cells,
        region=region or cells_text(cells),
        reason=reason,
        explanation=f"{said} {result}",
        result=result,
    )


def _wrong_digit(values: list[int], solution: str | None) -> Step | None:
    """With the solution known: the first placed digit that differs from it."""
    if solution is None:
        return None
    cell = next((c for c in range(81) if values[c] and values[c] != int(solution[c])), None)
    if cell is None:
        return None
    return _mistake(
        [cell],
        # Translators: {place} is a cell, "row 2, column 5".
        _("The {digit} in {place} is wrong: the puzzle cannot be finished with it there.").format(
            digit=values[cell], place=place(cell)
        ),
        _("Take it out. Everything deduced from it needs another look."),
    )


def _finishable_without(digits: np.ndarray, cells: tuple[int, ...]) -> bool:
    """True when the grid can be finished once the digits in cells are taken out."""
    trial = digits.copy()
    trial[list(cells)] = 0
    return kernel.count_digits(trial, 1)[0] > 0


def _dead_end(values: list[int]) -> Step:
    """Without the puzzle, a grid that cannot be finished: the smallest removals that fix it.

    One digit whose removal lets the grid be finished, else two, else every placed digit
    is under suspicion: whatever happens, the player hears that something placed is wrong.
    """
    digits = np.array(values, np.int32)
    filled = [c for c in range(81) if values[c]]
    singles = [c for c in filled if _finishable_without(digits, (c,))]
    if len(singles) == 1:
        (cell,) = singles
        return _mistake(
            singles,
            _(
                # Translators: {place} is a cell, "row 2, column 5".
                "The {digit} in {place} is wrong: the grid cannot be finished with it there, "
                "and it can without it."
            ).format(digit=values[cell], place=place(cell)),
            _("Take it out."),
        )
    if singles:
        return _mistake(
            singles,
            _(
                # Translators: {cells} are cells, "row 2, columns 5 and 7".
                "One of the digits in {cells} is wrong: the grid cannot be finished with all of "
                "them, but it can without any one of them."
            ).format(cells=cells_text(singles)),
            _("Take out the one you are least sure of."),
        )
    pairs = _pairs_that_fix(digits, filled)
    if len(pairs) == 1:
        cells = list(pairs[0])
        return _mistake(
            cells,
            _(
                # Translators: {cells} are two cells, "row 2, columns 5 and 7".
                "The digits in {cells} cannot both stay: the grid cannot be finished with them, "
                "nor with either one of them alone, but it can without both."
            ).format(cells=cells_text(cells)),
            _("Take them both out."),
        )
    if pairs:
        cells = sorted({c for pair in pairs for c in pair})
        a, b = pairs[0]
        return _mistake(
            cells,
            _(
                # Translators: {cells} are cells, "row 2, columns 5 and 7"; {first} and {second}
                # two of them, "row 2, column 5".
                "At least two of the digits in {cells} are wrong: the grid cannot be finished as "
                "it is, nor by taking out any one digit, but it can by taking out two of these "
                "(for instance {first} and {second})."
            ).format(cells=cells_text(cells), first=place(a), second=place(b)),
            _("Take out the ones you are least sure of."),
        )
    return _mistake(
        filled,
        _(
            "The grid cannot be finished: some of the placed digits are wrong, more than two of "
            "them."
        ),
        _("Take out the digits you are least sure of, or start again from the givens."),
        region=_("the whole grid"),
    )


def _pairs_that_fix(digits: np.ndarray, filled: list[int]) -> list[tuple[int, int]]:
    """The pairs of placed digits whose removal lets the grid be finished.

    A grid without a repeated digit that cannot be finished has at most 80 placed digits,
    so at most 3,160 pairs, each counted on a grid with two holes more: under 10 ms in all.
    """
    return [pair for pair in combinations(filled, 2) if _finishable_without(digits, pair)]


def _candidates(
    grid: str, notes: Sequence[Iterable[int]] | None, complete: Sequence[bool] | None
) -> list[int]:
    """The candidates the placed digits allow, narrowed by the notes of the cells whose
    notes are a complete list (all cells with notes, when complete is not given)."""
    cands = candidates_of(grid)
    if notes is None:
        return cands
    if len(notes) != 81:
        raise InvalidPuzzle(f"candidates need one entry per cell, 81, not {len(notes)}")
    if complete is not None and len(complete) != 81:
        raise InvalidPuzzle(f"complete needs one entry per cell, 81, not {len(complete)}")
    for cell, digits in enumerate(notes):
        mask = 0
        for d in digits:
            if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 9:
                raise InvalidPuzzle(f"the candidates of {place(cell)} hold {d!r}, not a digit 1-9")
            mask |= BIT[d]
        if mask and (complete is None or complete[cell]):
            cands[cell] &= mask
    return cands


def _missing_note(values: list[int], cands: list[int], solution: str | None) -> Step | None:
    """A cell whose candidates (a complete list of notes, narrowed by the player) no
    longer hold the digit that belongs there."""
    if solution is None:
        return None
    for cell in range(81):
        if not values[cell] and not cands[cell] & BIT[int(solution[cell])]:
            back = [(cell, d) for d in DIGITS_OF[allowed_mask(values, cell) & ~cands[cell]]]
            return Step(
                "Missing Candidate",
                CHECKS_RATING,
                cells=[cell],
                area=[cell],
                restores=back,
                region=place(cell),
                reason=_(
                    # Translators: {box} is "box 5".
                    "The notes of a cell in {box} leave out the digit that belongs there: one of "
                    "the digits taken out of them was needed."
                ).format(box=unit_name(18 + BOX_OF[cell])),
                explanation=_(
                    # Translators: {place} is a cell, "row 2, column 5".
                    "The notes in {place} leave out the digit that belongs there: one of the "
                    "digits taken out of them was needed."
                ).format(place=place(cell))
                + " "
                + _put_back([d for _, d in back]),
                result=_put_back([d for _, d in back]),
            )
    return None


def _put_back(digits: list[int]) -> str:
    """What to put back into notes that lost their answer."""
    if len(digits) == 1:
        return _(
            "Put back {digit}: it fits there, it is not in the notes, and it is the answer."
        ).format(digit=digits[0])
    return _(
        # Translators: {digits} are digits, "3 and 7".
        "Put back {digits}, the digits that fit there and are not in its notes; one of them is "
        "the answer."
    ).format(digits=digits_text(digits))


def _impossible_note(values: list[int], notes: Sequence[Iterable[int]] | None) -> Step | None:
    """An empty cell whose notes hold a digit its row, column or box already has: a note
    that cannot be right, whether the notes are a complete list or a memo."""
    if notes is None:
        return None
    for cell, digits in enumerate(notes):
        if values[cell]:
            continue
        clash = {d: _holder(values, cell, d) for d in sorted(set(digits))}
        clash = {d: holder for d, holder in clash.items() if holder is not None}
        if clash:
            return _impossible_step(cell, clash)
    return None


def _holder(values: list[int], cell: int, digit: int) -> int | None:
    """A peer of the cell that holds the digit, if one does."""
    return next((p for p in PEERS[cell] if values[p] == digit), None)


def _impossible_step(cell: int, clash: dict[int, int]) -> Step:
    digits = list(clash)
    said = join(
        # Translators: {place} is a cell, "row 2, column 5"; {a_digit} a digit with its
        # article, "a 4".
        _("{place} holds {a_digit}").format(place=place(holder), a_digit=a_digit(d))
        if len(digits) > 1
        # Translators: {place} is a cell holding the digit of a note, "row 2, column 5".
        else _("{place} holds it").format(place=place(holder))
        for d, holder in clash.items()
    )
    n = len(digits)
    listed = digits_text(digits)
    reason = ngettext(
        # Translators: {digits} are the digits of the notes, "4" or "3 and 7"; {box} "box 5".
        "The note {digits} of a cell in {box} cannot be right: a digit its row, column or box "
        "already holds.",
        "The notes {digits} of a cell in {box} cannot be right either: digits its row, column "
        "or box already hold.",
        n,
    ).format(digits=listed, box=unit_name(18 + BOX_OF[cell]))
    said = ngettext(
        # Translators: {digits} are the digits of the notes, "4" or "3 and 7"; {place} the
        # cell, "row 2, column 5"; {holders} the cells that hold them, "row 2, column 7 holds it".
        "The note {digits} in {place} cannot be right: {holders}, and {place} sees it.",
        "The notes {digits} in {place} cannot be right either: {holders}, and {place} sees it.",
        n,
    ).format(digits=listed, place=place(cell), holders=said)
    # Translators: {digits} are digits, "4" or "3 and 7".
    result = _("Take {digits} out of its notes.").format(digits=listed)
    return Step(
        "Impossible Note",
        CHECKS_RATING,
        eliminations=[(cell, d) for d in digits],
        cells=[cell],
        area=[cell],
        cause=sorted(set(clash.values())),
        region=place(cell),
        reason=reason,
        explanation=f"{said} {result}",
        result=result,
    )


def _solution_of(puzzle: str | None, grid: str) -> str | None:
    """The one solution of the puzzle, or failing that of the grid itself; None if not one."""
    for text in ([] if puzzle is None else [puzzle]) + [grid]:
        count, solution = kernel.count_digits(kernel.to_digits(text), 2)
        if count == 1:
            return kernel.to_text(solution)
    return None


def next_step(
    grid: str,
    candidates: Sequence[Iterable[int]] | None = None,
    *,
    puzzle: str | None = None,
    complete: Sequence[bool] | None = None,
    compact: bool = False,
) -> Step | None:
    """The hint for a player's position: a mistake if there is one, else the easiest step.

    grid is the board as the player has it (givens and their digits); candidates, when
    given, are the player's notes, one list of digits per cell (empty for no notes);
    complete, when given, says which cells' notes are a complete candidate list: the notes
    of the others are memos, and there the step reasons from the digits the placed ones
    allow. Without it, every cell's notes count as its candidates. A cell said to have lost
    the digit that belongs there is always one whose notes count. puzzle, when given, is
    the original puzzle: it names a wrong digit exactly, and a given is never blamed.
    Without it, a grid that cannot be finished gets the digits that could be at fault.
    Places are written "row 2, column 5", or with compact "r2c5". Returns None only when
    the grid is complete and correct.
    """
    with compact_places(compact):
        return _next_step(grid, candidates, puzzle, complete)


def _next_step(
    grid: str,
    candidates: Sequence[Iterable[int]] | None,
    puzzle: str | None,
    complete: Sequence[bool] | None,
) -> Step | None:
    grid = normalise(grid)
    puzzle = None if puzzle is None else parse(puzzle)
    values = [int(ch) for ch in grid]
    known = None if puzzle is None else _solution_of(puzzle, puzzle)
    step = _conflict(values, puzzle, known)
    if step:
        return step
    solution = known or _solution_of(None, grid)
    step = _wrong_digit(values, solution)
    if step:
        return step
    if solution is None and kernel.count_solutions(grid, 1) == 0:
        return _dead_end(values)
    cands = _candidates(grid, candidates, complete)
    step = _missing_note(values, cands, solution) or _impossible_note(values, candidates)
    if step:
        return step
    board = Board(values, cands)
    if board.solved:
        return None
    return find_step(board)


def changes_of(step: Step) -> set[int]:
    """The cells a step changes: digits placed or taken out, notes taken out or put back."""
    return set(step.targets) | set(step.clears) | {c for c, _ in step.restores}


def _whole_units(cells: Iterable[int]) -> bool:
    """Whether the cells are every cell of some rows, columns and boxes, and no others."""
    shaded = set(cells)
    covered: set[int] = set()
    for unit in UNITS:
        if shaded.issuperset(unit):
            covered.update(unit)
    return covered == shaded


def _look(step: Step, changes: set[int]) -> tuple[str, list[int]]:
    """Level 1: where to look, in words and as the cells to shade. A shaded row, column or
    box points at no cell of its own, so a step's units are shown as they are; cells that
    would single out one that changes give way to their boxes; the whole grid shades
    nothing."""
    area = list(step.area)
    # Translators: {region} is where a hint points, "row 3", "row 2, column 5".
    look = _("Look at {region}.").format(region=step.region)
    if not step.region or len(set(area)) == 81:
        return (look if step.region else _("Look at the whole grid.")), []
    if _whole_units(area) or not set(area) & changes:
        return look, area
    boxes = sorted({BOX_OF[c] for c in area})
    if len(boxes) == 9:
        return _("Look at the whole grid."), []
    named = join(str(b + 1) for b in boxes)
    # Translators: {boxes} are box numbers, "3 and 7".
    said = ngettext("Look at box {boxes}.", "Look at boxes {boxes}.", len(boxes))
    return said.format(boxes=named), sorted(c for b in boxes for c in UNITS[18 + b])


def tell(step: Step, level: int) -> dict:
    """A hint as a player opens it, JSON-ready, at level 1 (where to look: the technique by
    its name and the region to shade, never the cell that will change), 2 (why: the cells of
    the pattern that cause it, none of those that will change) or 3 (what follows, said,
    with the cells it changes as `target`, and listed; nothing is applied)."""
    if level not in (1, 2, 3):
        raise ValueError(f"a hint's level is 1, 2 or 3, not {level!r}")
    entry = told_entry(step)
    changes = changes_of(step)
    text, region = _look(step, changes)
    told: dict = {
        "level": level,
        "technique": entry.said_label,
        "slug": entry.slug,
        "summary": entry.said_summary,
        "text": text,
        "region": region,
    }
    if level >= 2:
        told["text"] = step.reason
        # The cells a step changes are its answer: never marked before level 3, nor the
        # candidates and links of a chain on them.
        told["cause"] = [c for c in step.cause if c not in changes]
        told |= _drawn(step, changes if level == 2 else set())
    if level >= 3:
        told["text"] = step.explanation
        told["target"] = sorted(changes)
        told["placements"] = [list(p) for p in step.placements]
        told["eliminations"] = [list(e) for e in step.eliminations]
        told["clears"] = list(step.clears)
        told["restores"] = [list(r) for r in step.restores]
        if step.chain:
            told["chain"] = list(step.chain)
        if step.notation:
            told["notation"] = list(step.notation)
    return told


def _drawn(step: Step, hidden: set[int]) -> dict:
    """A chain drawn on the candidates: those it marks true (`on`) and false (`off`), as
    [cell, digit], and its links, as {"from": "cell:digit", "to": ..., "kind": "strong" or
    "weak"}; nothing on the cells in hidden (a step's answer, before its last level)."""
    if not step.links:
        return {}
    return {
        "on": [[c, d] for c, d in step.on if c not in hidden],
        "off": [[c, d] for c, d in step.off if c not in hidden],
        "links": [
            {"from": f"{a}:{da}", "to": f"{b}:{db}", "kind": kind}
            for a, da, b, db, kind in step.links
            if a not in hidden and b not in hidden
        ],
    }
