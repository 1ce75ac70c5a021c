"""The game API: moves, notes, undo and redo, help, the clock, the end, and every way a
client can get it wrong."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

import engine
from puzzles.models import Game
from puzzles.pools.daily import today

from ..helpers import empty_cells, play_to_the_end, post, start, state

pytestmark = pytest.mark.django_db


def wrong_digit(game: Game, cell: int) -> int:
    """A digit that is not the solution's, preferring one no given in sight rules out."""
    seen = _peer_givens(game, cell)
    wrong = [d for d in range(1, 10) if str(d) != game.puzzle.solution[cell]]
    return next((d for d in wrong if str(d) not in seen), wrong[0])


def _peer_givens(game: Game, cell: int) -> set[str]:
    return {game.puzzle.givens[p] for p in engine.PEERS[cell]}


def test_a_new_game_starts_from_a_post_and_shows_its_state(player, stocked):
    game = start(player)
    assert game.user.username == "alice"
    body = state(player, game)
    assert set(body) >= {
        "id",
        "puzzle",
        "values",
        "notes",
        "status",
        "version",
        "elapsed",
        "mistakes",
        "hints",
    }
    assert body["puzzle"] == body["values"] == game.puzzle.givens
    assert body["notes"] == [[] for _ in range(81)]
    assert (body["status"], body["version"], body["hints"]) == ("playing", 0, 0)
    assert body["mistakes"] is None  # not shown while playing with mistake marking off
    assert player.get("/play/easy/").status_code == 405
    assert player.post("/play/impossible/").status_code == 404


def test_a_move_places_a_digit_and_bumps_the_version(player, stocked):
    game = start(player)
    cell = empty_cells(game)[0]
    digit = int(game.puzzle.solution[cell])
    body = post(
        player, game, "moves", {"cell": cell, "digit": digit, "mode": "value", "version": 0}
    ).json()
    assert body["values"][cell] == str(digit)
    assert body["version"] == 1 and body["can_undo"]
    assert state(player, game)["values"][cell] == str(digit)  # stored, not just echoed


def test_a_wrong_digit_counts_a_mistake_shown_only_with_marking_on(player, stocked):
    game = start(player)
    cell = empty_cells(game)[0]
    body = post(
        player, game, "moves", {"cell": cell, "digit": wrong_digit(game, cell), "version": 0}
    )
    assert (body.json()["mistakes"], body.json()["wrong"]) == (None, [])  # no live oracle
    assert Game.objects.get(pk=game.pk).mistakes == 1  # but counted
    player.post("/settings/", {"mark_mistakes": "on", "theme": "system", "show_timer": "on"})
    body = state(player, game)
    assert (body["mistakes"], body["wrong"]) == (1, [cell])


def test_a_game_played_with_mistakes_marked_is_not_clean(player, stocked):
    player.post("/settings/", {"mark_mistakes": "on", "theme": "system"})
    game = start(player)
    body = play_to_the_end(player, game)
    assert body["status"] == "solved" and body["clean"] is False
    assert Game.objects.get(pk=game.pk).marked


def test_notes_toggle_and_clear_and_placing_a_digit_removes_it_from_peer_notes(player, stocked):
    game = start(player)
    first, *others = empty_cells(game)
    digit = int(game.puzzle.solution[first])
    peer = next(c for c in others if c in engine.PEERS[first])
    version = 0
    for cell, d in [(peer, digit), (peer, 4 if digit != 4 else 5), (first, 1)]:
        version = post(
            player, game, "moves", {"cell": cell, "digit": d, "mode": "note", "version": version}
        ).json()["version"]
    body = state(player, game)
    assert sorted(body["notes"][peer]) == sorted({digit, 4 if digit != 4 else 5})
    body = post(
        player, game, "moves", {"cell": first, "digit": digit, "mode": "value", "version": version}
    ).json()
    assert digit not in body["notes"][peer]  # auto-removed from the peer
    assert body["notes"][first] == []
    body = post(player, game, "undo", {"version": body["version"]}).json()
    assert digit in body["notes"][peer] and body["notes"][first] == [1]  # undo brings both back
    body = post(
        player,
        game,
        "moves",
        {"cell": peer, "digit": 0, "mode": "note", "version": body["version"]},
    ).json()
    assert body["notes"][peer] == []


