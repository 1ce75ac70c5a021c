"""A player's history and statistics, daily streaks, and the daily leaderboards."""

from __future__ import annotations

import datetime
import math
import statistics
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy, pgettext

from ..accounts.players import Player
from ..models import DailyPuzzle, Difficulty, Game
from ..pools.daily import today


def history(
    player: Player, difficulty: str = "", status: str = "", *, practice: bool = False
) -> QuerySet[Game]:
    """The player's games, newest first, optionally of one difficulty and status; those
    set aside at log-in included. Practice games are listed apart: with practice, only
    they."""
    games = player.all_games().select_related("puzzle", "daily").order_by("-updated_at", "-pk")
    games = games.practice_games() if practice else games.filter(practice="")
    if difficulty in Difficulty.values:
        games = games.filter(puzzle__difficulty=difficulty)
    if status in Game.Status.values:
        games = games.filter(status=status)
    return games


def _daily_dates(player: Player, zone: datetime.tzinfo | None) -> set[datetime.date]:
    """Dates whose daily puzzle the player solved on the day itself, in the zone."""
    solved = player.games().filter(status=Game.Status.SOLVED, daily__isnull=False)
    dates = set()
    for finished, date in solved.values_list("finished_at", "daily__date"):
        if finished and timezone.localtime(finished, zone).date() == date:
            dates.add(date)
    return dates


def streaks(
    player: Player, zone: datetime.tzinfo | None = None, now: datetime.date | None = None
) -> tuple[int, int]:
    """(current, best) runs of consecutive days with a daily solved that day, days of the
    player's time zone (the site's without one) up to the player's today (`now`). The
    current run still counts until today is over, if yesterday was solved."""
    dates = _daily_dates(player, zone)
    best = run = 0
    for date in sorted(dates):
        run = run + 1 if date - datetime.timedelta(days=1) in dates else 1
        best = max(best, run)
    now = now or today()
    day = now if now in dates else now - datetime.timedelta(days=1)
    current = 0
    while day in dates:
        current += 1
        day -= datetime.timedelta(days=1)
    return current, best


@dataclass
class DifficultyStats:
    difficulty: str
    played: int
    solved: int
    best: float | None  # clean solves at human speed only
    average: float | None
    median: float | None


def by_difficulty(player: Player) -> list[DifficultyStats]:
    """Played, solved, best (clean solves), average and median solve time per difficulty."""
    games = player.games()
    rows = games.values_list("puzzle__difficulty", "status", "active_seconds")
    clean_rows = games.human_solves().values_list("puzzle__difficulty", "active_seconds")
    result = []
    for difficulty in Difficulty.values:
        mine = [r for r in rows if r[0] == difficulty]
        times = [r[2] for r in mine if r[1] == Game.Status.SOLVED]
        clean = [seconds for d, seconds in clean_rows if d == difficulty]
        result.append(
            DifficultyStats(
                difficulty,
                played=len(mine),
                solved=len(times),
                best=min(clean) if clean else None,
                average=statistics.fmean(times) if times else None,
                median=statistics.median(times) if times else None,
            )
        )
    return result


@dataclass
class BoardRow:
    rank: int
    name: str
    seconds: float
    mistakes: int
    is_you: bool


def leaderboard(daily: DailyPuzzle, player: Player, limit: int = 20) -> list[BoardRow]:
    """The day's ranked solves (clean, at human speed, by accounts), fastest first; the
    player's own row is added at its rank when it falls outside the top."""
    solves = daily.games.ranked()
    ordered = solves.select_related("user").order_by("ranked_seconds", "finished_at", "pk")
    rows = [_row(rank, game, player) for rank, game in enumerate(ordered[:limit], 1)]
    if any(row.is_you for row in rows) or player.user is None:
        return rows
    mine = solves.filter(user=player.user).first()
    if mine is not None:
        ahead = solves.filter(ranked_seconds__lt=mine.ranked_seconds).count()
        rows.append(_row(ahead + 1, mine, player))
    return rows


def would_place(daily: DailyPuzzle, player: Player) -> int | None:
    """Where a guest's clean solve at human speed would rank on the day's board (guests
    are not on it), or None."""
    if player.user is not None or player.guest_id is None:
        return None
    mine = daily.games.human_solves().filter(guest_id=player.guest_id).first()
    if mine is None:
        return None
    return daily.games.ranked().filter(ranked_seconds__lt=mine.ranked_seconds).count() + 1


