"""A typed-in puzzle tells nothing about the solution of a puzzle stored here: a copy of a
daily (today's or an older one) with a given taken out, a digit added (right or wrong),
both, or changed and then given up, relabelled and transposed or not, opens the player's
game on the daily and counts as help on it, and never shows its solution."""

from __future__ import annotations

import datetime
import re
from html import unescape

import pytest
from django.test import Client

import engine
from puzzles.models import Game, Puzzle
from puzzles.pools import daily
from puzzles.pools.daily import today

from ..helpers import post, state

pytestmark = pytest.mark.django_db

WHEN = {"today": 0, "last week": 7}


def relabelled_and_transposed(puzzle: str) -> str:
    """The same puzzle, its rows written as columns and every digit d written d % 9 + 1."""
    return "".join(
        "0" if (ch := puzzle[c * 9 + r]) == "0" else str(int(ch) % 9 + 1)
        for r in range(9)
        for c in range(9)
    )


def daily_game(client, when: str, difficulty: str) -> Game:
    """The client's game on a daily, started through the site."""
    date = today() - datetime.timedelta(days=WHEN[when])
    daily.dailies_of(date)
    response = client.post(f"/daily/{date.isoformat()}/{difficulty}/")
    assert response.status_code == 302
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def with_digit(puzzle: str, cell: int, digit: int) -> str:
    return puzzle[:cell] + str(digit) + puzzle[cell + 1 :]


def a_wrong_digit(puzzle: str, solution: str) -> tuple[int, int]:
    """A blank cell and a digit that breaks no rule with the givens, but is not the
    solution's."""
    options = engine.candidates(puzzle)
    for cell in range(81):
        if puzzle[cell] == "0":
            wrong = [d for d in options[cell] if str(d) != solution[cell]]
            if wrong:
                return cell, wrong[0]
    raise AssertionError("every blank allows only its answer")


def typed(client, puzzle: str):
    return client.post("/play/custom/", {"puzzle": puzzle})


def answer(client, puzzle: str) -> tuple[int, str | None, str]:
    """What typing a puzzle shows: the status, where it leads, and the page then seen (the
    game's, or the form's), less what changes from one request to the next."""
    response = typed(client, puzzle)
    page = client.get(response["Location"]) if response.status_code == 302 else response
    text = re.sub(r"\s+", " ", unescape(page.content.decode()))
    # The CSRF token is masked anew each time, the clock runs on, and the mark of the
    # page's owner is issued anew.
    text = re.sub(r'(csrf[^>]*?(value|content)=")[^"]+', r"\1", text)
    text = re.sub(r"\d+:\d\d<", "<", text)
    text = re.sub(r'"(elapsed|runs_for)": [\d.]+', "", text)
    text = re.sub(r'(data-owner-(issued|expires)=")\d+', r"\1", text)
    return response.status_code, response.get("Location"), text


# How many solutions a copy with a wrong digit has (counted up to one past the limit).
KINDS = {
    "several": range(2, engine.NEAR_LIMIT + 1),
    "one": range(1, 2),
    "none": range(0, 1),
    "too many": range(engine.NEAR_LIMIT + 1, engine.NEAR_LIMIT + 2),
}


def a_given_out_and_a_digit_added(puzzle: str, solution: str, kind: str) -> tuple[str, str]:
    """The first copy of a puzzle with a given taken out and a right digit added that still
    has at most NEAR_LIMIT solutions (so it is matched by its own), beside the same copy
    with a wrong digit instead, which leaves it as many solutions as the kind says."""
    for given in (c for c in range(81) if puzzle[c] != "0"):
        fewer = with_digit(puzzle, given, 0)
        options = engine.candidates(fewer)
        for cell in (c for c in range(81) if fewer[c] == "0" and c != given):
            right = with_digit(fewer, cell, int(solution[cell]))
            if engine.count_solutions(right, engine.NEAR_LIMIT + 1) > engine.NEAR_LIMIT:
                continue
            for digit in options[cell]:
                wrong = with_digit(fewer, cell, digit)
                if (
                    wrong != right
                    and engine.count_solutions(wrong, engine.NEAR_LIMIT + 1) in KINDS[kind]
                ):
                    return right, wrong
    raise AssertionError(f"no copy with a wrong digit that leaves {kind} solutions")


@pytest.mark.parametrize("when", list(WHEN))
@pytest.mark.parametrize("transform", [False, True], ids=["plain", "relabelled+transposed"])
def test_a_right_and_a_wrong_digit_added_to_a_daily_answer_alike(client, stocked, when, transform):
    game = daily_game(client, when, "hard")
    puzzle, solution = game.puzzle.givens, game.puzzle.solution
    cell, wrong = a_wrong_digit(puzzle, solution)
    answers = []
    for digit in (int(solution[cell]), wrong):
        copy = with_digit(puzzle, cell, digit)
        answers.append(answer(client, relabelled_and_transposed(copy) if transform else copy))
    assert answers[0] == answers[1]
    status, location, _ = answers[0]
    assert status == 302 and location == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.helped_at is not None  # the typing counts as help, as a check does
    assert Puzzle.objects.filter(source=Puzzle.Source.PLAYER).count() == 0


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("difficulty", ["hard", "expert"])
@pytest.mark.parametrize("transform", [False, True], ids=["plain", "relabelled+transposed"])
def test_a_given_taken_out_and_a_right_or_a_wrong_digit_added_answer_alike(
    client, stocked, kind, difficulty, transform
):
    # The right digit leaves the daily's solution among the copy's own, so its game opens;
    # a wrong one leaves it several solutions, one, none or too many to list, none of
    # them the daily's.
    game = daily_game(client, "today", difficulty)
    right, wrong = a_given_out_and_a_digit_added(game.puzzle.givens, game.puzzle.solution, kind)
    answers = [
        answer(client, relabelled_and_transposed(c) if transform else c) for c in (right, wrong)
    ]
    assert answers[0] == answers[1]
    status, location, _ = answers[1]
    assert status == 302 and location == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.helped_at is not None
    assert Puzzle.objects.filter(source=Puzzle.Source.PLAYER).count() == 0


