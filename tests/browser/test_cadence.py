"""The page's changes go to the server on the site's cadence (SEND_EVERY_MS): a player at
human pace sends one request for several moves, every move is kept on the device and shown
at once meanwhile, the saving line says they are kept, and a hidden tab or help sends what
waits at once. Counted from the requests the page really makes to the live server."""

from __future__ import annotations

import time

import pytest
from django.conf import settings

from puzzles.models import Game, Move
from puzzles.play import api
from puzzles.site import shedding

from .helpers import open_new_game, set_visibility, solution_of, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.cadence, pytest.mark.django_db(transaction=True)]

TAP = """([index, digit]) => {
    document.querySelector(`[data-cell="${index}"]`).click();
    document.querySelector(`[data-digit="${digit}"]`).click();
}"""


def saved_line(page) -> str:
    return page.eval_on_selector("[data-saved]", "e => e.textContent")


def test_moves_at_human_pace_go_in_one_batch_on_the_sites_cadence(browser, live_server, stock):
    assert settings.SEND_EVERY_MS == 8000  # the site's own, not the other tests' 40 ms
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.base = live_server.url
    game = open_new_game(page)
    sent = []
    page.on("request", lambda r: r.url.endswith("/changes") and sent.append(r.post_data_json))
    solution = solution_of(game)
    cells = [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"][:3]

    began = time.monotonic()
    for cell in cells:
        page.evaluate(TAP, [cell, int(solution[cell])])
        shown = page.eval_on_selector(f'[data-cell="{cell}"]', "e => e.textContent.trim()")
        assert shown.startswith(solution[cell]), "drawn at once, before any request"
        page.wait_for_timeout(1000)
    if time.monotonic() - began < 7:  # the browser kept pace: nothing can have gone yet
        assert sent == []
        assert saved_line(page) == "3 changes kept on this device"
    wait_saved(page)
    assert len(sent) == 1, sent
    assert [c["cell"] for c in sent[0]["changes"]] == cells
    assert Move.objects.filter(game=game.pk).count() == 3
    context.close()


def test_a_hidden_tab_sends_what_waits_at_once(browser, live_server, stock):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.base = live_server.url
    game = open_new_game(page)
    solution = solution_of(game)
    cell = next(i for i, ch in enumerate(game.puzzle.givens) if ch == "0")
    page.evaluate(TAP, [cell, int(solution[cell])])
    assert saved_line(page) == "1 change kept on this device"
    set_visibility(page, "hidden")
    # Well inside the cadence: the move and the pause went at once.
    stored = Game.objects.get(pk=game.pk)
    for _ in range(40):
        stored.refresh_from_db()
        if stored.values[cell] == solution[cell] and stored.resumed_at is None:
            break
        page.wait_for_timeout(100)
    assert stored.values[cell] == solution[cell]
    assert stored.resumed_at is None  # the clock stopped
    assert saved_line(page) == "Saved"
    context.close()


def test_a_game_just_started_opens_with_no_word_to_the_clock(browser, live_server, stock):
    """A join is one request fewer: the page of a game just started tells the server's clock
    nothing as it opens (it runs, and the first batch keeps it running); a page whose clock
    stopped starts it as before."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.base = live_server.url
    calls = []
    page.on("request", lambda r: "/api/games/" in r.url and calls.append(r.url.rsplit("/", 1)[1]))
    game = open_new_game(page)
    page.wait_for_timeout(500)
    assert "resume" not in calls, calls
    stored = Game.objects.get(pk=game.pk)
    assert stored.resumed_at is not None  # the clock runs all the same

    Game.objects.filter(pk=game.pk).update(resumed_at=None)  # stopped meanwhile
    calls.clear()
    page.reload()
    page.wait_for_selector("[data-game][data-ready]")
    for _ in range(40):
        if "resume" in calls:
            break
        page.wait_for_timeout(100)
    assert "resume" in calls, calls
    stored.refresh_from_db()
    assert stored.resumed_at is not None
    context.close()


def test_a_reloaded_pages_late_pause_does_not_stop_the_clock_the_new_page_started(
    browser, live_server, stock, monkeypatch
):
    """A reload: the old page's pause goes as it leaves, the new page's resume as it opens,
    and the pause may be the one that reaches the server last. It names an older page of
    the same device than the one that started the clock, and changes nothing. (The browser
    lets no route hold a leaving page's request: the pause is held on its way in instead,
    before it reads the game, as a slow network would hold it.)"""
    read_prefs = api.preferences_for

    def late_pauses(request):
        if request.path.endswith("/pause"):
            time.sleep(1.0)
        return read_prefs(request)

    monkeypatch.setattr(api, "preferences_for", late_pauses)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.base = live_server.url
    clock_calls = []
    page.on("request", lambda r: r.url.endswith(("/resume", "/pause")) and clock_calls.append(r))
    game = open_new_game(page)
    assert not clock_calls  # a game just started: no word to the clock
    Game.objects.filter(pk=game.pk).update(resumed_at=None)  # stopped meanwhile
    page.reload()
    page.wait_for_selector("[data-game][data-ready]")
    for _ in range(40):
        if Game.objects.get(pk=game.pk).resumed_at is not None:
            break
        page.wait_for_timeout(100)
    resume = next(r for r in clock_calls if r.url.endswith("/resume"))
    assert Game.objects.get(pk=game.pk).clock_page == resume.post_data_json["page"]
    page.wait_for_timeout(1500)  # the old page's pause has arrived
    stored = Game.objects.get(pk=game.pk)
    assert stored.resumed_at is not None, "the old page's pause stopped the new page's clock"
    context.close()


def test_a_strained_server_has_the_page_send_less_often_until_it_is_not(
    browser, live_server, stock, settings
):
    """Every request stamped as having waited 200 ms for a thread (as nginx stamps them):
    the batches' answers ask for the longer cadence, and the page keeps the moves meanwhile;
    once the waits are gone, an answer without it brings the page's own cadence back."""
    settings.SEND_EVERY_MS = 300  # the site's own here
    settings.BUSY_WAIT_MS, settings.BUSY_SEND_EVERY_MS = 50, 4000
    context = browser.new_context(viewport={"width": 1280, "height": 800})

    def waited(route) -> None:
        stamp = f"t={time.time() - 0.2:.3f}"
        route.continue_(headers={**route.request.headers, "x-request-start": stamp})

    context.route("**/*", waited)
    page = context.new_page()
    page.base = live_server.url
    game = open_new_game(page)
    sent = []
    page.on("request", lambda r: r.url.endswith("/changes") and sent.append(time.monotonic()))
    solution = solution_of(game)
    cells = [i for i, ch in enumerate(game.puzzle.givens) if ch == "0"][:3]

    page.evaluate(TAP, [cells[0], int(solution[cells[0]])])
    wait_saved(page)  # on the site's cadence; the answer asks for 4 s
    assert len(sent) == 1
    page.evaluate(TAP, [cells[1], int(solution[cells[1]])])
    page.wait_for_timeout(1500)
    assert len(sent) == 1, "the move waits the longer cadence"
    assert saved_line(page) == "1 change kept on this device"
    context.unroute("**/*")
    shedding.STRAIN.forget()  # the waits are gone
    wait_saved(page)
    assert len(sent) == 2
    page.evaluate(TAP, [cells[2], int(solution[cells[2]])])
    wait_saved(page)
    assert len(sent) == 3 and sent[2] - sent[1] < 3, "the page's own cadence is back"
    assert Move.objects.filter(game=game.pk).count() == 3
    context.close()
