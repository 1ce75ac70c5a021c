"""/analyse/: a puzzle or a position with pencil marks, its one solution or a clear
refusal, its grade and the logical path step by step, each step drawn; export and import
of pencil marks; and fair play: a stored puzzle, or a near copy of one, is analysed only as
help on the player's game of it, said before it shows."""

from __future__ import annotations

import datetime
import re
from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest

import engine
from puzzles.accounts import limits
from puzzles.models import DailyPuzzle, Game
from puzzles.play import analyse
from puzzles.pools import daily
from puzzles.pools.daily import today

from ..helpers import post, start, state

pytestmark = pytest.mark.django_db

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
MONSTER = engine.parse(EASTER_MONSTER)
SOLUTION = engine.solve(MONSTER)


def steps_of(html: str) -> list[tuple[int, str]]:
    return [
        (int(i), t) for i, t in re.findall(r'data-step="(\d+)" data-technique="([a-z0-9-]+)"', html)
    ]


def export_of(html: str) -> str:
    return unescape(re.search(r"<textarea[^>]*data-export>(.*?)</textarea>", html, re.S).group(1))


def test_the_form_shows_without_a_puzzle(client):
    response = client.get("/analyse/")
    assert response.status_code == 200
    assert 'name="puzzle"' in response.content.decode()
    assert "data-step" not in response.content.decode()


def test_easter_monster_is_analysed_step_by_step(client):
    response = client.get("/analyse/", {"puzzle": EASTER_MONSTER})
    html = response.content.decode()
    assert response.status_code == 200
    steps = steps_of(html)
    path = engine.solution_path(MONSTER)
    assert [i for i, _ in steps] == list(range(len(path)))
    assert [t for _, t in steps] == [engine.told_entry(p.step).slug for p in path]
    assert 'data-grade-tier="extreme"' in html
    # The first page of steps is drawn, each on its board, the step's cells marked.
    assert html.count("data-board-view") == analyse.DRAWN
    assert 'data-hint="target"' in html
    # The solution is not in the page before the last steps place it: no board shows it.
    assert SOLUTION not in html


def test_other_pages_draw_other_steps(client):
    response = client.get("/analyse/", {"puzzle": EASTER_MONSTER, "page": "2"})
    html = response.content.decode()
    drawn = re.findall(r'aria-label="Board before step (\d+)"', html)
    assert drawn[0] == str(analyse.DRAWN + 1)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("12345", "81"),
        ("x" * 81, "character"),
        ("11" + "0" * 79, "Row 1 has the digit 1 twice"),
        ("9" * 3000, "far too long"),
        ("0" * 81, "more than one solution"),
        ("123456780" + "0" * 71 + "9", "no solution"),
    ],
)
def test_a_text_that_cannot_be_analysed_is_refused_clearly(client, text, said):
    response = client.get("/analyse/", {"puzzle": text})
    assert response.status_code == 400
    html = response.content.decode()
    assert said in unescape(html)
    assert "data-error" in html and "data-step" not in html


def test_several_solutions_mark_where_two_differ(client):
    puzzle = MONSTER[:-1] + "0"
    several = MONSTER.replace("1", "0", 1)
    assert engine.count_solutions(puzzle) == 1 or engine.count_solutions(several) > 1
    text = several if engine.count_solutions(several) > 1 else "0" * 81
    response = client.get("/analyse/", {"puzzle": text})
    assert response.status_code == 400
    assert "this puzzle has more than one solution" in response.content.decode().lower()
    assert "data-differ-board" in response.content.decode()


def test_pencil_marks_export_and_import_round_trip(client):
    marks = engine.candidates(MONSTER)
    marks[1] = marks[1][1:] if int(SOLUTION[1]) != marks[1][0] else marks[1][:-1]
    text = analyse.pencil_marks(analyse.Position(MONSTER, marks))
    assert text.count("\n") == 12 and "|" in text
    position = analyse.read(text)
    assert position.grid == MONSTER
    assert position.marks() == [m if MONSTER[c] == "0" else [] for c, m in enumerate(marks)]
    response = client.get("/analyse/", {"puzzle": text})
    assert response.status_code == 200
    html = response.content.decode()
    assert export_of(html) == text
    # The path starts from the marks: the candidate taken out is not on the first board.
    assert re.search(r'data-cell="1"[^>]*aria-label="Row 1, column 2: empty, notes ([^"]*)"', html)
    shown = re.search(r'data-cell="1"[^>]*aria-label="Row 1, column 2: empty, notes ([\d ]*)', html)
    assert [int(d) for d in shown.group(1).split()] == marks[1]


