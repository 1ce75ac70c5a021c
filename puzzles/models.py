"""Puzzles in the pool, the daily picks, players' games, pool targets and seed jobs."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Exists, JSONField, OuterRef, Q, Value
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# No cell's notes are a complete candidate list: Game.complete of a new game.
NONE_COMPLETE = "0" * 81

# The clock stops this long after a player's last request (the page sends one a minute
# while it is visible), so a tab left open does not run it for ever.
IDLE_SECONDS = 300


class Difficulty(models.TextChoices):
    """The tiers of engine.DIFFICULTIES, easiest first."""

    EASY = "easy", _("Easy")
    MEDIUM = "medium", _("Medium")
    HARD = "hard", _("Hard")
    EXPERT = "expert", _("Expert")
    MASTER = "master", _("Master")
    EXTREME = "extreme", _("Extreme")


# The widest tier name, for the columns that hold one.
DIFFICULTY_LENGTH = max(len(value) for value in Difficulty.values)


class PuzzleQuerySet(models.QuerySet):
    def fresh(self, difficulty: str | None = None) -> PuzzleQuerySet:
        """Puzzles never handed out: the pool's stock."""
        qs = self.filter(served_at__isnull=True).exclude(source=Puzzle.Source.PLAYER)
        return qs.filter(difficulty=difficulty) if difficulty else qs

    def without_examples(self) -> PuzzleQuerySet:
        """Puzzles no technique example comes from: the only ones anything hands out
        (the pools, dailies, new games, share links), as the guide shows part of an
        example's solve."""
        shown = TechniqueExample.objects.filter(puzzle=OuterRef("pk"))
        return self.filter(~Exists(shown))

    def for_examples(self) -> PuzzleQuerySet:
        """Puzzles a technique example may come from: still in the pool, never played, never
        a daily, not a player's own. Taken out of the pool before they are scanned
        (learn/examples.py), nothing hands them out afterwards (without_examples)."""
        return self.fresh().filter(games__isnull=True, dailies__isnull=True)

    def made_since(self, since: datetime.datetime) -> PuzzleQuerySet:
        """Puzzles the workers generated since a moment."""
        return self.filter(source=Puzzle.Source.GENERATED, created_at__gte=since)

    def served_since(self, since: datetime.datetime) -> PuzzleQuerySet:
        """Puzzles handed out since a moment: what games drew on the pools."""
        return self.filter(served_at__gte=since)


