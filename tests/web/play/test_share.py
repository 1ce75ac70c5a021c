"""A player's own puzzle, share links, replays, and the grade shown in the open."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest
from django.test import Client

import engine
from engine.transforms import random_transform
from puzzles.accounts.players import Player
from puzzles.models import DailyPuzzle, Game, Move, Puzzle
from puzzles.play import sharing, starting
from puzzles.pools import daily
from puzzles.pools.daily import today

from ..helpers import play_to_the_end, post, start, state

pytestmark = pytest.mark.django_db

NEWSPAPER = """\
53..7....
6..195...
.98....6.
8...6...3
4..8.3..1
7...2...6
.6....28.
...419..5
....8..79
"""
NEWSPAPER_81 = engine.parse(NEWSPAPER)
SOLUTION = engine.solve(NEWSPAPER_81)
TWO_SOLUTIONS = "8.........95.......76.........426798...571243...893165......916....3.487....1.532"


def game_of(response) -> Game:
    assert response.status_code == 302, response
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def counts() -> tuple[int, int, int]:
    return Puzzle.objects.count(), Game.objects.count(), Move.objects.count()


# A player's own puzzle --------------------------------------------------------------------


def test_the_form_is_a_page(client, db):
    html = client.get("/play/custom/").content.decode()
    assert 'name="puzzle"' in html and 'action="/play/custom/"' in html


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("53..7....x" + "." * 71, "character 'x' at position 10"),
        ("1234", "81"),
        ("." * 82, "81"),
        ("55" + "." * 79, "row 1"),  # two equal givens in a unit
        ("5" + "." * 8 + "5" + "." * 71, "column 1"),
        ("12345678." + "........9" + "." * 63, "no solution"),  # r1c9 can hold nothing
        ("", "Type or paste a puzzle"),
        (SOLUTION, "already full"),
        ("1" * 5000, "far too long"),
    ],
)
def test_refused_puzzles_get_a_400_saying_what_is_wrong_and_change_nothing(
    client, stocked, text, says
):
    before = counts()
    response = client.post("/play/custom/", {"puzzle": text})
    assert response.status_code == 400
    html = unescape(response.content.decode())
    assert 'name="puzzle"' in html and "data-error" in html
    assert says.lower() in html.lower()
    assert counts() == before


def test_a_puzzle_with_several_solutions_shows_where_two_differ_and_no_solution(client, stocked):
    before = counts()
    response = client.post("/play/custom/", {"puzzle": TWO_SOLUTIONS})
    assert response.status_code == 400
    html = response.content.decode()
    assert "more than one solution" in html
    tables = re.findall(r"<table class=\"mini-grid\".*?</table>", html, re.S)
    assert len(tables) == 1
    shown = "".join(d or "0" for d in re.findall(r"<td[^>]*>(\d?)</td>", tables[0]))
    assert shown == engine.parse(TWO_SOLUTIONS)
    first, second = engine.solutions(engine.parse(TWO_SOLUTIONS), 2)
    differ = [c for c in range(81) if first[c] != second[c]]
    cells = re.findall(r"<td([^>]*)>", tables[0])
    assert [c for c, attrs in enumerate(cells) if "data-differ" in attrs] == differ
    assert counts() == before


def test_a_newspaper_puzzle_is_graded_stored_once_and_played_like_any_game(client, stocked):
    game = game_of(client.post("/play/custom/", {"puzzle": NEWSPAPER}))
    puzzle = game.puzzle
    assert puzzle.givens == NEWSPAPER_81 and puzzle.solution == SOLUTION
    assert puzzle.source == Puzzle.Source.PLAYER and puzzle.served_at is not None
    graded = engine.grade(NEWSPAPER_81)
    assert (puzzle.difficulty, puzzle.score) == (graded.difficulty, graded.score)
    assert game.values == NEWSPAPER_81 and game.daily is None
    first = state(client, game)
    assert "solution" not in first and first["grade"]["tier"] == puzzle.difficulty
    hint = post(client, game, "hint", {"level": 1, "version": 0})
    assert hint.status_code == 200
    # The same puzzle again (another visitor, typed as 81 characters) reuses it.
    other = Client()
    again = game_of(other.post("/play/custom/", {"puzzle": NEWSPAPER_81}))
    assert again.puzzle_id == puzzle.pk and again.pk != game.pk
    assert Puzzle.objects.filter(canonical_key=puzzle.canonical_key).count() == 1
    # The same visitor again: their game, not a second one.
    assert game_of(client.post("/play/custom/", {"puzzle": NEWSPAPER})).pk == game.pk
    assert f'href="/games/{game.pk}/"' in client.get("/history/").content.decode()


def test_a_transformed_copy_of_a_stored_puzzle_is_that_puzzle(client, stocked):
    stored = stocked["hard"][0]
    copy = random_transform(random.Random(3)).apply(stored.givens)
    assert copy != stored.givens
    before = Puzzle.objects.count()
    response = client.post("/play/custom/", {"puzzle": copy})
    game = game_of(response)
    assert game.puzzle_id == stored.pk and Puzzle.objects.count() == before
    stored.refresh_from_db()
    assert stored.served_at is not None  # out of the pool now
    assert "another arrangement" in client.get(response["Location"]).content.decode()


def test_players_puzzles_never_enter_a_pool_a_daily_or_anyone_elses_new_game(client, db):
    game_of(client.post("/play/custom/", {"puzzle": NEWSPAPER}))
    puzzle = Puzzle.objects.get()
    Game.objects.all().delete()  # as if the guest's game were gone: nobody played it
    assert not Puzzle.objects.fresh().exists()
    assert daily._unplayed(puzzle.difficulty) is None
    picked = daily.dailies_of(today())
    assert puzzle.pk not in {d.puzzle_id for d in picked.values()}
    fresh_game = starting.new_game(Player(guest_id="someone"), puzzle.difficulty)
    assert fresh_game.puzzle_id != puzzle.pk


def test_typing_puzzles_in_is_rate_limited(db):
    client = Client(REMOTE_ADDR="10.77.0.1")
    for _ in range(60):
        response = client.post("/play/custom/", {"puzzle": "1234"})
        if response.status_code == 429:
            break
        assert response.status_code == 400
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert Client(REMOTE_ADDR="10.77.0.2").post("/play/custom/", {"puzzle": "1"}).status_code == 400


# Share links ------------------------------------------------------------------------------


def test_a_shared_link_gives_another_visitor_their_own_game_and_never_the_solution(client, stocked):
    game = start(client, "medium")
    solution = game.puzzle.solution
    link = state(client, game)["share_url"]
    assert link == sharing.share_path(game.puzzle_id) and solution not in link
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert solution not in page
    friend = Client()
    shared = friend.get(link)
    assert shared.status_code == 200
    html = shared.content.decode()
    assert solution not in html and game.puzzle.givens not in html
    assert 'data-grade-tier="medium"' in html
    assert f'data-grade-score="{game.puzzle.score:.1f}"' in html
    theirs = game_of(friend.post(link))
    assert theirs.pk != game.pk and theirs.puzzle_id == game.puzzle_id
    assert theirs.guest_id != game.guest_id
    body = state(friend, theirs)
    assert solution not in str(body) and body["values"] == game.puzzle.givens
    # Again: the same game, resumed.
    assert game_of(friend.post(link)).pk == theirs.pk
    # The owner's own game through the link is theirs already.
    assert game_of(client.post(link)).pk == game.pk


def test_share_codes_cannot_be_guessed_or_used_for_puzzles_not_handed_out(client, stocked):
    fresh = Puzzle.objects.fresh("easy").first()
    assert client.get(sharing.share_path(fresh.pk)).status_code == 404  # still in the pool
    served = start(client).puzzle
    code = sharing.share_code(served.pk)
    head, mac = code.split("-")
    assert client.get(f"/p/{code}").status_code == 200
    for bad in (f"{head}-{mac[:-1]}x", f"{head}", f"zz-{mac}", "-", "%%", f"{head}-{mac}-1"):
        response = client.get(f"/p/{bad}")
        assert response.status_code == 404, bad
        assert client.post(f"/p/{bad}").status_code == 404
    assert Game.objects.count() == 1


def test_a_future_daily_cannot_be_shared(client, stocked):
    import datetime

    picked = daily.dailies_of(today() + datetime.timedelta(days=1))
    future = picked["easy"].puzzle
    assert client.get(sharing.share_path(future.pk)).status_code == 404


def test_a_shared_daily_starts_the_days_daily_game(client, stocked):
    todays = daily.dailies_of(today())["hard"]
    game = game_of(client.post(sharing.share_path(todays.puzzle_id)))
    assert game.daily_id == todays.pk


def test_the_shared_page_lists_clean_solves_by_accounts(alice, bob, stocked):
    import datetime

    import time_machine

    mine = Client()
    mine.force_login(alice)
    with time_machine.travel(datetime.datetime(2026, 6, 15, 12, 0, tzinfo=datetime.UTC)) as t:
        game = start(mine, "easy")
        play_to_the_end(mine, game, t, over=300)
    game.refresh_from_db()
    assert game.ranked
    html = Client().get(sharing.share_path(game.puzzle_id)).content.decode()
    assert "alice" in html and "5:0" in html
    assert game.puzzle.solution not in html


def test_the_shared_page_carries_a_card_for_chat_apps(client, stocked):
    game = start(client, "easy")
    path = sharing.share_path(game.puzzle_id)
    html = client.get(path).content.decode()
    tags = dict(
        re.findall(r'<meta (?:property|name)="((?:og|twitter):\w+)" content="([^"]*)"', html)
    )
    score = f"{game.puzzle.score:.1f}"
    assert tags["og:title"] == f"An easy Sudoku, rated {score}"
    assert f"{game.puzzle.clue_count} givens" in tags["og:description"]
    assert tags["og:url"] == f"http://testserver{path}"
    assert tags["og:image"].startswith("http://testserver/") and tags["og:image"].endswith(".png")
    assert tags["twitter:card"] == "summary"


# Replays ----------------------------------------------------------------------------------


def test_the_replay_is_shown_once_the_game_is_over_and_ends_on_the_finished_board(client, stocked):
    game = start(client)
    assert client.get(f"/api/games/{game.pk}/replay").status_code == 409
    post(client, game, "fill-notes", {"version": 0})
    blank = game.puzzle.givens.index("0")
    post(client, game, "moves", {"cell": blank, "digit": 0, "mode": "note", "version": 1})
    final = play_to_the_end(client, game)
    response = client.get(f"/api/games/{game.pk}/replay")
    assert response.status_code == 200
    frames = response.json()["frames"]
    assert frames[0]["values"] == game.puzzle.givens and frames[0]["kind"] is None
    assert all(not notes for notes in frames[0]["notes"])
    assert frames[-1]["values"] == final["values"] == game.puzzle.solution
    assert frames[1]["kind"] == "fill" and frames[2]["kind"] == "note"
    assert frames[2]["cell"] == blank
    assert len(frames) == Game.objects.get(pk=game.pk).moves_applied + 1
    assert Client().get(f"/api/games/{game.pk}/replay").status_code == 404


def test_the_replay_of_a_game_given_up_ends_before_the_solution_was_shown(client, stocked):
    game = start(client)
    cells = [c for c in range(81) if game.puzzle.givens[c] == "0"][:3]
    version = 0
    for cell in cells:
        version = post(
            client,
            game,
            "moves",
            {
                "cell": cell,
                "digit": int(game.puzzle.solution[cell]),
                "mode": "value",
                "version": version,
            },
        ).json()["version"]
    post(client, game, "undo", {"version": version})  # the last move is taken back
    over = post(client, game, "give-up").json()
    frames = client.get(f"/api/games/{game.pk}/replay").json()["frames"]
    assert len(frames) == 3
    assert frames[-1]["values"] == over["values"] != over["solution"]
    assert frames[-1]["values"][cells[2]] == "0"


# The grade in the open --------------------------------------------------------------------


def test_the_grade_is_on_the_daily_cards_the_history_and_the_state(client, stocked):
    html = client.get("/").content.decode()
    for card in DailyPuzzle.objects.filter(date=today()).select_related("puzzle"):
        assert f'data-grade-score="{card.puzzle.score:.1f}"' in html
    game = start(client, "hard")
    history = client.get("/history/").content.decode()
    assert f'data-score="{game.puzzle.score:.1f}"' in history
    playing = state(client, game)
    assert playing["grade"] == {"tier": "hard", "score": round(game.puzzle.score, 1)}
    assert "hardest" not in playing
    page = client.get(f"/games/{game.pk}/")
    assert page.context["grade"]["hardest"] is None
    assert page.context["share_url"].endswith(sharing.share_path(game.puzzle_id))
    over = post(client, game, "give-up").json()
    name = over["hardest"]["name"]
    assert name in game.puzzle.techniques
    assert over["hardest"]["slug"] == name.lower().replace(" ", "-")
    page = client.get(f"/games/{game.pk}/")
    assert page.context["grade"]["hardest"]["slug"] == over["hardest"]["slug"]
    assert client.get(f"/techniques/{over['hardest']['slug']}/").status_code == 200


def test_every_new_post_needs_the_csrf_token(client, stocked):
    code = sharing.share_code(start(client).puzzle_id)
    strict = Client(enforce_csrf_checks=True)
    before = counts()
    for url, data in [
        ("/play/custom/", {"puzzle": NEWSPAPER}),
        (f"/p/{code}", {}),
        ("/practice/hidden-single/", {}),
    ]:
        assert strict.post(url, data).status_code == 403
    assert counts() == before


def test_the_new_pages_answer_head_and_refuse_other_methods(client, stocked):
    code = sharing.share_code(start(client).puzzle_id)
    for url in ("/techniques/", "/techniques/x-wing/", "/play/custom/", f"/p/{code}"):
        assert client.head(url).status_code == 200
        assert client.put(url).status_code == 405
    assert client.get("/practice/x-wing/").status_code == 405