def test_sudokuwiki_style_borders_are_read_too():
    text = analyse.pencil_marks(analyse.Position(MONSTER)).replace(".", "*").replace(":", "*")
    text = text.replace("'", "*").replace("+", "*")
    assert analyse.read(text) == analyse.Position(MONSTER, analyse.Position(MONSTER).marks())


def test_marks_that_take_out_the_right_digit_are_refused(client):
    marks = engine.candidates(MONSTER)
    marks[1] = [d for d in marks[1] if d != int(SOLUTION[1])]
    text = analyse.pencil_marks(analyse.Position(MONSTER, marks))
    response = client.get("/analyse/", {"puzzle": text})
    assert response.status_code == 400
    assert "take out the right digit in 1 cell (row 1, column 2)" in unescape(
        response.content.decode()
    )


def test_marks_that_leave_a_cell_nothing_are_refused(client):
    text = analyse.pencil_marks(analyse.Position(MONSTER))
    lines = text.splitlines()
    fields = lines[1].split()
    fields[2] = "12"  # row 1 holds both already
    lines[1] = " ".join(fields)
    response = client.get("/analyse/", {"puzzle": "\n".join(lines)})
    assert response.status_code == 400
    assert "row 1, column 2 no candidate" in unescape(response.content.decode())


def test_analyses_are_limited_per_client(client, monkeypatch):
    monkeypatch.setattr(
        limits, "COSTLY_READ_PER_CLIENT", limits.Limit("costly-read-client", 2, 600)
    )
    for _ in range(2):
        assert client.get("/analyse/", {"puzzle": EASTER_MONSTER}).status_code == 200
    refused = client.get("/analyse/", {"puzzle": EASTER_MONSTER})
    assert refused.status_code == 429
    assert "Retry-After" in refused


# Fair play ----------------------------------------------------------------------------


def test_a_puzzle_in_play_is_analysed_only_as_help_after_saying_so(player, stocked):
    game = start(player, "medium")
    puzzle = game.puzzle
    asked = player.get("/analyse/", {"puzzle": puzzle.givens})
    html = asked.content.decode()
    assert asked.status_code == 200
    assert "data-analyse-ask" in html and "counts as help" in html
    assert "data-step" not in html
    game.refresh_from_db()
    assert game.helped_at is None
    confirmed = player.post("/analyse/", {"puzzle": puzzle.givens, "confirm": "help"})
    assert confirmed.status_code == 302
    game.refresh_from_db()
    assert game.helped_at is not None
    shown = player.get(confirmed["Location"])
    assert shown.status_code == 200 and steps_of(shown.content.decode())
    assert "data-analysis-helped" in shown.content.decode()
    # Solving it now is not clean.
    for cell in range(81):
        if puzzle.givens[cell] == "0":
            post(
                player,
                game,
                "moves",
                {
                    "cell": cell,
                    "digit": int(puzzle.solution[cell]),
                    "mode": "value",
                    "version": state(player, game)["version"],
                },
            )
    game.refresh_from_db()
    assert game.status == Game.Status.SOLVED and not game.clean


def test_a_near_copy_of_todays_daily_counts_as_help_on_it(player, stocked):
    picked = daily.dailies_of(today())
    puzzle = picked["easy"].puzzle
    cell = puzzle.givens.index("0")
    copy = puzzle.givens[:cell] + puzzle.solution[cell] + puzzle.givens[cell + 1 :]
    asked = player.get("/analyse/", {"puzzle": copy})
    assert "data-analyse-ask" in asked.content.decode()
    assert not Game.objects.filter(puzzle=puzzle).exists()
    confirmed = player.post("/analyse/", {"puzzle": copy, "confirm": "help"})
    assert confirmed.status_code == 302
    game = Game.objects.get(puzzle=puzzle)
    assert game.daily is not None and game.helped_at is not None


def test_a_future_daily_is_not_analysed(player, stocked):
    ahead = today() + datetime.timedelta(days=3)
    picked = daily.dailies_of(ahead)
    puzzle = picked["easy"].puzzle
    response = player.post("/analyse/", {"puzzle": puzzle.givens, "confirm": "help"})
    assert response.status_code == 400
    assert "data-step" not in response.content.decode()
    assert not Game.objects.filter(puzzle=puzzle).exists()
    assert DailyPuzzle.objects.filter(date=ahead, puzzle=puzzle).exists()