class Puzzle(models.Model):
    class Source(models.TextChoices):
        GENERATED = "generated"
        IMPORTED = "imported"
        # Typed in by a player at /play/custom/: played like any puzzle, never in a pool
        # or a daily.
        PLAYER = "player"

    givens = models.CharField(max_length=81)
    solution = models.CharField(max_length=81)
    difficulty = models.CharField(max_length=DIFFICULTY_LENGTH, choices=Difficulty.choices)
    score = models.FloatField()
    techniques = models.JSONField(default=dict)
    clue_count = models.PositiveSmallIntegerField()
    canonical_key = models.CharField(max_length=81)
    # engine.grid_print of the solution: the same for every transformation of it, so a
    # typed-in puzzle near a stored one finds it (puzzles/play/sharing.py).
    solution_print = models.CharField(max_length=20, blank=True, default="")
    source = models.CharField(max_length=9, choices=Source.choices, default=Source.GENERATED)
    created_at = models.DateTimeField(default=timezone.now)
    served_at = models.DateTimeField(null=True, blank=True)

    objects = PuzzleQuerySet.as_manager()

    class Meta:
        constraints = [
            # No puzzle twice, not even relabelled, rotated or shuffled.
            models.UniqueConstraint(fields=["canonical_key"], name="puzzle_canonical_key_unique"),
            models.CheckConstraint(
                condition=Q(difficulty__in=Difficulty.values), name="puzzle_difficulty_valid"
            ),
            models.CheckConstraint(
                condition=Q(clue_count__gte=17, clue_count__lte=80), name="puzzle_clue_count_range"
            ),
            models.CheckConstraint(condition=Q(score__gte=0), name="puzzle_score_not_negative"),
        ]
        indexes = [
            # claim_fresh_puzzle: WHERE difficulty = %s AND served_at IS NULL ORDER BY id
            # LIMIT 1, and the stock counts of the pool page and /healthz.
            models.Index(
                fields=["difficulty", "id"],
                condition=Q(served_at__isnull=True),
                name="puzzle_fresh_idx",
            ),
            # A typed-in puzzle's nearby grids: WHERE solution_print IN (...).
            models.Index(fields=["solution_print"], name="puzzle_solution_print_idx"),
            # Generation rate per difficulty over the last hour, on the pool page.
            models.Index(fields=["difficulty", "created_at"], name="puzzle_created_idx"),
            # Draws per difficulty over the last hour, on the pool page: WHERE served_at >= %s.
            models.Index(
                fields=["served_at", "difficulty"],
                condition=Q(served_at__isnull=False),
                name="puzzle_served_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_difficulty_display()} #{self.pk} ({self.clue_count} givens)"


class DailyPuzzle(models.Model):
    date = models.DateField()
    difficulty = models.CharField(max_length=DIFFICULTY_LENGTH, choices=Difficulty.choices)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="dailies")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["date", "difficulty"], name="daily_date_difficulty_unique"
            ),
            models.UniqueConstraint(fields=["puzzle"], name="daily_puzzle_once"),
            models.CheckConstraint(
                condition=Q(difficulty__in=Difficulty.values), name="daily_difficulty_valid"
            ),
        ]
        ordering = ["-date", "difficulty"]

    def __str__(self) -> str:
        return f"{self.date:%Y-%m-%d} {self.difficulty}"


# The human floor: no person solves a Sudoku faster than this many seconds per empty cell,
# by difficulty: the pace of the fastest solves published for each level, not a fraction of
# it (docs/play.md, Ranking, names them). The fastest timed solve of a classic 9x9 reported
# is 30.65 s (Sebastian Matschke, 2018), some 0.7 s per empty cell of an easy grid; the
# first US National Sudoku Championship final (Philadelphia, 2007) was won with an easy, a
# medium and a hard Sudoku in 9 min 59 s together, some 200 s a grid on paper, and
# on-screen entry takes about half the time of a pencil: 1.0 s a cell for medium, 1.5 s for
# hard. No published time exists for the tiers above, which need chains and forcing chains
# that take the strongest solvers minutes, not seconds: 2.0, 2.5 and 3.0 s a cell are
# still well under any such solve. A solve faster than this stays in the player's history
# but is neither ranked nor a best time.
HUMAN_FLOOR_SECONDS_PER_EMPTY_CELL = {
    Difficulty.EASY: 0.7,
    Difficulty.MEDIUM: 1.0,
    Difficulty.HARD: 1.5,
    Difficulty.EXPERT: 2.0,
    Difficulty.MASTER: 2.5,
    Difficulty.EXTREME: 3.0,
}

# How fast a person places digits: a burst of DIGIT_BURST at once (what a page on a slow
# network sends of the taps made while its last batch was on the way), then DIGIT_RATE a
# second, twice the pace of the fastest published solve (0.7 s a digit, over a whole grid).
# Digits that reach the server faster (a whole solve in one batch, a script's requests)
# leave the solve in the history but off the leaderboards and best times.
DIGIT_BURST = 10
DIGIT_RATE = 3.0


def human_floor(puzzle: Puzzle) -> float:
    """The fewest seconds a person could take to solve `puzzle`."""
    per_cell = HUMAN_FLOOR_SECONDS_PER_EMPTY_CELL[puzzle.difficulty]
    return per_cell * (81 - puzzle.clue_count)


