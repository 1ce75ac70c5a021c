"""Fair play, round four: every change a batch carries draws on the game's pace whether it
goes in or not, and the receipts a game keeps are bounded and go when it ends; a solve
whose digits came faster than a person places them is kept but not ranked; the time the
puzzle was in sight (pauses and quiet stretches included) is the time ranked; a replay is
read a page at a time, and costly reads are limited per client; /healthz tells strangers
only whether the site is up; a number too long to read in a query is a 400."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from puzzles.accounts.players import Player
from puzzles.models import ChangeReceipt, DailyPuzzle, Game, Move
from puzzles.play import changes, stats

from ..helpers import DAY, NOON, daily_game, logged_in, post, start, state

pytestmark = pytest.mark.django_db

DEVICE = "device-0001"


def blanks(game: Game) -> list[int]:
    return [c for c, ch in enumerate(game.puzzle.givens) if ch == "0"]


def right_move(game: Game, cell: int, cid: str, base: int = 0) -> dict:
    digit = int(game.puzzle.solution[cell])
    return {"id": cid, "kind": "move", "cell": cell, "digit": digit, "mode": "value", "base": base}


def send(client: Client, game: Game, changes: list[dict]):
    return post(client, game, "changes", {"device": DEVICE, "changes": changes})


def at_human_pace(client: Client, game: Game, clock, seconds_a_digit: float = 3.0) -> dict:
    """Every empty cell filled with its digit, one request a digit, a few seconds apart:
    as a person at the board would."""
    answer = state(client, game)
    for cell in blanks(game):
        clock.shift(seconds_a_digit)
        body = {
            "cell": cell,
            "digit": int(game.puzzle.solution[cell]),
            "mode": "value",
            "version": answer["version"],
        }
        response = post(client, game, "moves", body)
        assert response.status_code == 200, response.json()
        answer = response.json()
    return answer


def easy_daily() -> DailyPuzzle:
    return DailyPuzzle.objects.get(date=DAY, difficulty="easy")


# 1. Refused changes ------------------------------------------------------------------------


def test_refused_changes_draw_on_the_games_pace_as_stored_ones_do(client, stocked):
    with time_machine.travel(timezone.now(), tick=False):
        game = start(client)
        undos = [{"id": f"u{n}", "kind": "undo", "base": 0} for n in range(changes.MOVE_BURST)]
        first = send(client, game, undos)
        assert first.status_code == 200
        assert len(first.json()["refused"]) == changes.MOVE_BURST  # nothing to undo
        cell = blanks(game)[0]
        notes = [
            {"id": f"n{n}", "kind": "move", "cell": cell, "digit": 1, "mode": "note", "base": 0}
            for n in range(20)
        ]
        after = send(client, game, notes)
    assert after.status_code == 429 and int(after["Retry-After"]) >= 1
    game.refresh_from_db()
    assert game.version == 0 and Move.objects.filter(game=game).count() == 0


def test_a_game_keeps_a_bounded_number_of_receipts(client, stocked):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game = start(client)
        for batch in range(30):  # 6,000 refused undos, each batch after the pace refilled
            undos = [{"id": f"b{batch}-{n}", "kind": "undo", "base": 0} for n in range(200)]
            assert send(client, game, undos).status_code == 200
            clock.shift(changes.MOVE_BURST / changes.MOVE_RATE)
    kept = ChangeReceipt.objects.filter(game=game).count()
    assert 200 <= kept <= changes.MOVE_LOG_CAP
    # The latest batch is still known: sent again, it is answered as before.
    again = send(client, game, undos)
    assert again.status_code == 200 and len(again.json()["refused"]) == 200
    assert ChangeReceipt.objects.filter(game=game).count() == kept


def batched_until_one_is_left(client: Client, game: Game) -> int:
    """Every empty cell but the last filled through a batch; the last cell."""
    cells = blanks(game)
    changes = [right_move(game, cell, f"c{cell}") for cell in cells[:-1]]
    assert send(client, game, changes).status_code == 200
    assert ChangeReceipt.objects.filter(game=game).exists()
    return cells[-1]


def test_a_game_ended_by_a_single_move_forgets_its_receipts(client, stocked):
    game = start(client)
    last = batched_until_one_is_left(client, game)
    version = state(client, game)["version"]
    body = {"cell": last, "digit": int(game.puzzle.solution[last]), "version": version}
    assert post(client, game, "moves", body).json()["status"] == "solved"
    assert not ChangeReceipt.objects.filter(game=game).exists()


def test_a_game_ended_by_a_reveal_forgets_its_receipts(client, stocked):
    game = start(client)
    last = batched_until_one_is_left(client, game)
    version = state(client, game)["version"]
    assert post(client, game, "reveal", {"cell": last, "version": version}).json()["status"] == (
        "solved"
    )
    assert not ChangeReceipt.objects.filter(game=game).exists()


def test_a_game_ended_by_an_applied_hint_forgets_its_receipts(client, stocked):
    game = start(client)
    batched_until_one_is_left(client, game)
    version = state(client, game)["version"]
    assert post(client, game, "hint", {"level": 3, "version": version}).status_code == 200
    assert post(client, game, "apply-hint", {"version": version}).json()["status"] == "solved"
    assert not ChangeReceipt.objects.filter(game=game).exists()


# 3. A whole solve in one batch -------------------------------------------------------------


def test_a_whole_solve_sent_in_one_batch_is_kept_but_not_ranked(alice, stocked):
    client = logged_in(alice)
    with time_machine.travel(NOON, tick=False) as clock:
        game = daily_game(client)
        clock.shift(600)  # ten minutes: past any floor of an easy puzzle
        post(client, game, "resume")
        changes = [right_move(game, cell, f"c{cell}") for cell in blanks(game)]
        end = send(client, game, changes).json()["state"]
    assert end["status"] == "solved" and end["clean"]
    assert end["standing"] == "hurried"
    assert stats.leaderboard(easy_daily(), Player(user=alice)) == []
    game.refresh_from_db()
    assert game.too_fast and not game.ranked


def test_digits_sent_as_a_person_places_them_are_ranked(alice, stocked):
    client = logged_in(alice)
    with time_machine.travel(NOON, tick=False) as clock:
        game = daily_game(client)
        cells = blanks(game)
        # A few at a time, as a page on a slow network sends what was tapped meanwhile.
        for at in range(0, len(cells), 3):
            clock.shift(6)
            changes = [right_move(game, cell, f"c{cell}", base=0) for cell in cells[at : at + 3]]
            assert send(client, game, changes).status_code == 200
    game.refresh_from_db()
    assert game.status == "solved" and game.ranked


# 4. Thinking time --------------------------------------------------------------------------


def test_time_paused_counts_on_the_leaderboard(alice, stocked):
    client = logged_in(alice)
    with time_machine.travel(NOON, tick=False) as clock:
        game = daily_game(client)
        post(client, game, "pause")
        clock.shift(3600)  # an hour with the givens in another window
        post(client, game, "resume")
        end = at_human_pace(client, game, clock)
    assert end["status"] == "solved" and end["standing"] == "ranked"
    [row] = stats.leaderboard(easy_daily(), Player(user=alice))
    assert row.seconds >= 3600
    assert end["elapsed"] < 600  # the player's own clock left the pause out, as shown


def test_a_stretch_with_no_request_counts_on_the_leaderboard(alice, stocked):
    client = logged_in(alice)
    with time_machine.travel(NOON, tick=False) as clock:
        game = daily_game(client)
        clock.shift(3600)  # the board on screen, nothing sent for an hour
        end = at_human_pace(client, game, clock)
    assert end["status"] == "solved"
    [row] = stats.leaderboard(easy_daily(), Player(user=alice))
    assert row.seconds >= 3600


def test_the_place_at_the_end_follows_the_time_ranked(alice, bob, stocked):
    with time_machine.travel(NOON, tick=False) as clock:
        paused = daily_game(logged_in(alice))
        post(logged_in(alice), paused, "pause")
        clock.shift(1800)
        post(logged_in(alice), paused, "resume")
        at_human_pace(logged_in(alice), paused, clock)
        steady = daily_game(logged_in(bob))  # started later, played at the same pace
        at_human_pace(logged_in(bob), steady, clock)
        told = state(logged_in(alice), paused)
    assert told["place"] == 2
    names = [row.name for row in stats.leaderboard(easy_daily(), Player())]
    assert names == ["bob", "alice"]


# 5. Replays --------------------------------------------------------------------------------


def long_finished_game(client: Client, moves: int) -> Game:
    """A game given up after `moves` note toggles on one cell, its log written at once."""
    game = start(client)
    cell = blanks(game)[0]
    empty, one = [0, [], False, []], [0, [1], False, []]
    Move.objects.bulk_create(
        Move(
            game=game,
            number=n,
            kind="note",
            cell=cell,
            digit=1,
            changes=[
                {"cell": cell, "before": one, "after": empty}
                if n % 2 == 0
                else {"cell": cell, "before": empty, "after": one}
            ],
        )
        for n in range(1, moves + 1)
    )
    Game.objects.filter(pk=game.pk).update(moves_applied=moves, moves_logged=moves)
    assert post(client, game, "give-up").status_code == 200
    return game


def cached_sizes() -> list[int]:
    """The size of every value in the site's cache, in bytes."""
    redis = cache._cache.get_client(write=False)
    return [redis.memory_usage(key) or 0 for key in redis.scan_iter(count=1000)]