def test_a_finished_game_is_analysed_freely(player, stocked):
    game = start(player, "easy")
    post(player, game, "give-up")
    response = player.get(f"/analyse/games/{game.pk}/")
    assert response.status_code == 302
    shown = player.get(response["Location"])
    assert shown.status_code == 200 and steps_of(shown.content.decode())


def test_analyse_this_position_asks_then_counts_as_a_hint(player, stocked):
    game = start(player, "medium")
    puzzle = game.puzzle
    cell = puzzle.givens.index("0")
    digit = int(puzzle.solution[cell])
    post(player, game, "moves", {"cell": cell, "digit": digit, "mode": "value", "version": 0})
    post(player, game, "fill-notes", {"version": state(player, game)["version"]})
    other = next(c for c in range(81) if puzzle.givens[c] == "0" and c != cell)
    notes = state(player, game)["notes"][other]
    wrong = next(d for d in notes if d != int(puzzle.solution[other]))
    post(
        player,
        game,
        "moves",
        {"cell": other, "digit": wrong, "mode": "note", "version": state(player, game)["version"]},
    )
    asked = player.get(f"/analyse/games/{game.pk}/")
    assert asked.status_code == 200 and "counts as help" in asked.content.decode()
    game.refresh_from_db()
    assert game.hints == 0 and game.helped_at is None
    response = player.post(f"/analyse/games/{game.pk}/")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.hints == 1 and game.helped_at is not None
    text = parse_qs(urlparse(response["Location"]).query)["puzzle"][0]
    position = analyse.read(text)
    assert position.grid[cell] == str(digit)
    assert wrong not in position.marks()[other]
    shown = player.get(response["Location"])
    assert shown.status_code == 200 and steps_of(shown.content.decode())


def test_someone_elses_game_is_not_found(client, player, stocked):
    game = start(player, "easy")
    client.logout()
    assert client.get(f"/analyse/games/{game.pk}/").status_code == 404


def test_the_pages_link_to_the_analysis(player, stocked):
    game = start(player, "easy")
    html = player.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/analyse/games/{game.pk}/" data-analyse ' in html
    assert f'href="/analyse/games/{game.pk}/" data-analyse-finished' in html
    assert 'href="/analyse/"' in player.get("/").content.decode()


def test_a_guest_is_asked_too_and_gets_a_helped_game(client, stocked):
    puzzle = stocked["hard"][0]
    asked = client.get("/analyse/", {"puzzle": puzzle.givens})
    assert "data-analyse-ask" in asked.content.decode()
    assert "data-step" not in asked.content.decode()
    confirmed = client.post("/analyse/", {"puzzle": puzzle.givens, "confirm": "help"})
    assert confirmed.status_code == 302
    game = Game.objects.get(puzzle=puzzle)
    assert game.guest_id and game.helped_at is not None
    shown = client.get(confirmed["Location"])
    assert steps_of(shown.content.decode())


@pytest.mark.parametrize("page", ["abc", "-1", "0", "99999", "٣"])
def test_a_page_number_out_of_reach_draws_the_first_or_last_page(client, page):
    response = client.get("/analyse/", {"puzzle": EASTER_MONSTER, "page": page})
    assert response.status_code == 200
    assert response.content.decode().count("data-board-view") >= 1


def test_a_post_without_a_puzzle_shows_the_form(client):
    response = client.post("/analyse/", {})
    assert response.status_code == 200
    assert "data-step" not in response.content.decode()


def test_analyse_this_position_needs_csrf(player, stocked):
    from django.test import Client

    game = start(player, "easy")
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = player.cookies
    assert strict.post(f"/analyse/games/{game.pk}/").status_code == 403
    game.refresh_from_db()
    assert game.hints == 0 and game.helped_at is None


def test_analyse_this_position_leaves_a_paused_clock_paused(player, stocked):
    game = start(player, "easy")
    assert post(player, game, "pause").status_code == 200
    game.refresh_from_db()
    assert game.resumed_at is None
    assert player.post(f"/analyse/games/{game.pk}/").status_code == 302
    game.refresh_from_db()
    assert game.resumed_at is None and game.hints == 1