# A clean solve: no hints or checks, nothing revealed, mistakes not marked as they were
# made, no help or solution seen on the puzzle before, in this game or another of the
# player's, the player's game of record on the puzzle (not one set aside at log-in), and
# not a practice game (which starts part-way through the solve).
# Best times count clean solves at human speed; leaderboards, those by accounts.
CLEAN_SOLVE = Q(
    status="solved",
    hints=0,
    reveals=0,
    marked=False,
    helped_at__isnull=True,
    set_aside_at__isnull=True,
    practice="",
)
HUMAN_SOLVE = CLEAN_SOLVE & Q(too_fast=False)
RANKED_SOLVE = HUMAN_SOLVE & Q(user__isnull=False)


class GameQuerySet(models.QuerySet):
    def clean_solves(self) -> GameQuerySet:
        """Games solved without any help."""
        return self.filter(CLEAN_SOLVE)

    def human_solves(self) -> GameQuerySet:
        """Clean solves no faster than a person could: what best times count."""
        return self.filter(HUMAN_SOLVE)

    def ranked(self) -> GameQuerySet:
        """Clean solves at human speed by accounts: what leaderboards count."""
        return self.filter(RANKED_SOLVE)

    def live(self) -> GameQuerySet:
        """Games of record: all but those set aside at log-in beside the account's own, and
        practice games (which stand beside any game on their puzzle)."""
        return self.filter(set_aside_at__isnull=True, practice="")

    def practice_games(self) -> GameQuerySet:
        """Practice games: started at a technique example's position, to find its step."""
        return self.exclude(practice="")


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        SOLVED = "solved", _("Solved")
        GAVE_UP = "gave_up", _("gave up")

    # The owner: a user, or a guest known by an id kept in their session.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="games",
    )
    guest_id = models.CharField(max_length=36, null=True, blank=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="games")
    daily = models.ForeignKey(
        DailyPuzzle, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    values = models.CharField(max_length=81)
    notes = models.JSONField(default=list)  # 81 lists of digits, the player's notes
    complete = models.CharField(
        max_length=81,
        default=NONE_COMPLETE,
        help_text="Per cell, 1 where its notes are a complete candidate list (filled by "
        "fill-all-notes or auto-notes, then perhaps narrowed by the player); 0 where they are "
        "a memo. Hints honour the notes of complete cells only.",
    )
    # The player's marks beside the notes, by cell ("<cell>": {"corner": [digits], "centre":
    # [digits], "colour": 1-9, "candidates": [[digit, colour]]}, each part only when there
    # is one; cells without marks left out). Part of the game like notes, never help.
    marks = models.JSONField(default=dict, blank=True, db_default=Value({}, JSONField()))
    # 81 lists: for a cell with a digit, the peers whose notes auto-remove took that digit
    # from when it was placed; erasing or replacing the digit puts those notes back.
    taken = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0)
    # The move log is the game's Move rows, numbered from 1: the first moves_applied of
    # them are on the board (undo takes back the last), the rest were undone (redo).
    moves_applied = models.PositiveIntegerField(default=0)
    moves_logged = models.PositiveIntegerField(default=0)
    # The pace of moves (puzzles/play/changes.py): how many the game may take at once now,
    # as of allowance_at; null for a game that has taken none, whose allowance is full.
    move_allowance = models.FloatField(null=True, blank=True)
    allowance_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=7, choices=Status.choices, default=Status.PLAYING)
    active_seconds = models.FloatField(default=0)  # play time up to resumed_at
    resumed_at = models.DateTimeField(null=True, blank=True)  # null while paused or over
    seen_at = models.DateTimeField(default=timezone.now)  # the player's last request
    clock_page = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        help_text="The page that last started the clock (device:opened, as the page names itself):"
        " an older page of the same device, leaving, does not stop it.",
    )
    mistakes = models.PositiveIntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)  # checks of the board count as hints
    # The hint last opened: {"key", "version", "level" (deepest opened), "step" (what Apply
    # carries out)}. A hint counts once, when first opened on a version of the board.
    hint = models.JSONField(default=dict, blank=True)
    hint_level_max = models.PositiveSmallIntegerField(
        default=0, help_text="The deepest level of any hint opened in this game (1-3)."
    )
    reveals = models.PositiveIntegerField(default=0)
    marked = models.BooleanField(default=False, help_text="Played with mistakes marked.")
    too_fast = models.BooleanField(
        default=False,
        help_text="Solved faster than a person could (see HUMAN_FLOOR_SECONDS_PER_EMPTY_CELL), "
        "or with digits that came faster than a person places them (hurried): kept, but "
        "neither ranked nor a best time.",
    )
    # The pace of digits (DIGIT_BURST, DIGIT_RATE): how many more the game takes now as a
    # person's, as of digit_allowance_at; null for a game that has had none, whose allowance
    # is full. A game whose digits ran past it is hurried.
    digit_allowance = models.FloatField(null=True, blank=True)
    digit_allowance_at = models.DateTimeField(null=True, blank=True)
    hurried = models.BooleanField(
        default=False,
        help_text="Digits reached the server faster than a person places them (a whole solve "
        "in one batch, say): a solve is kept, but neither ranked nor a best time.",
    )
    ranked_seconds = models.FloatField(
        null=True,
        blank=True,
        help_text="For a solve: the seconds from the start to the solve, pauses and quiet "
        "stretches included, the time the puzzle was in sight; what leaderboards rank.",
    )
    # How many ChangeReceipt rows the game holds: past RECEIPT_CAP (puzzles/play/changes.py)
    # the oldest are deleted, so that no game's receipts grow without end.
    receipts_kept = models.PositiveIntegerField(default=0)
    helped_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player first used help on this puzzle or saw its solution, in "
        "this game or another of theirs: a solve after it is not clean.",
    )
    set_aside_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a log-in set this guest game aside beside the account's own game on "
        "the puzzle: kept as a record, no longer played.",
    )
    # Practice: the game starts at a position of a technique's example (puzzles.learn),
    # and the player is to find that technique's step. Never ranked, never a best time.
    practice = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text="For a practice game, the slug of the technique to find; empty otherwise.",
    )
    # {"placements": [[cell, digit]], "eliminations": [[cell, digit]]}: the step to find.
    practice_goal = models.JSONField(default=dict, blank=True)
    practice_found_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player made the practised step."
    )
    practice_unaided = models.BooleanField(
        default=False, help_text="The step was found with no hint, check or reveal in the game."
    )
    # {"<cell>": [version, device]}: the last change aimed at each cell (its digit, or its
    # notes by a note, fill, hint or undo of one), the game's version after it and the
    # device that sent it ("" for calls that name none). A batch from a page merges on it.
    touched = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(user__isnull=False, guest_id__isnull=True))
                | (Q(user__isnull=True, guest_id__isnull=False)),
                name="game_has_one_owner",
            ),
            # One game of record per user and puzzle; games set aside at log-in are kept
            # beside it as records, and practice games (which start part-way) beside it.
            models.UniqueConstraint(
                fields=["user", "puzzle"],
                condition=Q(user__isnull=False, set_aside_at__isnull=True, practice=""),
                name="game_one_live_per_user_and_puzzle",
            ),
            models.UniqueConstraint(
                fields=["guest_id", "puzzle"],
                condition=Q(guest_id__isnull=False, practice=""),
                name="game_one_per_guest_and_puzzle",
            ),
            models.CheckConstraint(
                condition=Q(set_aside_at__isnull=True) | Q(user__isnull=False),
                name="game_set_aside_by_users_only",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["playing", "solved", "gave_up"]), name="game_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(moves_applied__lte=models.F("moves_logged")),
                name="game_moves_applied_le_logged",
            ),
        ]
        indexes = [
            # Home and history: a player's games by status. updated_at stays out of it:
            # every move changes it, and an unindexed change lets PostgreSQL update the
            # row in place (HOT) instead of adding index entries each time.
            models.Index(fields=["user", "status"], name="game_user_status_idx"),
            models.Index(
                fields=["guest_id", "status"],
                condition=Q(guest_id__isnull=False),
                name="game_guest_status_idx",
            ),
            # The daily leaderboard: ranked solves of one daily, fastest first.
            models.Index(
                fields=["daily", "ranked_seconds"],
                condition=RANKED_SOLVE,
                name="game_daily_ranked_time_idx",
            ),
        ]

    def __str__(self) -> str:
        owner = self.user or f"guest {self.guest_id[:8]}"
        return f"{owner} on {self.puzzle} ({self.get_status_display()})"

    @property
    def clean(self) -> bool:
        """Solved with no help (hints, checks, reveals, mistakes marked as they were made)
        and no help or solution seen on the puzzle before, in any game of the player's.
        Mirrors CLEAN_SOLVE."""
        helped = self.hints or self.reveals or self.marked or self.helped_at is not None
        return (
            self.status == self.Status.SOLVED
            and not helped
            and self.set_aside_at is None
            and not self.practice
        )

    @property
    def set_aside(self) -> bool:
        return self.set_aside_at is not None

    @property
    def is_practice(self) -> bool:
        return bool(self.practice)

    @property
    def ranked(self) -> bool:
        """A clean solve at human speed by an account: on the leaderboards."""
        return self.clean and not self.too_fast and self.user_id is not None

    @property
    def standing(self) -> str:
        """How a finished game counts, by the rules above, for the end of the game to say:
        'ranked' (leaderboards and best times), 'guest' (a clean solve at human speed by a
        guest: best times, and leaderboards once they sign up), 'too_fast' (clean, but
        faster than a person could: neither), 'hurried' (clean, but its digits came faster
        than a person places them: neither), 'practice', 'helped', or 'unsolved'."""
        if self.status != self.Status.SOLVED:
            return "unsolved"
        if self.practice:
            return "practice"
        if not self.clean:
            return "helped"
        if self.too_fast:
            # Under the floor says more than "its digits came in a rush": said first.
            in_time = (self.ranked_seconds or 0) >= human_floor(self.puzzle)
            return "hurried" if self.hurried and in_time else "too_fast"
        return "ranked" if self.user_id is not None else "guest"

    # The clock. Its whole rule lives here: time counts while the game is resumed, up to
    # IDLE_SECONDS past the player's last request; a pause folds it into active_seconds.

    def elapsed(self, now: datetime.datetime | None = None) -> float:
        """Seconds played: time while resumed, up to IDLE_SECONDS past the last request."""
        if self.resumed_at is None:
            return self.active_seconds
        now = now or timezone.now()
        return self.active_seconds + max(
            0.0, (min(now, self.idle_at()) - self.resumed_at).total_seconds()
        )

    def idle_at(self) -> datetime.datetime:
        """When the clock stops by itself unless the player makes another request."""
        return self.seen_at + datetime.timedelta(seconds=IDLE_SECONDS)

    def runs_for(self, now: datetime.datetime | None = None) -> float:
        """Seconds the clock goes on running from now without another request: what a page
        may count on its own before it shows the clock stopped; 0 when it is stopped."""
        if self.resumed_at is None:
            return 0.0
        return max(0.0, (self.idle_at() - (now or timezone.now())).total_seconds())

    def resume(self, now: datetime.datetime) -> None:
        """A request of the player's (every one resumes): an interval that went idle is
        closed, a paused clock of a game in play starts, and the idle limit counts from
        now."""
        if self.resumed_at is not None and now > self.idle_at():
            self.active_seconds = self.elapsed(now)
            self.resumed_at = now
        if self.resumed_at is None and self.status == self.Status.PLAYING:
            self.resumed_at = now
        self.seen_at = now

    def pause(self, now: datetime.datetime) -> None:
        """Stop the clock, keeping the time played so far."""
        self.active_seconds = self.elapsed(now)
        self.resumed_at = None

    def finish(self, status: str, now: datetime.datetime) -> None:
        """End the game, solved or given up, its clock stopped. A solve's time ranked is
        the time the puzzle was in sight, from the start to the solve: a pause hides the
        board but not the puzzle (another window, a share link, a second account), and a
        page that sends nothing still shows it, so neither may take time off the
        leaderboard. Faster than a person could solve it, or with digits that came faster
        than a person places them (hurried): kept in the history, off the leaderboards
        and best times."""
        self.pause(now)
        self.status = status
        self.finished_at = now
        if status != self.Status.SOLVED:
            return
        self.ranked_seconds = max(self.active_seconds, (now - self.started_at).total_seconds())
        self.too_fast = self.hurried or self.ranked_seconds < human_floor(self.puzzle)


