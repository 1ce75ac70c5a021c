"""Starting games: a new game of a difficulty from the pool, the day's daily game, the
player's game on a given puzzle (shared or typed in), and what a preference changes in
the games in progress.
"""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from prometheus_client import Counter

import engine

from ..accounts.players import Player
from ..models import NONE_COMPLETE, DailyPuzzle, Difficulty, Game, Preferences, Puzzle
from ..pools.daily import dailies_of, today
from ..pools.stock import claim_fresh_puzzle, make_and_serve, start_refill
from .changes import Write, helped_fields
from .errors import Conflict, NotFound, Unavailable

# Counted here, scraped at /metrics (puzzles/site/metrics.py): games started.
GAMES_STARTED = Counter("sudoku_games_started", "Games started, by difficulty.", ["difficulty"])


def new_game(player: Player, difficulty: str, prefs: Preferences | None = None) -> Game:
    """A game on a fresh puzzle of the difficulty. A pool that runs low asks the workers
    for more at once; an empty one falls back to a puzzle of that difficulty, already
    handed out, that the player has not played. A tier made ahead only (master, extreme)
    with neither falls back to the tier below, never making one while the player waits:
    the game's puzzle then is of an easier tier than asked. The clock starts now; with
    auto-notes the notes are all filled in."""
    puzzle = claim_fresh_puzzle(difficulty)
    start_refill(difficulty, Puzzle.objects.fresh(difficulty).count())
    if puzzle is None:
        played = player.all_games().values("puzzle_id")
        # Never a player's own puzzle, nor one whose position the technique guide shows.
        served = (
            Puzzle.objects.without_examples()
            .filter(served_at__isnull=False, dailies__isnull=True)
            .exclude(source=Puzzle.Source.PLAYER)
        )
        puzzle = (
            served.filter(difficulty=difficulty)
            .exclude(pk__in=played)
            .order_by("served_at")
            .first()
        ) or make_and_serve(difficulty)
        if puzzle is None:
            easier = Difficulty.values[Difficulty.values.index(difficulty) - 1]
            return new_game(player, easier, prefs)
        return _create(player, puzzle, None, prefs)
    # Fresh from the pool: nobody has played it, nor practised on it (practice games are on
    # the guide's examples, which the pool never hands out).
    return _create(player, puzzle, None, prefs, fresh=True)


def _create(
    player: Player,
    puzzle: Puzzle,
    daily: DailyPuzzle | None,
    prefs: Preferences | None = None,
    *,
    fresh: bool = False,
) -> Game:
    """The player's game on the puzzle: a new one with its clock running, or, when a
    second request of the player's got there first, that one. A practice game of the
    player's on the puzzle showed part of its solve: the new game is helped from then
    (none on a `fresh` puzzle, just claimed from the pool)."""
    now = timezone.now()
    notes, complete = [], NONE_COMPLETE
    if prefs is not None and prefs.auto_notes:
        notes = engine.candidates(puzzle.givens)
        complete = "".join("1" if digits else "0" for digits in notes)
    practised = None
    if not fresh and not player.new:
        practised = (
            player.all_games()
            .practice_games()
            .filter(puzzle=puzzle)
            .order_by("started_at")
            .values_list("started_at", flat=True)
            .first()
        )
    try:
        with transaction.atomic():
            game = Game.objects.create(
                puzzle=puzzle,
                daily=daily,
                values=puzzle.givens,
                notes=notes,
                complete=complete,
                resumed_at=now,
                seen_at=now,
                helped_at=practised,
                **player.owner_fields(),
            )
    except IntegrityError:
        return player.games().get(puzzle=puzzle)
    GAMES_STARTED.labels(puzzle.difficulty).inc()
    return game


def game_on(
    player: Player,
    puzzle: Puzzle,
    prefs: Preferences | None = None,
    *,
    day: datetime.date | None = None,
) -> Game:
    """The player's game on a puzzle (a shared one, or their own): the one already started,
    or a new one, which is the day's daily game if the puzzle is a daily of the player's
    today (`day`; the site's without it) or before."""
    game = None if player.new else player.games().filter(puzzle=puzzle).first()
    if game is not None:
        return game
    daily = puzzle.dailies.filter(date__lte=day or today()).first()
    return _create(player, puzzle, daily, prefs)


def daily_game(
    player: Player,
    date: datetime.date,
    difficulty: str,
    prefs: Preferences | None = None,
    *,
    day: datetime.date | None = None,
) -> Game:
    """The player's game on a date's daily puzzle: the one already started, or a new one.
    A date after the player's today (`day`; the site's without it) is not out yet."""
    day = day or today()
    if date > day:
        raise NotFound(_("That day's puzzles are not out yet."))
    if date == day:
        daily = dailies_of(date).get(difficulty)
        if daily is None:
            raise Unavailable(_("Today's puzzle could not be picked just now; try again shortly."))
    else:
        daily = DailyPuzzle.objects.filter(date=date, difficulty=difficulty).first()
        if daily is None:
            raise NotFound(_("There was no daily puzzle that day."))
    game = None if player.new else player.games().filter(puzzle=daily.puzzle_id).first()
    return game or _create(player, daily.puzzle, daily, prefs)


def mark_games_in_progress(player: Player) -> int:
    """Mistake marking turned on: the player's unfinished games now show their mistakes,
    so none of them counts as a clean solve any more. How many were marked."""
    now, marked = timezone.now(), 0
    unmarked = player.games().filter(status=Game.Status.PLAYING, marked=False)
    for pk in unmarked.values_list("pk", flat=True):
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=pk, marked=False).first()
            if game is None or game.set_aside:
                continue
            game.marked = True
            write = Write(game, versioned=False)
            write.hold({"marked": True} | helped_fields(game, now))
            try:
                write.save()
            except Conflict:  # it ended meanwhile
                continue
        marked += 1
    return marked
