"""Notes that come back: auto-remove takes a placed digit out of its peers' notes as part of
the move, and erasing or replacing the digit puts back what it took, where the placed digits
still allow it; undo and redo walk it exactly, and hints never blame the player for it."""

from __future__ import annotations

import pytest

import engine
from puzzles.models import Game

from ..helpers import post, start, state

pytestmark = pytest.mark.django_db


def act(client, game: Game, action: str, body: dict | None = None) -> dict:
    response = post(client, game, action, body)
    assert response.status_code == 200, response.json()
    return response.json()


def place(client, game: Game, cell: int, digit: int, version: int, mode: str = "value") -> dict:
    body = {"cell": cell, "digit": digit, "mode": mode, "version": version}
    return act(client, game, "moves", body)


def wrong_pair(game: Game) -> tuple[int, int, int]:
    """An empty cell, an empty peer of it, and the peer's answer, which is wrong in the cell
    and no given of the cell's units rules out (so the peer's candidates hold it)."""
    givens, solution = game.puzzle.givens, game.puzzle.solution
    for cell in range(81):
        if givens[cell] != "0":
            continue
        seen = {givens[p] for p in engine.PEERS[cell]}
        for peer in sorted(engine.PEERS[cell]):
            digit = solution[peer]
            if givens[peer] == "0" and digit != solution[cell] and digit not in seen:
                return cell, peer, int(digit)
    raise AssertionError("no such pair")


def hint_slug(client, game: Game, version: int) -> str:
    return act(client, game, "hint", {"level": 1, "version": version})["hint"]["slug"]


def test_erasing_a_wrong_digit_puts_back_the_answer_it_took_from_a_complete_list(player, stocked):
    game = start(player)
    cell, peer, digit = wrong_pair(game)
    filled = act(player, game, "fill-notes", {"version": 0})
    assert digit in filled["notes"][peer]
    placed = place(player, game, cell, digit, filled["version"])
    assert digit not in placed["notes"][peer]
    erased = place(player, game, cell, 0, placed["version"])
    # Nothing for the hint to blame the player for: no notes lost their answer.
    assert hint_slug(player, game, erased["version"]) != "missing-candidate"
    assert erased["notes"][peer] == filled["notes"][peer]
    # The erased cell's own notes went with its digit; every other cell's are as they were.
    assert [f for c, f in enumerate(erased["complete"]) if c != cell] == [
        f for c, f in enumerate(filled["complete"]) if c != cell
    ]
    # The state says which notes the digit took, so a page can put them back on its own.
    assert peer in placed["taken"][cell]
    assert erased["taken"][cell] == []


def test_replacing_a_wrong_digit_puts_back_what_it_took_and_takes_the_new_one(player, stocked):
    game = start(player)
    cell, peer, digit = wrong_pair(game)
    filled = act(player, game, "fill-notes", {"version": 0})
    placed = place(player, game, cell, digit, filled["version"])
    answer = int(game.puzzle.solution[cell])
    replaced = place(player, game, cell, answer, placed["version"])
    assert digit in replaced["notes"][peer]
    for p in engine.PEERS[cell]:
        assert answer not in replaced["notes"][p]
    assert set(replaced["taken"][cell]) == {
        p for p in engine.PEERS[cell] if answer in filled["notes"][p]
    }
    assert hint_slug(player, game, replaced["version"]) != "missing-candidate"


def test_a_memo_note_taken_by_a_digit_comes_back_when_it_is_erased(player, stocked):
    game = start(player)
    cell, peer, digit = wrong_pair(game)
    other = next(d for d in range(1, 10) if d != digit)
    s = place(player, game, peer, digit, 0, "note")
    s = place(player, game, peer, other, s["version"], "note")
    s = place(player, game, cell, digit, s["version"])
    assert s["notes"][peer] == [other]
    s = place(player, game, cell, 0, s["version"])
    assert s["notes"][peer] == sorted([digit, other])


def test_a_note_is_not_put_back_where_a_placed_digit_no_longer_allows_it(player, stocked):
    game = start(player)
    cell, peer, digit = wrong_pair(game)
    filled = act(player, game, "fill-notes", {"version": 0})
    s = place(player, game, cell, digit, filled["version"])
    # Another cell that sees the peer (but not the cell) gets the same digit meanwhile.
    blocker = next(
        p
        for p in sorted(engine.PEERS[peer])
        if p not in engine.PEERS[cell]
        and p != cell
        and game.puzzle.givens[p] == "0"
        and digit in filled["notes"][p]
    )
    s = place(player, game, blocker, digit, s["version"])
    s = place(player, game, cell, 0, s["version"])
    assert digit not in s["notes"][peer]
    # Once the blocker goes, the note it took comes back with it.
    s = place(player, game, blocker, 0, s["version"])
    assert digit in s["notes"][peer]


def test_undo_and_redo_walk_notes_taken_and_put_back_exactly(player, stocked):
    game = start(player)
    cell, _, digit = wrong_pair(game)
    filled = act(player, game, "fill-notes", {"version": 0})
    placed = place(player, game, cell, digit, filled["version"])
    erased = place(player, game, cell, 0, placed["version"])
    keys = ("values", "notes", "complete", "taken")
    undone = act(player, game, "undo", {"version": erased["version"]})
    assert {k: undone[k] for k in keys} == {k: placed[k] for k in keys}
    undone = act(player, game, "undo", {"version": undone["version"]})
    assert {k: undone[k] for k in keys} == {k: filled[k] for k in keys}
    redone = act(player, game, "redo", {"version": undone["version"]})
    assert {k: redone[k] for k in keys} == {k: placed[k] for k in keys}
    redone = act(player, game, "redo", {"version": redone["version"]})
    assert {k: redone[k] for k in keys} == {k: erased[k] for k in keys}


def test_without_auto_remove_a_digit_takes_no_notes_and_puts_none_back(player, stocked, alice):
    player.post("/settings/", {"theme": "system", "show_timer": "on"})
    game = start(player)
    cell, peer, digit = wrong_pair(game)
    filled = act(player, game, "fill-notes", {"version": 0})
    placed = place(player, game, cell, digit, filled["version"])
    assert digit in placed["notes"][peer] and placed["taken"][cell] == []
    assert state(player, game)["taken"] == [[] for _ in range(81)]


def test_notes_filled_while_a_wrong_digit_stood_get_its_digit_back_when_it_goes(player, stocked):
    """Fill all notes leaves a placed digit out of the cells it sees; erasing the digit
    puts it back where the placed digits allow, as for the notes auto-remove took, so no
    hint says the player took the answer out."""
    game = start(player)
    cell, peer, digit = wrong_pair(game)
    s = place(player, game, cell, digit, 0)
    filled = act(player, game, "fill-notes", {"version": s["version"]})
    assert digit not in filled["notes"][peer]
    erased = place(player, game, cell, 0, filled["version"])
    assert hint_slug(player, game, erased["version"]) != "missing-candidate"
    assert digit in erased["notes"][peer] and erased["complete"][peer] == "1"
    assert peer in filled["taken"][cell]
    # The player's own elimination is theirs: a note taken out by hand stays out.
    other = next(d for d in filled["notes"][peer] if d != int(game.puzzle.solution[peer]))
    s = place(player, game, peer, other, erased["version"], "note")
    s = place(player, game, cell, digit, s["version"])
    s = place(player, game, cell, 0, s["version"])
    assert other not in s["notes"][peer] and digit in s["notes"][peer]