def test_a_long_replay_is_read_a_page_at_a_time(client, stocked):
    game = long_finished_game(client, changes.MOVE_LOG_CAP)
    first = client.get(f"/api/games/{game.pk}/replay?count=1").json()
    assert first["total"] == changes.MOVE_LOG_CAP + 1 and len(first["frames"]) == 1
    unpaged = client.get(f"/api/games/{game.pk}/replay").json()
    assert unpaged["next"] is not None and len(unpaged["frames"]) < 1000
    last = client.get(f"/api/games/{game.pk}/replay?start={changes.MOVE_LOG_CAP}&count=1").json()
    assert last["frames"][0]["notes"][blanks(game)[0]] == []
    middle = client.get(f"/api/games/{game.pk}/replay?start=2501&count=2").json()
    assert [f["notes"][blanks(game)[0]] for f in middle["frames"]] == [[1], []]
    # No cached value holds the whole replay (some 5 MB at the move cap).
    assert max(cached_sizes()) < 200_000


def test_costly_reads_are_limited_per_client(client, stocked):
    game = long_finished_game(client, 10)
    answers = [client.get(f"/api/games/{game.pk}/replay?count=1") for _ in range(400)]
    limited = [a for a in answers if a.status_code == 429]
    assert limited and int(limited[0]["Retry-After"]) >= 1
    assert "error" in limited[0].json()
    assert all(a.status_code in (200, 429) for a in answers)