class TechniqueExample(models.Model):
    """A position of a stored puzzle's logical solve where a technique is the next step
    (with complete notes), found ahead of time by a task (puzzles.learn): the technique
    guide draws it, and practice games start from it."""

    slug = models.CharField(max_length=40, help_text="The technique, as in the guide's URL.")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="examples")
    step_index = models.PositiveSmallIntegerField(help_text="The step's place in the solve.")
    values = models.CharField(max_length=81, help_text="The grid before the step.")
    candidates = models.JSONField(help_text="Every cell's candidates before the step.")
    # The step told as a level-3 hint (engine.tell), with the level-2 words as "reason".
    hint = models.JSONField()
    found_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["slug", "puzzle"], name="example_slug_puzzle_unique"),
            models.CheckConstraint(
                condition=Q(step_index__lte=729), name="example_step_index_range"
            ),
        ]
        indexes = [
            # The guide's example (the first of a slug) and practice's pick among them.
            models.Index(fields=["slug", "id"], name="example_slug_idx"),
        ]
        ordering = ["slug", "id"]

    def __str__(self) -> str:
        return f"{self.slug} in puzzle #{self.puzzle_id}, step {self.step_index + 1}"


class Move(models.Model):
    """One change to a game's board: the cells it touched, each before and after."""

    class Kind(models.TextChoices):
        VALUE = "value"
        NOTE = "note"
        HINT = "hint"
        REVEAL = "reveal"
        FILL = "fill"  # fill all notes
        MARK = "mark"  # corner or centre marks, colours

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=6, choices=Kind.choices)
    cell = models.PositiveSmallIntegerField(null=True, blank=True)
    digit = models.PositiveSmallIntegerField(null=True, blank=True)
    technique = models.CharField(max_length=40, blank=True)  # for hints
    # [{"cell", "before": [value, notes, complete, taken], "after": [...]}]; rows logged
    # before notes could be complete have no third item: their notes were memos. A mark
    # move's records have a fifth, the cell's marks (Game.marks).
    changes = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            # Undo and redo fetch a game's move by number; a number is used once.
            models.UniqueConstraint(fields=["game", "number"], name="move_number_unique"),
            models.CheckConstraint(
                condition=Q(kind__in=["value", "note", "hint", "reveal", "fill", "mark"]),
                name="move_kind_valid",
            ),
        ]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return f"move {self.number} of game {self.game_id}: {self.kind}"


