"""Sharing puzzles and playing one's own: share codes, and the checks of a typed puzzle.

A puzzle's share code is its id in base 36 and a keyed hash of it (a salted HMAC of the
site's secret key): nobody can make the code of a puzzle they were not given, so the pools'
unreleased puzzles cannot be walked through, and only puzzles already handed out are shared.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.http import base36_to_int, int_to_base36

import engine

from ..models import Puzzle
from ..pools.daily import today
from ..pools.stock import puzzle_row

SALT = "puzzles.sharing.code"  # as first named: another salt would break every share link
# The longest text taken for a puzzle: a grid drawn with separators and spaces fits.
MAX_TEXT = 1000


def _mac(pk: int) -> str:
    digest = salted_hmac(SALT, str(pk), algorithm="sha256").digest()
    return base64.b32encode(digest[:5]).decode().lower()


def share_code(pk: int) -> str:
    """The code of a puzzle's share link: "2s-k4jd8x3q"."""
    return f"{int_to_base36(pk)}-{_mac(pk)}"


def share_path(pk: int) -> str:
    return reverse("puzzles:share", args=[share_code(pk)])


def puzzle_for_code(code: str) -> Puzzle | None:
    """The puzzle of a share code, if the code is genuine and the puzzle may be shared:
    handed out already, and not a daily whose day has not come."""
    head, _, mac = code.partition("-")
    if not head or len(head) > 13 or not mac:
        return None
    try:
        pk = base36_to_int(head)
    except ValueError:
        return None
    if not constant_time_compare(mac, _mac(pk)):
        return None
    puzzle = Puzzle.objects.filter(pk=pk, served_at__isnull=False).first()
    if puzzle is None or puzzle.dailies.filter(date__gt=today()).exists():
        return None
    return puzzle


# A player's own puzzle ------------------------------------------------------------------


class Refused(Exception):
    """A typed puzzle that cannot be played, and why; with several solutions, two of them
    and the cells where they differ."""

    def __init__(self, message: str, solutions: tuple[str, str] | None = None) -> None:
        super().__init__(message)
        self.solutions = solutions
        self.differ = (
            [c for c in range(81) if solutions[0][c] != solutions[1][c]] if solutions else []
        )


@dataclass
class Accepted:
    puzzle: Puzzle
    created: bool  # a new puzzle, rather than one already stored
    same_layout: bool = field(default=True)  # the stored one has the very givens typed


def _two_solutions(puzzle: str) -> tuple[str, str]:
    """Two different solutions of a puzzle known to have several: the solver's, then one
    with some cell holding another digit."""
    first = engine.solve(puzzle)
    candidates = engine.candidates(puzzle)
    for cell in range(81):
        if puzzle[cell] != "0":
            continue
        for digit in candidates[cell]:
            if str(digit) == first[cell]:
                continue
            other = engine.solve(puzzle[:cell] + str(digit) + puzzle[cell + 1 :])
            if other is not None:
                return first, other
    raise AssertionError("a puzzle with several solutions has a second one")  # pragma: no cover


def check_puzzle(text: str) -> str:
    """The puzzle in its 81-character form if it has exactly one solution; else Refused,
    saying what is wrong."""
    if len(text) > MAX_TEXT:
        raise Refused("That is far too long for a puzzle: 81 cells, 0 or . for a blank.")
    if not text.strip():
        raise Refused("Type or paste a puzzle: 81 digits, 0 or . for a blank.")
    try:
        puzzle = engine.parse(text)
    except engine.InvalidPuzzle as error:
        message = str(error)
        raise Refused(message[:1].upper() + message[1:] + ".") from None
    if "0" not in puzzle:
        raise Refused("This grid is already full: there is nothing left to solve.")
    count = engine.count_solutions(puzzle, 2)
    if count == 0:
        raise Refused(
            "This puzzle has no solution: its givens follow the rules, but no way of filling "
            "the grid fits them all. Check it against the original for a wrong digit."
        )
    if count > 1:
        solutions = _two_solutions(puzzle)
        differ = sum(a != b for a, b in zip(*solutions, strict=True))
        raise Refused(
            "This puzzle has more than one solution, so logic alone cannot finish it. "
            f"Here are two; they differ in {differ} cells. A given is probably missing.",
            solutions,
        )
    return puzzle


def store_player_puzzle(puzzle: str) -> Accepted:
    """The stored puzzle for a checked one: one already stored, even transformed (the
    canonical key is the same), or a new one, graded and marked as a player's, handed out
    at once so that it never enters a pool or a daily."""
    key = engine.canonical(puzzle)
    found = Puzzle.objects.filter(canonical_key=key).first()
    if found is not None:
        return Accepted(_served(found), False, found.givens == puzzle)
    solution = engine.solve(puzzle)
    made = engine.Generated(puzzle, solution, engine.grade(puzzle))
    row = puzzle_row(made, Puzzle.Source.PLAYER)
    row.canonical_key = key
    row.served_at = timezone.now()
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:  # stored by another request meanwhile
        found = Puzzle.objects.get(canonical_key=key)
        return Accepted(_served(found), False, found.givens == puzzle)
    return Accepted(row, True)


def _served(puzzle: Puzzle) -> Puzzle:
    """A stored puzzle a player typed in is handed out: it leaves the pool if it was there."""
    if puzzle.served_at is None:
        Puzzle.objects.filter(pk=puzzle.pk, served_at__isnull=True).update(served_at=timezone.now())
        puzzle.refresh_from_db(fields=["served_at"])
    return puzzle