def test_undo_and_redo_walk_the_server_log(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    v = post(player, game, "moves", {"cell": a, "digit": 3, "version": 0}).json()["version"]
    v = post(player, game, "moves", {"cell": b, "digit": 4, "version": v}).json()["version"]
    body = post(player, game, "undo", {"version": v}).json()
    assert body["values"][b] == "0" and body["values"][a] == "3" and body["can_redo"]
    body = post(player, game, "undo", {"version": body["version"]}).json()
    assert body["values"][a] == "0" and not body["can_undo"]
    response = post(player, game, "undo", {"version": body["version"]})
    assert response.status_code == 409 and "Nothing to undo" in response.json()["error"]
    body = post(player, game, "redo", {"version": body["version"]}).json()
    assert body["values"][a] == "3"
    body = post(player, game, "moves", {"cell": b, "digit": 5, "version": body["version"]}).json()
    assert not body["can_redo"]  # a new move drops what was undone
    log = [(m.number, m.cell, m.digit) for m in game.moves.order_by("number")]
    assert log == [(1, a, 3), (2, b, 5)]
    assert Game.objects.get(pk=game.pk).version == body["version"] == 6


def test_solving_ends_the_game_and_only_then_shows_the_solution(player, stocked):
    game = start(player)
    assert game.puzzle.solution not in player.get(f"/api/games/{game.pk}").content.decode()
    body = play_to_the_end(player, game)
    assert body["status"] == "solved"
    assert body["solution"] == game.puzzle.solution
    assert body["clean"] is True
    response = post(
        player,
        game,
        "moves",
        {"cell": empty_cells(game)[0], "digit": 1, "version": body["version"]},
    )
    assert response.status_code == 409 and "over" in response.json()["error"]
    game.refresh_from_db()
    assert game.finished_at and game.resumed_at is None


def _leaks(solution: str, body: str, values: str) -> bool:
    """Whether a response shows more of the solution than the board it answers about:
    the whole string, or it spread out with separators, or as a list of digits."""
    digits = "".join(ch for ch in body if ch.isdigit())
    return solution in body or (solution != values and solution in digits)


def test_the_solution_never_leaves_the_server_while_the_game_runs(player, stocked):
    game = start(player)
    solution = game.puzzle.solution
    cells = empty_cells(game)
    day = today().isoformat()
    daily = player.post(f"/daily/{day}/easy/")
    calls = [
        lambda: player.get(f"/games/{game.pk}/"),
        lambda: player.get(f"/api/games/{game.pk}"),
        lambda: post(player, game, "moves", {"cell": cells[0], "digit": 1, "version": 0}),
        lambda: post(player, game, "undo"),
        lambda: post(player, game, "redo"),
        lambda: post(player, game, "hint", {"level": 1}),
        lambda: post(player, game, "hint", {"level": 2}),
        lambda: post(player, game, "hint", {"level": 3}),
        lambda: post(player, game, "apply-hint"),
        lambda: post(player, game, "fill-notes"),
        lambda: post(player, game, "reveal", {"cell": cells[1]}),
        lambda: post(player, game, "check"),
        lambda: post(player, game, "pause"),
        lambda: post(player, game, "resume"),
        lambda: post(player, game, "moves", {"cell": 81, "digit": 1, "version": 0}),
        lambda: post(player, game, "moves", {"cell": cells[2], "digit": 1, "version": -1}),
        lambda: player.get(f"/api/games/{game.pk}/path"),
        lambda: player.get("/"),
        lambda: player.get("/history/"),
        lambda: player.get("/stats/"),
        lambda: player.get("/daily/"),
        lambda: player.get(f"/daily/{day}/"),
        lambda: player.get(daily["Location"]),
    ]
    for call in calls:
        response = call()
        values = Game.objects.get(pk=game.pk).values
        assert not _leaks(solution, response.content.decode(), values), response.request


def test_hints_come_in_three_levels_counted_once_and_applied_only_by_apply(player, stocked):
    game = start(player)
    one = post(player, game, "hint", {"level": 1, "version": 0}).json()
    assert set(one["hint"]) == {"level", "technique", "slug", "summary", "text", "region"}
    two = post(player, game, "hint", {"level": 2}).json()
    assert two["hint"]["cause"] and "target" not in two["hint"]  # why, not yet the answer
    assert two["version"] == 0  # telling changes nothing on the board
    three = post(player, game, "hint", {"level": 3}).json()
    assert three["hint"]["text"]
    (cell, digit), *_ = three["hint"]["placements"]
    assert three["hint"]["target"] == [cell]
    assert digit == int(game.puzzle.solution[cell])
    assert three["values"] == game.puzzle.givens  # said, not done
    assert three["hints"] == 1 and three["version"] == 0
    applied = post(player, game, "apply-hint", {"version": 0}).json()
    assert applied["values"][cell] == str(digit) and applied["select"] == cell
    assert applied["hints"] == 1 and applied["version"] == 1


def test_a_hint_points_out_a_wrong_digit_first(player, stocked):
    game = start(player)
    cell = next(
        c for c in empty_cells(game) if str(wrong_digit(game, c)) not in _peer_givens(game, c)
    )
    post(player, game, "moves", {"cell": cell, "digit": wrong_digit(game, cell), "version": 0})
    body = post(player, game, "hint", {"level": 2}).json()
    assert body["hint"]["slug"] == "mistake"
    assert body["hint"]["cause"] == []  # the digit at fault is named at level 3 only
    assert f"box {engine.grid.BOX_OF[cell] + 1}" in body["hint"]["text"]
    body = post(player, game, "hint", {"level": 3}).json()
    assert body["hint"]["target"] == [cell]
    assert body["values"][cell] != "0"  # said, not done
    body = post(player, game, "apply-hint", {"version": body["version"]}).json()
    assert body["values"][cell] == "0" and body["select"] == cell  # Apply takes it out


def test_reveal_fills_a_cell_and_marks_the_game_assisted(player, stocked):
    game = start(player)
    cell = empty_cells(game)[0]
    body = post(player, game, "reveal", {"cell": cell, "version": 0}).json()
    assert body["values"][cell] == game.puzzle.solution[cell]
    assert body["reveals"] == 1
    given = game.puzzle.givens.index(next(ch for ch in game.puzzle.givens if ch != "0"))
    assert post(player, game, "reveal", {"cell": given}).status_code == 400
    body = play_to_the_end(player, game)
    assert body["status"] == "solved" and body["clean"] is False


def test_revealing_a_digit_already_right_still_counts(player, stocked):
    game = start(player)
    cell = empty_cells(game)[0]
    digit = int(game.puzzle.solution[cell])
    post(player, game, "moves", {"cell": cell, "digit": digit, "version": 0})
    response = post(player, game, "reveal", {"cell": cell, "version": 1})
    assert response.status_code == 200  # no free "is this right?" by a refusal
    body = response.json()
    assert body["reveals"] == 1 and body["values"][cell] == str(digit) and body["version"] == 1
    assert play_to_the_end(player, game)["clean"] is False


def test_turning_marking_on_for_a_look_keeps_the_game_off_the_leaderboards(player, stocked):
    game = start(player)
    cell = empty_cells(game)[0]
    post(player, game, "moves", {"cell": cell, "digit": wrong_digit(game, cell), "version": 0})
    player.post("/settings/", {"mark_mistakes": "on", "theme": "system"})
    assert state(player, game)["wrong"] == [cell]
    body = post(player, game, "moves", {"cell": cell, "digit": 0, "version": 1}).json()
    player.post("/settings/", {"theme": "system"})  # marking off again
    assert state(player, game)["wrong"] == [] and state(player, game)["mistakes"] is None
    body = play_to_the_end(player, game)
    assert body["status"] == "solved" and body["clean"] is False
    assert not Game.objects.clean_solves().filter(pk=game.pk).exists()


def test_marking_shows_nothing_on_a_game_it_was_never_on_for(player, stocked, alice):
    from puzzles.models import Preferences

    game = start(player)
    cell = empty_cells(game)[0]
    post(player, game, "moves", {"cell": cell, "digit": wrong_digit(game, cell), "version": 0})
    # Marking switched on behind the game's back (another device's settings, say).
    Preferences.objects.update_or_create(user=alice, defaults={"mark_mistakes": True})
    body = state(player, game)
    assert (body["wrong"], body["mistakes"]) == ([], None)


def test_check_names_every_wrong_digit(player, stocked):
    game = start(player)
    cells = empty_cells(game)
    v = post(
        player,
        game,
        "moves",
        {"cell": cells[0], "digit": int(game.puzzle.solution[cells[0]]), "version": 0},
    )
    v = v.json()["version"]
    for cell in (cells[3], cells[4]):
        body = {"cell": cell, "digit": wrong_digit(game, cell), "version": v}
        v = post(player, game, "moves", body).json()["version"]
    body = post(player, game, "check").json()
    assert body["check"] == {"wrong": [cells[3], cells[4]]}
    assert body["hints"] == 1  # a check is help, counted as a hint


def test_a_page_asks_whether_the_game_moved_on_at_the_cost_of_one_read(player, stocked):
    game = start(player)
    url = f"/api/games/{game.pk}/state"
    unchanged = player.get(f"{url}?since=0")
    assert unchanged.status_code == 204 and unchanged.content == b""
    cell = empty_cells(game)[0]
    post(player, game, "moves", {"cell": cell, "digit": wrong_digit(game, cell), "version": 0})
    with time_machine.travel(timezone.now(), tick=False):  # the same second on both reads
        moved = player.get(f"{url}?since=0")
        assert moved.status_code == 200 and moved.json()["version"] == 1
        assert moved.json() == state(player, game)
    assert player.get(f"{url}?since=1").status_code == 204
    for bad in ("", "?since=", "?since=-1", "?since=x", "?since=" + "9" * 40):
        answer = player.get(url + bad)
        assert answer.status_code == 400 and "since" in answer.json()["error"], bad
    assert player.post(f"{url}?since=1").status_code == 405
    assert Client().get(f"{url}?since=1").status_code == 404  # someone else's game
    assert player.get(f"/api/games/{game.pk + 999}/state?since=0").status_code == 404


def test_the_clock_is_the_servers_and_stops_while_paused(player, stocked):
    with time_machine.travel(
        datetime.datetime(2026, 5, 1, 12, 0, tzinfo=datetime.UTC), tick=False
    ) as clock:
        game = start(player)
        post(player, game, "resume")
        clock.shift(30)
        assert state(player, game)["elapsed"] == 30
        post(player, game, "pause")
        clock.shift(120)
        paused = state(player, game)
        assert paused["elapsed"] == 30 and paused["paused"]
        post(player, game, "resume")
        clock.shift(15)
        cell = empty_cells(game)[0]
        body = post(
            player, game, "moves", {"cell": cell, "digit": 1, "version": 0, "elapsed": 1}
        ).json()
        assert body["elapsed"] == 45  # a client cannot post its own time
        clock.shift(3600)  # the tab was left open, nobody there
        assert state(player, game)["elapsed"] == 45 + 300


def test_giving_up_shows_the_solution_and_the_solving_path(player, stocked):
    game = start(player)
    assert player.get(f"/api/games/{game.pk}/path").status_code == 409
    body = post(player, game, "give-up").json()
    assert body["status"] == "gave_up" and body["solution"] == game.puzzle.solution
    path = player.get(f"/api/games/{game.pk}/path").json()["path"]
    assert path[0]["values"] == game.puzzle.givens
    assert all(step["explanation"] for step in path)
    assert post(player, game, "hint").status_code == 409


def test_a_step_has_one_name_in_the_hint_the_walkthrough_and_the_end_panel(player, stocked):
    game = start(player)
    first = post(player, game, "hint", {"level": 1, "version": 0}).json()["hint"]
    post(player, game, "give-up")
    path = player.get(f"/api/games/{game.pk}/path").json()["path"]
    assert path[0]["name"] == first["technique"]  # the same first step, the same name
    assert first["technique"].endswith(")") and "(" in first["technique"]
    hardest = state(player, game)["hardest"]
    labels = {step["name"] for step in path}
    assert hardest["label"] in labels or hardest["slug"] == "hidden-single"
    assert hardest["label"].startswith(hardest["plain"] + " (")


@pytest.mark.parametrize(
    "body, message",
    [
        ({"cell": 81, "digit": 1, "version": 0}, "cell must be a whole number from 0 to 80"),
        ({"cell": -1, "digit": 1, "version": 0}, "cell must be"),
        ({"cell": 3, "digit": 10, "version": 0}, "digit must be a whole number from 0 to 9"),
        ({"cell": 3, "digit": "5", "version": 0}, "digit must be"),
        ({"cell": True, "digit": 5, "version": 0}, "cell must be"),
        ({"cell": 3.0, "digit": 5, "version": 0}, "cell must be"),
        ({"digit": 5, "version": 0}, "cell is missing"),
        ({"cell": 3, "digit": 5}, "version is missing"),
        ({"cell": 3, "digit": 5, "version": 0, "mode": "pencil"}, 'mode must be "value" or "note"'),
        ({"cell": 3, "digit": 5, "version": "zero"}, "version must be"),
        ("{not json", "not valid JSON"),
        ("[1, 2, 3]", "Send a JSON object"),
        ("[" * 50_000, "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
    ],
)
def test_bad_moves_get_a_400_with_a_message_and_change_nothing(player, stocked, body, message):
    game = start(player)
    before = state(player, game)
    response = post(player, game, "moves", body)
    assert response.status_code == 400
    assert message in response.json()["error"]
    after = state(player, game)
    assert after.pop("elapsed") >= before.pop("elapsed")  # the clock runs, nothing else moves
    assert after.pop("runs_for") <= before.pop("runs_for")
    assert after == before


def test_a_stale_version_gets_409_with_the_current_state(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    post(player, game, "moves", {"cell": a, "digit": 2, "version": 0})
    response = post(player, game, "moves", {"cell": b, "digit": 3, "version": 0})  # the other tab
    assert response.status_code == 409
    assert response.json()["state"]["values"][a] == "2"
    assert response.json()["state"]["values"][b] == "0"
    assert Game.objects.get(pk=game.pk).version == 1


def test_a_move_on_a_given_is_refused(player, stocked):
    game = start(player)
    given = next(c for c, ch in enumerate(game.puzzle.givens) if ch != "0")
    response = post(player, game, "moves", {"cell": given, "digit": 0, "version": 0})
    assert response.status_code == 400 and "given" in response.json()["error"]
    assert state(player, game)["values"] == game.puzzle.givens


def test_notes_on_a_filled_cell_are_refused(player, stocked):
    game = start(player)
    cell = empty_cells(game)[0]
    post(player, game, "moves", {"cell": cell, "digit": 2, "version": 0})
    response = post(player, game, "moves", {"cell": cell, "digit": 3, "mode": "note", "version": 1})
    assert response.status_code == 400 and "clear it" in response.json()["error"]


@pytest.mark.parametrize(
    "action, method",
    [
        ("", "get"),
        ("moves", "post"),
        ("undo", "post"),
        ("redo", "post"),
        ("hint", "post"),
        ("fill-notes", "post"),
        ("apply-hint", "post"),
        ("reveal", "post"),
        ("check", "post"),
        ("pause", "post"),
        ("resume", "post"),
        ("give-up", "post"),
        ("path", "get"),
    ],
)
def test_another_players_game_is_404_everywhere(client, alice, bob, stocked, action, method):
    client.force_login(alice)
    game = start(client)
    client.force_login(bob)
    url = f"/api/games/{game.pk}" + (f"/{action}" if action else "")
    body = {"cell": 0, "digit": 1, "version": 0, "level": 1}
    response = getattr(client, method)(url, body, content_type="application/json")
    assert response.status_code == 404
    assert client.get(f"/games/{game.pk}/").status_code == 404
    assert Client().get(url).status_code in (404, 405)  # a visitor with no session either
    game.refresh_from_db()
    assert (game.version, game.status, game.hints) == (0, "playing", 0)


def test_state_changing_requests_need_csrf(alice, stocked):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    assert browser.post("/play/easy/").status_code == 403
    token_page = browser.get("/")
    token = token_page.cookies["csrftoken"].value
    game = start_with_token(browser, token)
    response = post(
        browser, game, "moves", {"cell": empty_cells(game)[0], "digit": 1, "version": 0}
    )
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).version == 0
    response = post(
        browser,
        game,
        "moves",
        {"cell": empty_cells(game)[0], "digit": 1, "version": 0},
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200


def start_with_token(browser: Client, token: str) -> Game:
    response = browser.post("/play/easy/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def test_wrong_methods_are_405(player, stocked):
    game = start(player)
    assert player.get(f"/api/games/{game.pk}/moves").status_code == 405
    assert player.post(f"/api/games/{game.pk}").status_code == 405
    assert player.put(f"/api/games/{game.pk}/undo").status_code == 405


def test_a_full_hint_on_a_conflict_never_erases_a_given(player, stocked):
    game = start(player)
    givens = game.puzzle.givens
    cell, given = next(
        (c, p)
        for c in empty_cells(game)
        for p in range(81)
        if givens[p] != "0" and p != c and p // 9 == c // 9
    )
    body = post(
        player, game, "moves", {"cell": cell, "digit": int(givens[given]), "version": 0}
    ).json()
    body = post(player, game, "hint", {"level": 3, "version": body["version"]}).json()
    assert body["hint"]["slug"] == "conflict"
    body = post(player, game, "apply-hint", {"version": body["version"]}).json()
    assert body["values"][given] == givens[given]
    assert body["values"][cell] == "0"


def test_moves_cannot_bring_back_a_game_given_up_or_undo_a_pause(player, stocked):
    from puzzles.models import Preferences
    from puzzles.play import changes, clock, help
    from puzzles.play.errors import Conflict

    game = start(player)
    seen_before = Game.objects.select_related("puzzle").get(pk=game.pk)  # a request in flight
    clock.pause(Game.objects.select_related("puzzle").get(pk=game.pk))
    cell = empty_cells(game)[0]
    changes.move(seen_before, cell, 1, "value", 0, Preferences())
    assert Game.objects.get(pk=game.pk).resumed_at is None  # the pause stands
    stale = Game.objects.select_related("puzzle").get(pk=game.pk)
    help.give_up(Game.objects.select_related("puzzle").get(pk=game.pk))
    with pytest.raises(Conflict):
        changes.move(stale, empty_cells(game)[1], 2, "value", stale.version, Preferences())
    assert Game.objects.get(pk=game.pk).status == "gave_up"


def test_the_clock_starts_when_the_game_is_created(player, stocked):
    game = start(player)
    assert game.resumed_at is not None and not state(player, game)["paused"]


def test_double_submitting_a_new_game_on_an_empty_pool_is_no_error(player, stocked):
    from puzzles.models import Puzzle

    Puzzle.objects.filter(difficulty="hard").update(served_at="2026-01-01T00:00:00Z")
    first = player.post("/play/hard/")
    second = player.post("/play/hard/")
    assert first.status_code == second.status_code == 302


def test_an_empty_pool_gives_a_puzzle_the_player_has_not_played_and_asks_for_more(
    player, stocked, alice
):
    from puzzles.models import Puzzle
    from puzzles.pools import locks

    first, second = stocked["hard"]
    Puzzle.objects.filter(difficulty="hard").update(served_at="2026-01-01T00:00:00Z")
    Game.objects.create(user=alice, puzzle=first, values=first.givens)
    locks.client().delete(locks.key("hard"))
    game = start(player, "hard")
    assert game.puzzle == second  # served before, but not to this player
    assert locks.holder("hard")  # a refill round was started for the empty pool
    third = start(player, "hard")  # nothing left this player has not played: a new one
    assert third.puzzle not in (first, second) and third.puzzle.difficulty == "hard"
    assert engine.count_solutions(third.puzzle.givens) == 1