class ChangeReceipt(models.Model):
    """A change a page sent in a batch, known by the id the page gave it: a batch sent
    again is stored once, and a change refused is refused again with the same words."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="receipts")
    client_id = models.CharField(max_length=64)
    device = models.CharField(max_length=40)
    kind = models.CharField(max_length=10)
    # The game's version once the change was stored; null for a change refused.
    version = models.PositiveIntegerField(null=True, blank=True)
    refused = models.CharField(max_length=200, blank=True, help_text="Why it was not kept.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            # A batch looks its changes up by id: a change is stored at most once.
            models.UniqueConstraint(fields=["game", "client_id"], name="receipt_client_id_unique"),
        ]

    def __str__(self) -> str:
        return f"change {self.client_id} of game {self.game_id} from {self.device}"


class Preferences(models.Model):
    class Theme(models.TextChoices):
        SYSTEM = "system", _("Same as the system")
        LIGHT = "light", _("Light")
        DARK = "dark", _("Dark")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences"
    )
    mark_mistakes = models.BooleanField(
        default=False,
        help_text=_(
            "Show a digit that does not fit the solution as a mistake as soon as it is "
            "placed. Games played this way do not count for leaderboards and best times."
        ),
    )
    auto_remove_notes = models.BooleanField(
        default=True,
        help_text=_("Placing a digit removes it from the notes of its row, column and box."),
    )
    auto_notes = models.BooleanField(
        default=False,
        help_text=_(
            "Start every game with all notes filled in, and keep them up to date as "
            "digits are placed."
        ),
    )
    compact_places = models.BooleanField(
        default=False,
        help_text=_('Write places in hints the short way, "r2c5" for row 2, column 5.'),
    )
    show_timer = models.BooleanField(default=True, help_text=_("Show the clock while playing."))
    digit_first = models.BooleanField(
        default=False,
        help_text=_(
            "Digit first: choose a digit on the pad, then tap each cell it goes in "
            "(off: tap a cell, then its digit)."
        ),
    )
    theme = models.CharField(max_length=6, choices=Theme.choices, default=Theme.SYSTEM)
    # Columns added after a release have a default in the database too: the release still
    # serving during an upgrade inserts rows without them (docs/upgrades.md).
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        help_text="The player's time zone, as their browser last named it (the day of the "
        "dailies and streaks); empty: the site's.",
    )
    intro_seen = models.BooleanField(
        default=False,
        db_default=False,
        help_text="The game page's first-visit explanation was dismissed: it shows no more.",
    )
    # One of settings.LANGUAGES (checked by the settings form, not here: the languages
    # shipped change without a migration); empty: the browser's.
    language = models.CharField(
        max_length=8,
        blank=True,
        default="",
        db_default="",
        help_text="The site's language for this player; empty: the browser's.",
    )

    class Meta:
        verbose_name_plural = "preferences"
        constraints = [
            models.CheckConstraint(
                condition=Q(theme__in=["system", "light", "dark"]), name="preferences_theme_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"preferences of {self.user}"


class PoolTarget(models.Model):
    difficulty = models.CharField(max_length=DIFFICULTY_LENGTH, choices=Difficulty.choices)
    low = models.PositiveIntegerField(help_text="Refill when fresh stock falls below this.")
    high = models.PositiveIntegerField(help_text="Refill up to this many fresh puzzles.")
    batch_size = models.PositiveIntegerField(
        default=10, help_text="Puzzles a worker makes and commits at once."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["difficulty"], name="pooltarget_difficulty_unique"),
            models.CheckConstraint(
                condition=Q(low__lte=models.F("high")),
                name="pooltarget_low_le_high",
                # What the admin's form says when an edit breaks it.
                violation_error_message=_(
                    "The low mark cannot be above the high mark: a pool is refilled when "
                    "its stock falls below the low mark, up to the high mark."
                ),
            ),
            models.CheckConstraint(
                condition=Q(batch_size__gte=1), name="pooltarget_batch_positive"
            ),
            models.CheckConstraint(
                condition=Q(difficulty__in=Difficulty.values), name="pooltarget_difficulty_valid"
            ),
        ]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.difficulty}: {self.low}-{self.high}"


class RefillTally(models.Model):
    """The refill batches of a difficulty since the site began: how many, the puzzles they
    stored, their time added up and counted into buckets (pools/activity.BATCH_BUCKETS), and
    when the last one ended. Only ever grows, as the metrics' counters must."""

    difficulty = models.CharField(max_length=DIFFICULTY_LENGTH, choices=Difficulty.choices)
    batches = models.PositiveBigIntegerField(default=0)
    stored = models.PositiveBigIntegerField(default=0)
    seconds = models.FloatField(default=0.0)
    # buckets[i]: batches that took at most BATCH_BUCKETS[i] seconds.
    buckets = models.JSONField(default=list)
    last_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["difficulty"], name="refilltally_difficulty_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.difficulty}: {self.batches} batches, {self.stored} puzzles"


