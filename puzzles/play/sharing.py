"""Sharing puzzles and playing one's own: share codes, and the checks of a typed puzzle.

A puzzle's share code is its id in base 36 and a keyed hash of it (a salted HMAC of the
site's secret key): nobody can make the code of a puzzle they were not given, so the pools'
unreleased puzzles cannot be walked through, and only puzzles already handed out are shared.
"""

from __future__ import annotations

import base64
import datetime
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.http import base36_to_int, int_to_base36
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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


def puzzle_for_code(code: str, day: datetime.date | None = None) -> Puzzle | None:
    """The puzzle of a share code, if the code is genuine and the puzzle may be shared:
    handed out already, not a daily of a date after the player's today (`day`; the site's
    without it), nor a technique example's."""
    head, _, mac = code.partition("-")
    if not head or len(head) > 13 or not mac:
        return None
    try:
        pk = base36_to_int(head)
    except ValueError:
        return None
    if not constant_time_compare(mac, _mac(pk)):
        return None
    puzzle = Puzzle.objects.without_examples().filter(pk=pk, served_at__isnull=False).first()
    if puzzle is None or puzzle.dailies.filter(date__gt=day or today()).exists():
        return None
    return puzzle


# A player's own puzzle ------------------------------------------------------------------
#
# A typed-in puzzle must tell nothing about the solution of a puzzle stored here. So before
# it is stored or refused, the full grids near it (engine.near_grids: its solutions, those
# with a given changed to another digit, and for a puzzle with no solution those with two
# givens taken out) are looked up by their print; a stored puzzle whose solution is one of
# them (checked by the canonical key) is the puzzle typed, and its game opens, whether the
# copy had one solution, several or none. A copy with a given taken out or a digit added
# so answers as the puzzle itself does; and as a wrong digit's copy is near every grid the
# same copy with the right digit has for solution, a right and a wrong digit answer alike
# (docs/play.md says where the bounds of the search leave them apart). Of the stored
# puzzles found, a daily or the oldest opens, however near each is: taking the nearest
# would let a puzzle stored on purpose near a wrong digit's copy open in place of the one
# the right digit opens.


class Refused(Exception):
    """A typed puzzle that cannot be played, and why; with several solutions, the cells
    where two of them differ (never the solutions themselves)."""

    def __init__(self, message: str, puzzle: str = "", differ: list[int] | None = None) -> None:
        super().__init__(message)
        self.puzzle = puzzle
        self.differ = differ or []


@dataclass
class Accepted:
    puzzle: Puzzle
    created: bool  # a new puzzle, rather than one already stored
    same_layout: bool = field(default=True)  # the stored one has the very givens typed
    # A copy of a stored puzzle with givens taken out or digits added (or other givens
    # of its solution): it could tell whether a digit is right, so it counts as help.
    changed: bool = field(default=False)


def parse_puzzle(text: str) -> str:
    """The puzzle in its 81-character form, or Refused saying what is wrong with the text
    itself (nothing about its solutions)."""
    if len(text) > MAX_TEXT:
        raise Refused(_("That is far too long for a puzzle: 81 cells, 0 or . for a blank."))
    if not text.strip():
        raise Refused(_("Type or paste a puzzle: 81 digits, 0 or . for a blank."))
    try:
        puzzle = engine.parse(text)
    except engine.InvalidPuzzle as error:
        message = str(error)
        raise Refused(message[:1].upper() + message[1:] + ".") from None
    if "0" not in puzzle:
        raise Refused(_("This grid is already full: there is nothing left to solve."))
    return puzzle


def stored_near(puzzle: str) -> Puzzle | None:
    """The stored puzzle whose solution is one of the grids near `puzzle` (a daily first,
    then the oldest), or None."""
    near = engine.near_grids(puzzle)
    prints: dict[str, list[str]] = {}
    for grid in near:
        prints.setdefault(engine.grid_print(grid), []).append(grid)
    found = Puzzle.objects.filter(solution_print__in=list(prints)).order_by("pk")
    found = sorted(found, key=lambda p: not p.dailies.exists())
    keys: dict[str, str] = {}
    for stored in found:
        # The print almost never meets another grid's; the canonical key makes sure.
        grids = prints[stored.solution_print]
        if any(_grid_key(grid, keys) == _grid_key(stored.solution, keys) for grid in grids):
            return stored
    return None


def _grid_key(grid: str, known: dict[str, str]) -> str:
    if grid not in known:
        known[grid] = engine.canonical(grid)
    return known[grid]


def take_puzzle(text: str) -> Accepted:
    """The stored puzzle a typed one is: the same one, even transformed; the one whose
    solution it is near (a changed copy); or a new one, graded and marked as a player's,
    handed out at once so that it never enters a pool or a daily. Refused when it is
    none of these: a bad text, no solution, or several (and where two of them differ)."""
    puzzle = parse_puzzle(text)
    key = engine.canonical(puzzle)
    found = Puzzle.objects.filter(canonical_key=key).first()
    if found is not None:
        return Accepted(_served(found), False, found.givens == puzzle)
    near = stored_near(puzzle)
    if near is not None:
        return Accepted(_served(near), False, False, changed=True)
    check_unique(puzzle)
    return _store_new(puzzle, key)


def check_unique(puzzle: str) -> None:
    """Refused unless the puzzle has exactly one solution: none, or several (and the
    cells where two of them differ)."""
    count = engine.count_solutions(puzzle, 2)
    if count == 0:
        raise Refused(
            _(
                "This puzzle has no solution: its givens follow the rules, but no way of "
                "filling the grid fits them all. Check it against the original for a wrong "
                "digit."
            )
        )
    if count > 1:
        first, second = engine.solutions(puzzle, 2)
        differ = [c for c in range(81) if first[c] != second[c]]
        raise Refused(
            ngettext(
                "This puzzle has more than one solution, so logic alone cannot finish it: two "
                "of them differ in the %(count)d cell marked. A given is probably missing.",
                "This puzzle has more than one solution, so logic alone cannot finish it: two "
                "of them differ in the %(count)d cells marked. A given is probably missing.",
                len(differ),
            )
            % {"count": len(differ)},
            puzzle,
            differ,
        )


def _store_new(puzzle: str, key: str) -> Accepted:
    solution = engine.solve(puzzle)
    made = engine.Generated(puzzle, solution, engine.grade(puzzle))
    row = puzzle_row(made, Puzzle.Source.PLAYER)
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