def test_a_puzzle_stored_near_a_wrong_digits_copy_does_not_open_in_place_of_the_daily(
    client, stocked
):
    game = daily_game(client, "today", "hard")
    right, wrong = a_given_out_and_a_digit_added(
        game.puzzle.givens, game.puzzle.solution, "several"
    )
    # A puzzle of one's own whose solution is one of the wrong copy's own: typed first, it
    # is stored as a new puzzle, nearer the wrong copy than the daily is.
    first, second = engine.solutions(wrong, 2)
    bait = wrong
    for cell in (c for c in range(81) if first[c] != second[c]):
        bait = with_digit(bait, cell, int(first[cell]))
        if engine.count_solutions(bait, 2) == 1:
            break
    response = typed(Client(), bait)
    assert response.status_code == 302
    assert Puzzle.objects.filter(source=Puzzle.Source.PLAYER, solution=first).exists()
    answers = [answer(client, copy) for copy in (right, wrong)]
    assert answers[0] == answers[1]
    assert answers[1][:2] == (302, f"/games/{game.pk}/")


@pytest.mark.parametrize("when", list(WHEN))
@pytest.mark.parametrize("transform", [False, True], ids=["plain", "relabelled+transposed"])
def test_a_daily_with_a_given_taken_out_shows_none_of_its_solution(
    client, stocked, when, transform
):
    game = daily_game(client, when, "expert")
    puzzle, solution = game.puzzle.givens, game.puzzle.solution
    givens = [c for c in range(81) if puzzle[c] != "0"]
    opened = 0
    for cell in givens[:6]:
        copy = with_digit(puzzle, cell, 0)
        if transform:
            copy = relabelled_and_transposed(copy)
        response = typed(client, copy)
        digits = re.sub(r"\D", "", unescape(response.content.decode()))
        for grid in (solution, relabelled_and_transposed(solution)):
            assert grid not in digits
        if engine.count_solutions(copy, engine.NEAR_LIMIT + 1) <= engine.NEAR_LIMIT:
            # Its solutions are looked up, and one is the daily's: the copy is the daily.
            assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
            opened += 1
        else:
            # Too loose to look up: refused, the cells where two solutions differ marked.
            assert response.status_code == 400 and "data-differ-board" in response.content.decode()
    assert opened
    game.refresh_from_db()
    assert game.helped_at is not None


@pytest.mark.parametrize("when", list(WHEN))
def test_a_near_copy_of_a_daily_accepted_and_given_up_gives_nothing_away(client, stocked, when):
    game = daily_game(client, when, "easy")
    puzzle, solution = game.puzzle.givens, game.puzzle.solution
    redundant = [
        c
        for c in range(81)
        if puzzle[c] != "0" and engine.count_solutions(with_digit(puzzle, c, 0), 2) == 1
    ]
    assert redundant, "an easy daily has a given it can do without"
    response = typed(client, relabelled_and_transposed(with_digit(puzzle, redundant[0], 0)))
    assert response.status_code == 302
    opened = Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    # The copy is the daily: its game, not a new puzzle whose given-up board completes it.
    assert opened.pk == game.pk
    assert Puzzle.objects.filter(source=Puzzle.Source.PLAYER).count() == 0
    over = post(client, opened, "give-up").json()
    assert over["status"] == "gave_up" and over["clean"] is False
    # Giving the copy up gave the daily up: no clean solve of it can follow.
    game.refresh_from_db()
    assert game.status == Game.Status.GAVE_UP and not game.clean
    assert state(client, game)["solution"] == solution


def test_a_daily_with_the_players_digits_added_answers_alike_whether_one_is_wrong(client, stocked):
    game = daily_game(client, "today", "medium")
    puzzle, solution = game.puzzle.givens, game.puzzle.solution
    blanks = [c for c in range(81) if puzzle[c] == "0"][::3]
    right = puzzle
    for cell in blanks:
        right = with_digit(right, cell, int(solution[cell]))
    cell, wrong = a_wrong_digit(right, solution)
    answers = [typed(client, right), typed(client, with_digit(right, cell, wrong))]
    assert [(a.status_code, a.get("Location")) for a in answers] == [
        (302, f"/games/{game.pk}/")
    ] * 2


def test_a_puzzle_with_several_solutions_shows_where_they_differ_never_a_solution(client, db):
    several = "8.........95.......76.........426798...571243...893165......916....3.487....1.532"
    response = typed(client, several)
    assert response.status_code == 400
    html = response.content.decode()
    assert "more than one solution" in html
    first, second = engine.solutions(engine.parse(several), 2)
    marked = len(re.findall(r"data-differ[ >]", html))
    assert marked == sum(a != b for a, b in zip(first, second, strict=True))
    cells = re.findall(r"<td[^>]*>(\d?)</td>", html)
    assert len(cells) == 81
    shown = "".join(d or "0" for d in cells)
    assert shown == engine.parse(several)  # the givens, nothing of any solution