# 7. Health ---------------------------------------------------------------------------------

STRANGER = {"REMOTE_ADDR": "203.0.113.7"}


def test_healthz_tells_a_stranger_only_whether_the_site_is_up(client):
    response = client.get("/healthz", **STRANGER)
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    workers = client.get("/healthz/workers", **STRANGER)
    assert set(workers.json()) == {"status"}


def test_healthz_tells_the_details_to_the_monitor_and_the_admin(client, admin_user, settings):
    assert "pools" in client.get("/healthz").json()  # the machine itself: a monitor's address
    settings.METRICS_TOKEN = "a-long-metrics-token-for-tests"
    bearer = {"HTTP_AUTHORIZATION": "Bearer a-long-metrics-token-for-tests"}
    assert "pools" in client.get("/healthz", **STRANGER, **bearer).json()
    wrong = {"HTTP_AUTHORIZATION": "Bearer not-it"}
    assert client.get("/healthz", **STRANGER, **wrong).json() == {"status": "ok"}
    client.force_login(admin_user)
    assert "pools" in client.get("/healthz", **STRANGER).json()


# 8. Long numbers ---------------------------------------------------------------------------


def test_a_query_number_too_long_to_read_is_a_400_not_a_500(client, stocked):
    game = long_finished_game(client, 3)
    huge = "9" * 5000
    for query in (f"start={huge}", f"count={huge}", f"start=0&count={huge}"):
        response = client.get(f"/api/games/{game.pk}/replay?{query}")
        assert response.status_code == 400 and "error" in response.json()
    assert client.get(f"/history/?page={huge}").status_code == 200
    assert client.get(f"/games/{huge}/").status_code == 404
    assert client.get(f"/api/games/{huge}").status_code == 404


