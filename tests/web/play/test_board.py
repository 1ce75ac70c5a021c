"""The board that teaches: notes as the player meant them, fill-all-notes and auto-notes,
rule conflicts, hints in three levels counted once, Apply, places in words, and logging
out stopping the clock."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine

import engine
from puzzles.models import Game, Move, Preferences
from puzzles.play import help

from ..helpers import post, start, state

pytestmark = pytest.mark.django_db

SETTINGS = {"theme": "system", "show_timer": "on", "auto_remove_notes": "on"}


def empty_cells(game: Game) -> list[int]:
    return [c for c, ch in enumerate(game.puzzle.givens) if ch == "0"]


def note(client, game: Game, cell: int, digit: int, version: int) -> dict:
    body = {"cell": cell, "digit": digit, "mode": "note", "version": version}
    response = post(client, game, "moves", body)
    assert response.status_code == 200, response.json()
    return response.json()


def place(client, game: Game, cell: int, digit: int, version: int) -> dict:
    body = {"cell": cell, "digit": digit, "mode": "value", "version": version}
    response = post(client, game, "moves", body)
    assert response.status_code == 200, response.json()
    return response.json()


def hint(client, game: Game, level: int, version: int) -> dict:
    response = post(client, game, "hint", {"level": level, "version": version})
    assert response.status_code == 200, response.json()
    return response.json()


def test_one_partial_note_is_a_memo_and_every_hint_stays_an_ordinary_step(player, stocked):
    game = start(player)
    solution, candidates = game.puzzle.solution, engine.candidates(game.puzzle.givens)
    cell = next(c for c in empty_cells(game) if len(candidates[c]) > 1)
    reminder = next(d for d in candidates[cell] if str(d) != solution[cell])
    body = note(player, game, cell, reminder, 0)
    told = hint(player, game, 3, body["version"])["hint"]
    assert "Missing Candidate" not in str(told) and told["slug"] != "missing-candidate"
    plain = engine.next_step(game.puzzle.givens, puzzle=game.puzzle.givens)
    assert told["placements"] == [list(p) for p in plain.placements]
    assert told["eliminations"] == [list(e) for e in plain.eliminations]
    body = state(player, game)
    assert body["notes"][cell] == [reminder] and body["complete"][cell] == "0"  # a memo


def test_fill_notes_writes_exactly_the_candidates_and_one_undo_clears_it(player, stocked):
    game = start(player)
    a, b = empty_cells(game)[:2]
    digit = int(game.puzzle.solution[a])
    body = place(player, game, a, digit, 0)
    body = note(player, game, b, 5, body["version"])
    before = state(player, game)
    body = post(player, game, "fill-notes", {"version": body["version"]}).json()
    candidates = engine.candidates(body["values"])
    assert body["notes"] == candidates
    assert body["complete"] == "".join("1" if c else "0" for c in candidates)
    assert body["hints"] == 0 and body["version"] == before["version"] + 1
    assert Game.objects.get(pk=game.pk).moves.last().kind == Move.Kind.FILL
    undone = post(player, game, "undo", {"version": body["version"]}).json()
    for key in ("values", "notes", "complete"):
        assert undone[key] == before[key], key
    redone = post(player, game, "redo", {"version": undone["version"]}).json()
    assert (redone["notes"], redone["complete"]) == (body["notes"], body["complete"])
    stale = post(player, game, "fill-notes", {"version": 0})
    assert stale.status_code == 409 and stale.json()["state"]["version"] == redone["version"]


def test_taking_a_note_out_of_a_complete_list_keeps_it_complete_and_undo_restores_it(
    player, stocked
):
    game = start(player)
    body = post(player, game, "fill-notes", {"version": 0}).json()
    cell = next(c for c in empty_cells(game) if len(body["notes"][c]) > 1)
    digit = next(d for d in body["notes"][cell] if str(d) != game.puzzle.solution[cell])
    body = note(player, game, cell, digit, body["version"])
    assert digit not in body["notes"][cell] and body["complete"][cell] == "1"
    body = note(player, game, cell, 0, body["version"])  # cleared: no list at all
    assert body["notes"][cell] == [] and body["complete"][cell] == "0"
    body = post(player, game, "undo", {"version": body["version"]}).json()
    assert body["complete"][cell] == "1" and digit not in body["notes"][cell]


def test_the_answer_taken_out_of_a_complete_list_is_pointed_out_and_put_back(player, stocked):
    game = start(player)
    body = post(player, game, "fill-notes", {"version": 0}).json()
    cell = next(c for c in empty_cells(game) if len(body["notes"][c]) > 1)
    answer = int(game.puzzle.solution[cell])
    body = note(player, game, cell, answer, body["version"])
    body = hint(player, game, 3, body["version"])
    assert body["hint"]["slug"] == "missing-candidate"
    assert body["hint"]["technique"] == "Notes that lost their answer (missing candidate)"
    assert body["hint"]["target"] == [cell] and [cell, answer] in body["hint"]["restores"]
    body = post(player, game, "apply-hint", {"version": body["version"]}).json()
    assert answer in body["notes"][cell] and body["complete"][cell] == "1"


def test_a_repeated_digit_is_a_conflict_on_both_cells_with_marking_off_and_no_help(player, stocked):
    game = start(player)
    givens = game.puzzle.givens
    row = next(r for r in range(9) if givens[r * 9 : r * 9 + 9].count("0") >= 2)
    a, b = [c for c in range(row * 9, row * 9 + 9) if givens[c] == "0"][:2]
    digit = engine.candidates(givens)[a][0]  # breaks no rule in a
    body = place(player, game, a, digit, 0)
    assert body["conflicts"] == []
    body = place(player, game, b, digit, body["version"])
    assert {a, b} <= set(body["conflicts"])
    assert body["hints"] == 0 and body["wrong"] == [] and body["mistakes"] is None
    assert state(player, game)["conflicts"] == body["conflicts"]
    assert Game.objects.get(pk=game.pk).helped_at is None


def test_opening_levels_one_two_three_counts_one_help_and_records_level_three(player, stocked):
    game = start(player)
    one = hint(player, game, 1, 0)
    units = [sorted(cells) for cells in engine.UNITS]
    assert one["hint"]["region"] in units or one["hint"]["slug"] == "naked-single"
    assert one["hints"] == 1
    two = hint(player, game, 2, 0)
    three = hint(player, game, 3, 0)
    assert (two["hints"], three["hints"]) == (1, 1)
    again = hint(player, game, 1, 0)  # closing and opening the same hint again
    assert again["hints"] == 1
    saved = Game.objects.get(pk=game.pk)
    assert (saved.hints, saved.hint_level_max, saved.hint["level"]) == (1, 3, 3)
    assert saved.version == 0 and saved.values == game.puzzle.givens
    assert saved.helped_at is not None  # help all the same: no clean solve
    body = post(player, game, "apply-hint", {"version": 0}).json()
    assert body["hints"] == 1
    assert hint(player, game, 1, body["version"])["hints"] == 2  # the next hint counts


def test_the_same_hint_opened_in_two_tabs_at_once_counts_once(player, stocked):
    """Both requests read the game before either saved it: the second must not count the
    hint the first already counted."""
    game = start(player)
    first, second = (Game.objects.select_related("puzzle").get(pk=game.pk) for _ in range(2))
    help.hint(first, 1, 0, Preferences())
    _, told = help.hint(second, 2, 0, Preferences())
    assert told["level"] == 2
    saved = Game.objects.get(pk=game.pk)
    assert (saved.hints, saved.hint["level"], saved.hint_level_max) == (1, 2, 2)
    assert state(player, game)["hints"] == 1


def test_apply_is_one_move_that_one_undo_takes_back(player, stocked):
    game = start(player)
    refused = post(player, game, "apply-hint", {"version": 0})
    assert refused.status_code == 409 and "last level" in refused.json()["error"]
    hint(player, game, 2, 0)
    assert post(player, game, "apply-hint", {"version": 0}).status_code == 409  # not level 3
    told = hint(player, game, 3, 0)["hint"]
    body = post(player, game, "apply-hint", {"version": 0}).json()
    (cell, digit), *_ = told["placements"]
    assert body["values"][cell] == str(digit) and body["select"] == cell
    assert (body["version"], body["can_undo"]) == (1, True)
    assert [m.kind for m in Game.objects.get(pk=game.pk).moves.all()] == ["hint"]
    again = post(player, game, "apply-hint", {"version": 1})
    assert again.status_code == 409  # the hint was about the board before it
    undone = post(player, game, "undo", {"version": 1}).json()
    assert undone["values"] == game.puzzle.givens and not undone["can_undo"]
    assert post(player, game, "apply-hint", {"version": "x"}).status_code == 400


def test_an_elimination_applied_on_memo_notes_leaves_a_complete_list_the_next_hint_honours(
    player, stocked
):
    game = start(player, "hard")
    board = game.puzzle.givens
    version = 0
    for _ in range(80):  # apply hints until one eliminates
        told = hint(player, game, 3, version)["hint"]
        body = post(player, game, "apply-hint", {"version": version}).json()
        version = body["version"]
        if told["eliminations"]:
            for cell, digit in told["eliminations"]:
                assert digit not in body["notes"][cell] and body["complete"][cell] == "1"
            after = hint(player, game, 3, version)["hint"]
            assert after["eliminations"] != told["eliminations"]
            return
        board = body["values"]
    pytest.skip(f"no elimination needed on {board}")


def test_places_are_written_in_words_unless_the_player_wants_them_compact(player, stocked):
    game = start(player)
    told = hint(player, game, 3, 0)["hint"]
    assert not re.search(r"r\dc\d", told["text"]) and "row " in told["text"]
    assert not any(word in told["text"] + told["technique"] for word in ("Full House", "Single"))
    player.post("/settings/", SETTINGS | {"compact_places": "on"})
    assert Preferences.objects.get(user__username="alice").compact_places
    told = hint(player, game, 3, 0)["hint"]
    assert re.search(r"r\dc\d", told["text"])
    assert state(player, game)["hints"] == 1  # the same hint, told another way


def test_auto_notes_start_the_game_with_complete_notes_and_keep_them_up_to_date(player, stocked):
    player.post("/settings/", SETTINGS | {"auto_notes": "on"})
    game = start(player)
    body = state(player, game)
    candidates = engine.candidates(game.puzzle.givens)
    assert body["notes"] == candidates
    assert body["complete"] == "".join("1" if c else "0" for c in candidates)
    cell = empty_cells(game)[0]
    digit = int(game.puzzle.solution[cell])
    peers = [p for p in engine.PEERS[cell] if digit in body["notes"][p]]
    body = place(player, game, cell, digit, body["version"])
    assert all(digit not in body["notes"][p] for p in peers)
    assert all(body["complete"][p] == "1" for p in peers if body["notes"][p])
    body = place(player, game, cell, 0, body["version"])  # erased: candidates come back
    assert body["notes"] == candidates and body["complete"][cell] == "1"
    assert body["hints"] == 0


def test_auto_notes_are_kept_for_guests_too(client, stocked):
    client.post("/settings/", SETTINGS | {"auto_notes": "on", "compact_places": "on"})
    game = start(client)
    assert state(client, game)["notes"] == engine.candidates(game.puzzle.givens)
    told = hint(client, game, 3, 0)["hint"]
    assert re.search(r"r\dc\d", told["text"])


def test_logging_out_stops_the_clock_of_the_players_games(client, alice, stocked):
    with time_machine.travel(
        datetime.datetime(2026, 5, 1, 12, 0, tzinfo=datetime.UTC), tick=False
    ) as clock:
        client.force_login(alice)
        game = start(client)
        clock.shift(40)
        place(client, game, empty_cells(game)[0], 1, 0)
        clock.shift(20)
        client.post("/accounts/logout/")
        assert post(client, game, "pause").status_code == 404  # the page's own pause
        clock.shift(3600)
        client.force_login(alice)
        body = state(client, game)
        assert body["elapsed"] == 60 and body["paused"]


def test_a_memo_that_cannot_be_right_is_pointed_out_first_and_apply_takes_only_it_out(
    player, stocked
):
    game = start(player)
    candidates = engine.candidates(game.puzzle.givens)
    cell = next(c for c in empty_cells(game) if len(candidates[c]) < 8)
    fits = candidates[cell][0]
    wrong = next(d for d in range(1, 10) if d not in candidates[cell])
    body = note(player, game, cell, fits, 0)
    body = note(player, game, cell, wrong, body["version"])
    told = hint(player, game, 3, body["version"])["hint"]
    assert told["slug"] == "impossible-note"
    assert told["technique"] == "A note that cannot be right (impossible note)"
    assert told["eliminations"] == [[cell, wrong]] and told["target"] == [cell]
    body = post(player, game, "apply-hint", {"version": body["version"]}).json()
    assert body["notes"][cell] == [fits] and body["complete"][cell] == "0"  # still a memo