class Heartbeat(models.Model):
    """A worker's or beat's last sign of life, written by the process itself every
    HEARTBEAT_SECONDS (puzzles/pools/heartbeats.py). A process not seen for WORKER_GONE_SECONDS
    is gone; one that stopped cleanly says so at once; one that cannot reach the broker says
    so with each heartbeat, and is not alive: it can neither take tasks nor send them."""

    class Kind(models.TextChoices):
        WORKER = "worker"
        BEAT = "beat"

    kind = models.CharField(max_length=6, choices=Kind.choices)
    name = models.CharField(max_length=200, help_text="The worker's node name, or beat@host.")
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField()
    stopped_at = models.DateTimeField(null=True, blank=True)
    broker_lost_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Since when the process has not reached the broker; empty while it does.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "name"], name="heartbeat_kind_name_unique"),
        ]
        ordering = ["kind", "name"]

    def __str__(self) -> str:
        return f"{self.kind} {self.name} (pid {self.pid})"

    def state(self, now: datetime.datetime) -> str:
        """ "alive", "stopped" (it said so), "gone" (not seen for WORKER_GONE_SECONDS) or
        "no broker" (seen, but it could not reach the broker at its last heartbeat)."""
        if self.stopped_at is not None:
            return "stopped"
        gone_after = datetime.timedelta(seconds=settings.WORKER_GONE_SECONDS)
        if now - self.seen_at > gone_after:
            return "gone"
        return "alive" if self.broker_lost_at is None else "no broker"