def finish_record(game: Game) -> dict:
    """For a game just solved at human speed without help: the owner's best time on that
    difficulty before it ("best", seconds) and, for a daily, its place on the day's board
    ("place"; where it would stand, for a guest). Empty for any other game."""
    if game.status != Game.Status.SOLVED or not game.clean or game.too_fast:
        return {}
    owner = {"user_id": game.user_id} if game.user_id else {"guest_id": game.guest_id}
    earlier = (
        Game.objects.human_solves()
        .filter(puzzle__difficulty=game.puzzle.difficulty, **owner)
        .exclude(pk=game.pk)
        .order_by("active_seconds")
        .values_list("active_seconds", flat=True)
        .first()
    )
    record: dict = {"best": round(earlier, 1)} if earlier is not None else {}
    if game.daily_id:
        faster = game.daily.games.ranked().filter(ranked_seconds__lt=game.ranked_seconds)
        record["place"] = faster.exclude(pk=game.pk).count() + 1
    return record


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ..."""
    if n % 100 in (11, 12, 13):
        said = pgettext("ordinal 11, 12, 13", "%(n)dth")
    elif n % 10 == 1:
        said = pgettext("ordinal 1", "%(n)dst")
    elif n % 10 == 2:
        said = pgettext("ordinal 2", "%(n)dnd")
    elif n % 10 == 3:
        said = pgettext("ordinal 3", "%(n)drd")
    else:
        said = pgettext("ordinal 0, 4-9", "%(n)dth")
    return said % {"n": n}


def _row(rank: int, game: Game, player: Player) -> BoardRow:
    is_you = player.user is not None and game.user_id == player.user.pk
    return BoardRow(rank, game.user.username, game.ranked_seconds, game.mistakes, is_you)


def clock(seconds: float | None) -> str:
    """12:34, or 1:02:03 past the hour."""
    if seconds is None:
        return "—"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


COLOURS = {
    "easy": "#2e7d32",
    "medium": "#1565c0",
    "hard": "#ef6c00",
    "expert": "#c62828",
    "master": "#6a1b9a",
    "extreme": "#263238",
}
MARKS = {
    "easy": "circle",
    "medium": "square",
    "hard": "diamond",
    "expert": "triangle",
    "master": "down",
    "extreme": "star",
}
CHART_LABEL = gettext_lazy("Solve times over time")

Point = tuple[float, float]


@dataclass
class ChartMark:
    """One solve: where its mark stands, and the corners of its square or polygon."""

    x: float
    y: float
    corner: Point  # the square's top left
    vertices: list[Point]  # the diamond's or triangle's corners
    tip: str  # "hard, 09 Nov 2026: 17:02"


@dataclass
class ChartSeries:
    difficulty: str
    colour: str
    shape: str  # circle, square, diamond or triangle: the marks differ by shape as well
    line: list[Point]  # the polyline through the marks, when there are two or more
    marks: list[ChartMark]


@dataclass
class ChartTick:
    y: float
    minutes: float

    @property
    def label_y(self) -> float:
        return self.y + 4


@dataclass
class ChartDate:
    x: float
    text: str  # 09 Nov 2026
    anchor: str


@dataclass
class Chart:
    """The numbers of the solve-time chart; templates/puzzles/solve_time_chart.svg draws it."""

    width: int
    height: int
    left: int
    right: int  # the x where the plot ends
    top: int
    label: str
    ticks: list[ChartTick]
    dates: list[ChartDate]
    series: list[ChartSeries]

    @property
    def tick_label_x(self) -> int:
        return self.left - 6

    @property
    def axis_label_y(self) -> int:
        return self.top + 4

    @property
    def date_y(self) -> int:
        return self.height - 12


def solve_time_chart(player: Player, width: int = 640, height: int = 260) -> Chart | None:
    """Solve times (minutes) over time, one series per difficulty; None before any solve."""
    solved = list(
        player.games()
        .filter(status=Game.Status.SOLVED, finished_at__isnull=False)
        .order_by("finished_at")
        .values_list("finished_at", "active_seconds", "puzzle__difficulty")
    )
    if not solved:
        return None
    left, right, top, bottom = 56, 12, 14, 40
    first, last = solved[0][0], solved[-1][0]
    span = max((last - first).total_seconds(), 1.0)
    longest = max(s for _, s, _ in solved) / 60 or 1.0
    scale = _nice_ceiling(longest)

    def x(when: datetime.datetime) -> float:
        return left + (width - left - right) * (
            (when - first).total_seconds() / span if span > 1 else 0.5
        )

    def y(seconds: float) -> float:
        return top + (height - top - bottom) * (1 - seconds / 60 / scale)

    ticks = [ChartTick(y(scale * i / 4 * 60), scale * i / 4) for i in range(5)]
    dates = [
        ChartDate(x(when), _day(when), "start" if when == first else "end")
        for when in ((first, last) if span > 1 else (first,))
    ]
    series = []
    for difficulty in Difficulty.values:
        marks = [
            _mark(MARKS[difficulty], x(w), y(s), f"{difficulty}, {_day(w)}: {clock(s)}")
            for w, s, d in solved
            if d == difficulty
        ]
        if marks:
            line = [(m.x, m.y) for m in marks] if len(marks) > 1 else []
            shape = MARKS[difficulty]
            series.append(ChartSeries(difficulty, COLOURS[difficulty], shape, line, marks))
    return Chart(width, height, left, width - right, top, CHART_LABEL, ticks, dates, series)


def _day(when: datetime.datetime) -> str:
    """09 Nov 2026, in the site's time zone."""
    return formats.date_format(timezone.localtime(when).date(), "d M Y")


def _mark(shape: str, x: float, y: float, tip: str) -> ChartMark:
    """A point that differs by shape as well as colour."""
    if shape == "diamond":
        vertices = [(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)]
    elif shape == "triangle":
        vertices = [(x, y - 5), (x + 5, y + 4), (x - 5, y + 4)]
    elif shape == "down":
        vertices = [(x, y + 5), (x + 5, y - 4), (x - 5, y - 4)]
    elif shape == "star":
        vertices = [
            (x + r * math.sin(i * math.pi / 5), y - r * math.cos(i * math.pi / 5))
            for i, r in zip(range(10), [6, 2.5] * 5, strict=True)
        ]
    else:
        vertices = []
    return ChartMark(x, y, (x - 4, y - 4), vertices, tip)


def _nice_ceiling(value: float) -> float:
    """The axis top: 1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120 ... minutes."""
    for step in (1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240):
        if value <= step:
            return float(step)
    return float(int(value) + 1)
