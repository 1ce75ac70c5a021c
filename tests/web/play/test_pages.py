"""The pages: home, daily puzzles and leaderboards, history, statistics, settings."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from django.test import Client

import engine
from puzzles.models import DailyPuzzle, Difficulty, Game, Preferences
from puzzles.pools import stock

from ..helpers import play_to_the_end, post, start

pytestmark = pytest.mark.django_db

NOON = datetime.datetime(2026, 6, 15, 12, 0, tzinfo=datetime.UTC)


def daily_game(client, date: str, difficulty: str) -> Game:
    response = client.post(f"/daily/{date}/{difficulty}/")
    assert response.status_code == 302, response
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def test_home_shows_todays_dailies_games_in_progress_and_new_game_buttons(player, stocked):
    game = start(player, "medium")
    html = player.get("/").content.decode()
    for difficulty in Difficulty.values:
        assert f'action="/play/{difficulty}/"' in html
        assert f"/{difficulty}/" in html
    assert f'href="/games/{game.pk}/"' in html
    assert DailyPuzzle.objects.filter(date=datetime.date.today()).count() == 6
    assert "<h3>Leaderboard</h3>" not in html
    assert player.get("/daily/").content.decode().count("<h3>Leaderboard</h3>") == 6


def test_a_master_or_extreme_daily_the_workers_have_not_made_shows_as_being_made(client, db):
    html = client.get("/").content.decode()
    for difficulty in ("master", "extreme"):
        assert f'data-daily-pending="{difficulty}"' in html
    assert html.count("Being made: back in a few minutes.") == 2
    assert not DailyPuzzle.objects.filter(puzzle__difficulty__in=["master", "extreme"]).exists()


def test_the_daily_puzzle_is_the_same_for_everyone_and_never_a_new_game(
    client, alice, bob, stocked
):
    with time_machine.travel(NOON, tick=False):
        client.force_login(alice)
        mine = daily_game(client, "2026-06-15", "hard")
        again = daily_game(client, "2026-06-15", "hard")
        client.force_login(bob)
        theirs = daily_game(client, "2026-06-15", "hard")
        assert mine.pk == again.pk and mine.puzzle_id == theirs.puzzle_id != None  # noqa: E711
        assert mine.daily.date == datetime.date(2026, 6, 15)
        daily_puzzles = set(DailyPuzzle.objects.values_list("puzzle_id", flat=True))
        for _ in range(3):  # the pool runs dry and falls back: still never a daily puzzle
            assert start(client, "hard").puzzle_id not in daily_puzzles


def test_the_daily_page_lists_recent_days_with_today_first(client, stocked):
    with time_machine.travel(NOON, tick=False):
        client.get("/daily/")
    with time_machine.travel(NOON + datetime.timedelta(days=1), tick=False):
        html = client.get("/daily/").content.decode()
    archive = html[html.index('class="archive"') :]
    archive = archive[: archive.index("</ul>")]
    assert archive.index(">Today<") < archive.index(">15 Jun<")
    assert 'href="/daily/2026-06-16/" aria-current="page">Today<' in archive


def test_future_and_unknown_days_are_404_and_past_days_stay_playable(client, alice, stocked):
    client.force_login(alice)
    with time_machine.travel(NOON, tick=False):
        daily_game(client, "2026-06-15", "easy")
        assert client.post("/daily/2026-06-16/easy/").status_code == 404
        assert client.get("/daily/2026-06-16/").status_code == 404
        assert client.post("/daily/2026-06-14/easy/").status_code == 404  # there was none
        assert client.post("/daily/not-a-date/easy/").status_code == 404
        assert client.post("/daily/2026-06-15/legendary/").status_code == 404
        assert client.get("/daily/2026-02-30/").status_code == 404
    with time_machine.travel(NOON + datetime.timedelta(days=3), tick=False):
        old = daily_game(client, "2026-06-15", "medium")
        assert old.daily.date == datetime.date(2026, 6, 15)
        page = client.get("/daily/2026-06-15/").content.decode()
        assert "15 June 2026" in page


def test_leaderboards_count_clean_solves_only_fastest_first(
    client, alice, bob, django_user_model, stocked
):
    carol = django_user_model.objects.create_user("carol", password="carol-password-9")
    with time_machine.travel(NOON, tick=False) as clock:
        for user, seconds, help_ in ((alice, 300, None), (bob, 200, "hint"), (carol, 400, None)):
            client.force_login(user)
            game = daily_game(client, "2026-06-15", "easy")
            post(client, game, "resume")
            if help_:
                post(client, game, "hint", {"level": 1})
            play_to_the_end(client, game, clock, over=seconds)
        page = client.get("/daily/2026-06-15/").content.decode()
    board = page[page.index("Fastest clean solves, easy") :]
    assert board.index("alice") < board.index("carol")
    assert "bob" not in board[: board.index("</table>")]
    assert "(you)" in board  # carol, logged in, sees her own row


def test_guest_games_move_to_the_account_on_sign_up(stocked):
    guest = Client()
    game = start(guest)
    post(guest, game, "moves", {"cell": game.puzzle.givens.index("0"), "digit": 1, "version": 0})
    response = guest.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "",
            "password1": "a-long-pass-phrase",
        },
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.user.username == "dora" and game.guest_id is None
    assert guest.get(f"/games/{game.pk}/").status_code == 200
    assert Client().get(f"/games/{game.pk}/").status_code == 404


def test_sign_up_and_log_in_from_a_game_come_back_to_the_game(alice, stocked):
    guest = Client()
    game = start(guest)
    page = guest.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/accounts/signup/?next=/games/{game.pk}/"' in page
    assert f'href="/accounts/login/?next=/games/{game.pk}/"' in page
    form = guest.get(f"/accounts/signup/?next=/games/{game.pk}/").content.decode()
    assert f'name="next" value="/games/{game.pk}/"' in form
    account = {"username": "dora", "password1": "a-long-pass-phrase"}
    account |= {"email": "", "next": f"/games/{game.pk}/"}
    response = guest.post("/accounts/signup/", account)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    other = Client()
    other_game = start(other)
    response = other.post(
        "/accounts/login/",
        {"username": "alice", "password": "wonderland-42", "next": f"/games/{other_game.pk}/"},
    )
    assert response.status_code == 302 and response["Location"] == f"/games/{other_game.pk}/"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "games/1/"])
def test_sign_up_never_sends_the_player_off_the_site(client, target, stocked):
    account = {"username": "erin", "password1": "a-long-pass-phrase", "email": ""}
    account |= {"next": target}
    response = client.post("/accounts/signup/", account)
    assert response.status_code == 302 and response["Location"] == "/"


def test_guest_games_move_to_the_account_on_log_in_keeping_the_further_one(alice, stocked):
    guest = Client()
    mine = Client()
    mine.force_login(alice)
    solved_as_guest = start(guest)
    play_to_the_end(guest, solved_as_guest)
    other = start(guest, "medium")
    response = guest.post("/accounts/login/", {"username": "alice", "password": "wonderland-42"})
    assert response.status_code == 302
    assert set(Game.objects.filter(user=alice).values_list("pk", flat=True)) == {
        solved_as_guest.pk,
        other.pk,
    }
    assert not Game.objects.filter(guest_id__isnull=False).exists()


def test_history_filters_and_pages(player, stocked):
    games = [start(player, d) for d in ("easy", "easy", "medium", "hard")]
    post(player, games[0], "give-up")
    html = player.get("/history/").content.decode()
    assert all(f"/games/{g.pk}/" in html for g in games)
    html = player.get("/history/?difficulty=easy").content.decode()
    assert f"/games/{games[2].pk}/" not in html and f"/games/{games[0].pk}/" in html
    html = player.get("/history/?status=gave_up").content.decode()
    assert f"/games/{games[0].pk}/" in html and f"/games/{games[1].pk}/" not in html
    for junk in ("?difficulty=<script>", "?status=' OR 1=1", "?page=99", "?page=-1", "?page=x"):
        assert player.get("/history/" + junk).status_code == 200


def test_history_keeps_the_mistake_count_of_a_game_in_play_to_itself(player, stocked):
    game = start(player)
    cell = game.puzzle.givens.index("0")
    wrong = next(d for d in range(1, 10) if str(d) != game.puzzle.solution[cell])
    post(player, game, "moves", {"cell": cell, "digit": wrong, "version": 0})
    row = _history_row(player, game)
    assert "Shown once the game is over" in row and ">1<" not in row
    post(player, game, "give-up")
    assert ">1<" in _history_row(player, game)


def _history_row(client, game: Game) -> str:
    html = client.get("/history/").content.decode()
    row = html[html.index(f"/games/{game.pk}/") :]
    return row[: row.index("</tr>")]


def test_history_paginates_twenty_a_page(player, alice):
    for _ in range(25):
        puzzle = stock.make_and_serve("easy")
        Game.objects.create(user=alice, puzzle=puzzle, values=puzzle.givens)
    page_one = player.get("/history/").content.decode()
    page_two = player.get("/history/?page=2").content.decode()
    assert "Page 1 of 2" in page_one and "Page 2 of 2" in page_two
    assert page_one.count('href="/games/') == 20 and page_two.count('href="/games/') == 5


def test_stats_count_played_solved_best_and_streaks(client, alice, stocked):
    client.force_login(alice)
    start_day = NOON
    for offset in range(3):
        with time_machine.travel(start_day + datetime.timedelta(days=offset), tick=False) as clock:
            day = (start_day + datetime.timedelta(days=offset)).date().isoformat()
            game = daily_game(client, day, "easy")
            post(client, game, "resume")
            play_to_the_end(client, game, clock, over=60 * (offset + 1))
    with time_machine.travel(start_day + datetime.timedelta(days=2, hours=1), tick=False):
        html = client.get("/stats/").content.decode()
        assert "<dd data-streak>3</dd>" in html
        assert "<dd data-best-streak>3</dd>" in html
        row = html[html.index('data-difficulty="easy"') :]
        row = row[: row.index("</tr>")]
        assert ">3<" in row  # played and solved
        assert "1:00" in row  # best
        assert "2:00" in row  # average and median
        assert "<svg" in html and "Solve times over time" in html
        start = html.index('<svg class="chart"')
        chart = html[start : html.index("</svg>", start)]
        assert chart.count("<circle") == 3 and chart.count("<polyline") == 1  # easy solves
        assert f"<title>easy, {NOON:%d %b %Y}: 1:00</title>" in chart
    with time_machine.travel(start_day + datetime.timedelta(days=4), tick=False):
        html = client.get("/stats/").content.decode()
        assert "<dd data-streak>0</dd>" in html and "<dd data-best-streak>3</dd>" in html


def test_best_times_leave_out_games_played_with_mistakes_marked(client, alice, stocked):
    client.force_login(alice)
    with time_machine.travel(NOON, tick=False) as clock:
        client.post("/settings/", {"mark_mistakes": "on", "theme": "system"})
        marked = start(client)
        play_to_the_end(client, marked, clock, over=30)
        client.post("/settings/", {"theme": "system"})
        clean = start(client)
        play_to_the_end(client, clean, clock, over=90)
        html = client.get("/stats/").content.decode()
    row = html[html.index('data-difficulty="easy"') :]
    row = row[: row.index("</tr>")]
    played, solved, best, average, median = re.findall(r"<td[^>]*>([^<]*)</td>", row)
    assert (played, solved, best, average, median) == ("2", "2", "1:30", "1:00", "1:00")


def test_the_timer_can_be_hidden_and_notes_left_alone(player, stocked):
    player.post("/settings/", {"theme": "system"})  # timer off, auto-removal of notes off
    game = start(player)
    html = player.get(f"/games/{game.pk}/").content.decode()
    assert 'data-show-timer="false"' in html
    timer = html[html.index("data-timer") :]
    assert timer[: timer.index(">")].rstrip().endswith("hidden")
    first = game.puzzle.givens.index("0")
    digit = int(game.puzzle.solution[first])
    peer = next(c for c in engine.PEERS[first] if game.puzzle.givens[c] == "0")
    post(player, game, "moves", {"cell": peer, "digit": digit, "mode": "note", "version": 0})
    body = post(player, game, "moves", {"cell": first, "digit": digit, "version": 1}).json()
    assert body["notes"][peer] == [digit]  # left alone with auto-removal off


def test_settings_are_saved_for_users_and_guests(player, stocked):
    response = player.post(
        "/settings/", {"mark_mistakes": "on", "show_timer": "on", "theme": "dark"}
    )
    assert response.status_code == 302
    prefs = Preferences.objects.get(user__username="alice")
    assert (prefs.mark_mistakes, prefs.auto_remove_notes, prefs.show_timer, prefs.theme) == (
        True,
        False,
        True,
        "dark",
    )
    assert 'data-theme="dark"' in player.get("/").content.decode()
    guest = Client()
    guest.post("/settings/", {"theme": "light"})
    assert 'data-theme="light"' in guest.get("/").content.decode()
    response = guest.post("/settings/", {"theme": "purple"})
    assert response.status_code == 200 and b"errorlist" in response.content


def test_every_page_answers_for_players_and_visitors(client, alice, stocked):
    for who in (None, alice):
        if who:
            client.force_login(who)
        for url in (
            "/",
            "/daily/",
            "/history/",
            "/stats/",
            "/settings/",
            "/robots.txt",
            "/healthz",
        ):
            assert client.get(url).status_code == 200, url
    assert Client().get("/accounts/signup/").status_code == 200
    assert Client().get("/accounts/login/").status_code == 200
    assert client.get("/games/999999/").status_code == 404


def test_the_game_page_carries_the_stable_hooks(player, stocked):
    game = start(player)
    html = player.get(f"/games/{game.pk}/").content.decode()
    assert 'role="grid"' in html
    assert html.count("data-cell=") == 81
    assert html.count("data-given") >= 17
    for digit in range(1, 10):
        assert f'data-digit="{digit}"' in html
    for action in ("notes", "erase", "undo", "redo", "hint", "pause"):
        assert f'data-action="{action}"' in html
    assert 'data-status="playing"' in html
    assert 'aria-label="Row 1, column 1:' in html


def test_log_out_is_a_post_and_password_change_and_reset_work(client, alice, mailoutbox):
    client.force_login(alice)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": "wonderland-42",
            "new_password1": "through-the-glass-7",
            "new_password2": "through-the-glass-7",
        },
    )
    assert response.status_code == 302
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert client.login(username="alice", password="through-the-glass-7")
    client.logout()
    client.post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert len(mailoutbox) == 1 and "/accounts/reset/" in mailoutbox[0].body
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and b"new_password1" in form.content
    response = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "down-the-rabbit-hole-3", "new_password2": "down-the-rabbit-hole-3"},
    )
    assert response.status_code == 302
    assert client.login(username="alice", password="down-the-rabbit-hole-3")
    client.logout()
    assert client.get(link, follow=True).content.count(b"new_password1") == 0  # used once


def test_sign_up_refuses_weak_passwords_and_taken_names(client, alice):
    response = client.post("/accounts/signup/", {"username": "eve", "password1": "123"})
    assert response.status_code == 200 and b"too short" in response.content
    response = client.post(
        "/accounts/signup/",
        {"username": "alice", "password1": "another-long-one"},
    )
    assert response.status_code == 200 and b"already exists" in response.content


def test_adopting_guest_games_keeps_the_accounts_clean_solve(alice, stocked):
    mine, guest = Client(), Client()
    mine.force_login(alice)
    with time_machine.travel(NOON, tick=False):
        clean = daily_game(mine, "2026-06-15", "easy")
        play_to_the_end(mine, clean)
        helped = daily_game(guest, "2026-06-15", "easy")
        post(guest, helped, "hint", {"level": 1})
        play_to_the_end(guest, helped)
        guest.post("/accounts/login/", {"username": "alice", "password": "wonderland-42"})
    kept = Game.objects.live().get(user=alice, puzzle=clean.puzzle)
    assert kept.pk == clean.pk and kept.clean
    assert Game.objects.get(pk=helped.pk).set_aside  # kept beside it as a record


def test_a_past_daily_in_progress_is_offered_under_continue(player, stocked):
    with time_machine.travel(NOON, tick=False):
        game = daily_game(player, "2026-06-15", "medium")
    with time_machine.travel(NOON + datetime.timedelta(days=2), tick=False):
        html = player.get("/").content.decode()
    assert f'href="/games/{game.pk}/"' in html and "Daily of 15 June" in html


def test_a_player_outside_the_top_sees_their_own_rank(client, django_user_model, stocked):
    from puzzles.play import stats

    with time_machine.travel(NOON, tick=False) as clock:
        for i in range(3):
            user = django_user_model.objects.create_user(f"fast{i}", password="p-a-s-s-w-o-r-d")
            client.force_login(user)
            game = daily_game(client, "2026-06-15", "easy")
            # Fast, but no faster than a person (models.human_floor).
            play_to_the_end(client, game, clock, over=60)
        client.force_login(
            django_user_model.objects.create_user("slow", password="p-a-s-s-w-o-r-d")
        )
        game = daily_game(client, "2026-06-15", "easy")
        play_to_the_end(client, game, clock, over=200)
        from puzzles.accounts.players import Player

        rows = stats.leaderboard(game.daily, Player(user=game.user), limit=2)
    assert [(r.rank, r.is_you) for r in rows] == [(1, False), (2, False), (4, True)]


def test_the_input_switch_is_kept_as_a_setting_and_bad_values_change_nothing(client, alice):
    assert client.post("/settings/input/", {"digit_first": "1"}).status_code == 204
    assert client.get("/settings/").context["form"].instance.digit_first  # a guest's session
    client.force_login(alice)
    assert client.post("/settings/input/", {"digit_first": "1"}).status_code == 204
    assert Preferences.objects.get(user=alice).digit_first
    for bad in ({"digit_first": "yes"}, {}, {"digit_first": "2"}):
        response = client.post("/settings/input/", bad)
        assert response.status_code == 400 and b"digit_first" in response.content
    assert Preferences.objects.get(user=alice).digit_first
    assert client.get("/settings/input/").status_code == 405
    page = client.get("/settings/").content.decode()
    assert 'name="digit_first"' in page