class SeedJob(models.Model):
    class Kind(models.TextChoices):
        GENERATE = "generate"
        IMPORT = "import"

    class State(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    kind = models.CharField(max_length=8, choices=Kind.choices)
    difficulty = models.CharField(
        max_length=DIFFICULTY_LENGTH, choices=Difficulty.choices, blank=True
    )
    requested = models.PositiveIntegerField(help_text="Puzzles to make, or lines to import.")
    done = models.PositiveIntegerField(default=0, help_text="Puzzles stored.")
    rejected = models.PositiveIntegerField(default=0)
    position = models.PositiveIntegerField(default=0, help_text="Lines of the file handled.")
    # Where the next import chunk starts reading the file, so that it reads only its own lines.
    offset = models.PositiveIntegerField(default=0, help_text="Characters of the file read.")
    lines_read = models.PositiveIntegerField(
        default=0, help_text="Lines of the file read, blank ones included."
    )
    reasons = models.JSONField(default=list, blank=True)  # [line, reason], the first few hundred
    payload = models.TextField(blank=True)  # the uploaded file, for imports
    filename = models.CharField(max_length=255, blank=True)
    state = models.CharField(max_length=7, choices=State.choices, default=State.QUEUED)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    touched_at = models.DateTimeField(default=timezone.now, help_text="Last progress saved.")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="import") | ~Q(difficulty=""),
                name="seedjob_generate_has_difficulty",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["queued", "running", "done", "failed"]),
                name="seedjob_state_valid",
            ),
        ]
        indexes = [
            # The pool page's recent jobs: order_by("-created_at")[:15].
            models.Index(fields=["-created_at"], name="seedjob_created_idx"),
            # seeding.claim_stalled_jobs: state "queued" (or "running") and touched_at before
            # a time; also pool_status's open jobs. Not partial: SQLite would not see that
            # state="queued" falls within a condition on state.
            models.Index(fields=["state", "touched_at"], name="seedjob_state_touched_idx"),
        ]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        what = f"{self.requested} {self.difficulty}" if self.kind == "generate" else self.filename
        return f"{self.get_kind_display()} {what} ({self.state})"

    @property
    def progress(self) -> float:
        """Share of the work handled, 0 to 1."""
        handled = self.position if self.kind == self.Kind.IMPORT else self.done
        return min(1.0, handled / self.requested) if self.requested else 1.0


class AccountName(models.Model):
    """What an account's username looks like (usernames.skeleton): sign-up refuses a name
    that reads like one already taken. Kept up to date on every save of a user."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="account_name",
    )
    skeleton = models.CharField(max_length=600)

    class Meta:
        indexes = [models.Index(fields=["skeleton"], name="accountname_skeleton_idx")]

    def __str__(self) -> str:
        return f"{self.user} reads as {self.skeleton}"