def test_the_daily_leaderboard_page_reads_the_time_ranked(alice, stocked):
    client = logged_in(alice)
    with time_machine.travel(NOON, tick=False) as clock:
        game = daily_game(client)
        post(client, game, "pause")
        clock.shift(2 * 3600)
        post(client, game, "resume")
        at_human_pace(client, game, clock)
        page = client.get(f"/daily/{DAY}/").content.decode()
    assert "2:0" in page  # two hours and some minutes, in the board's clock format
    assert datetime.timedelta(seconds=Game.objects.get(pk=game.pk).ranked_seconds) >= (
        datetime.timedelta(hours=2)
    )


def stamped(moves: list[dict], first_ms: int, every_ms: int) -> list[dict]:
    """The moves as a page queues them: each with the device's clock when it was made."""
    return [m | {"at": first_ms + k * every_ms} for k, m in enumerate(moves)]


def test_a_page_held_back_sends_its_digits_at_once_and_stays_ranked(alice, stocked):
    """A page that could not send for two minutes (the server asked it to wait, or the
    network was gone) sends every digit made meanwhile in one batch: their stamps show
    them made at a person's pace within those two minutes, so the game is not hurried."""
    client = logged_in(alice)
    with time_machine.travel(NOON, tick=False) as clock:
        game = daily_game(client)
        clock.shift(600)  # past any floor of an easy puzzle
        post(client, game, "resume")  # the game's last request before the wait
        cells = blanks(game)
        every = 110_000 // len(cells)  # all of them within the two minutes
        clock.shift(120)
        moves = stamped([right_move(game, c, f"c{c}") for c in cells], 5_000, every)
        end = send(client, game, moves).json()["state"]
    assert end["status"] == "solved" and end["standing"] == "ranked"
    game.refresh_from_db()
    assert not game.hurried and game.ranked


def test_stamps_that_claim_more_time_than_went_by_do_not_spread_the_digits(alice, stocked):
    """The stamps only place the digits within the time since the game's last request: a
    batch whose stamps say two minutes, sent five seconds after the last request, is
    hurried all the same."""
    client = logged_in(alice)
    with time_machine.travel(NOON, tick=False) as clock:
        game = daily_game(client)
        clock.shift(600)  # past any floor of an easy puzzle
        post(client, game, "resume")  # the game's last request
        cells = blanks(game)
        clock.shift(5)
        moves = stamped([right_move(game, c, f"c{c}") for c in cells], 5_000, 110_000 // len(cells))
        end = send(client, game, moves).json()["state"]
    assert end["status"] == "solved" and end["standing"] == "hurried"


@pytest.mark.parametrize("stamps", [(0, 10**300), (10**300, 0), (1.5, 2.5)])
def test_stamps_far_apart_or_out_of_order_change_nothing_but_the_pace(client, stocked, stamps):
    game = start(client)
    cells = blanks(game)[:2]
    moves = [right_move(game, c, f"c{c}") | {"at": at} for c, at in zip(cells, stamps, strict=True)]
    answer = send(client, game, moves)
    assert answer.status_code == 200 and len(answer.json()["applied"]) == 2
