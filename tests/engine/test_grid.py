"""The board's rules the site takes from the engine: units, peers, cell names, candidates,
a player's Board and the logical solve path."""

from __future__ import annotations

import pytest

import engine

from .helpers import load

PUZZLE = load("top95")[0]


def test_every_cell_has_twenty_peers_and_each_sees_it_back():
    for cell in range(81):
        peers = engine.PEERS[cell]
        assert len(peers) == 20 and cell not in peers and list(peers) == sorted(peers)
        assert all(cell in engine.PEERS[p] for p in peers)


def test_units_and_peers_are_rows_columns_and_boxes():
    assert engine.UNITS[0] == tuple(range(9))
    assert engine.UNITS[9] == tuple(range(0, 81, 9))
    assert engine.UNITS[18] == (0, 1, 2, 9, 10, 11, 18, 19, 20)
    assert engine.UNITS[26] == (60, 61, 62, 69, 70, 71, 78, 79, 80)
    row, column, box = {36, 37, 38, 39, 41, 42, 43, 44}, {4, 13, 22, 31, 49, 58, 67, 76}, {30, 32}
    assert set(engine.PEERS[40]) == row | column | box | {48, 50}  # r5c5, the middle box


@pytest.mark.parametrize("cell, name", [(0, "r1c1"), (14, "r2c6"), (40, "r5c5"), (80, "r9c9")])
def test_cells_are_named_by_row_and_column(cell, name):
    assert engine.cell_name(cell) == name


def test_candidates_are_the_digits_no_peer_holds():
    grid = "123" + "." * 15 + "000900000" + "0" * 54  # r1c1-r1c3 1, 2, 3; r3c4 9
    cands = engine.candidates(grid)
    assert cands[0] == [] and cands[3] == [4, 5, 6, 7, 8]
    assert cands[9] == [4, 5, 6, 7, 8, 9] and cands[80] == list(range(1, 10))
    with pytest.raises(engine.InvalidPuzzle):
        engine.candidates("12")


def test_a_players_board_holds_notes_as_candidates_and_counts_its_empty_cells():
    notes = [[] for _ in range(81)]
    notes[2], notes[5] = [4, 7], [1]
    board = engine.Board.from_notes(PUZZLE, notes)
    assert board.notes() == notes and board.grid() == PUZZLE
    cell = PUZZLE.index("0")
    board.set_cell(cell, 5, [])
    board.set_cell(2, 0, [9, 3])
    assert board.values[cell] == 5 and board.digits(2) == (3, 9)
    fresh = engine.Board(list(board.values), list(board.cands))
    assert board.empties == fresh.empties
    assert board.allowed(cell) == tuple(engine.candidates(PUZZLE)[cell])


def test_the_solution_path_is_the_graded_solve_with_the_position_before_each_step():
    path = engine.solution_path(PUZZLE)
    assert [e.step for e in path] == engine.grade(PUZZLE).steps
    assert path[0].values == PUZZLE and path[0].candidates == engine.candidates(PUZZLE)
    board = engine.Board.from_puzzle(PUZZLE)
    for entry in path:
        assert (entry.values, entry.candidates) == (board.grid(), board.notes())
        board.apply(entry.step)
    assert board.grid() == engine.solve(PUZZLE)
    first = path[0].as_dict()
    assert list(first)[:3] == ["values", "candidates", "technique"]
    assert first["placements"] == [list(p) for p in path[0].step.placements]


def test_a_step_read_after_the_solve_moved_on_is_told_of_the_position_it_was_found_in():
    """The singles leave their wording until it is read; by then the board has changed."""
    from engine.techniques import find_step

    told_at_once = []
    board = engine.Board.from_puzzle(PUZZLE)
    while not board.solved:
        step = find_step(board)
        told_at_once.append(step.as_dict() | {"reason": step.reason, "result": step.result})
        board.apply(step)
    steps = engine.grade(PUZZLE).steps
    told_later = [s.as_dict() | {"reason": s.reason, "result": s.result} for s in steps]
    assert told_later == told_at_once
    assert {s.technique for s in steps} >= {"Full House", "Hidden Single", "Naked Single"}
    hidden = next(s for s in steps if s.technique == "Hidden Single")
    assert hidden.placements[0][0] not in hidden.cause


def test_a_step_keeps_the_way_of_writing_places_it_was_found_with():
    compact = engine.next_step(PUZZLE, compact=True)
    plain = engine.next_step(PUZZLE)
    cell = plain.placements[0][0]
    name = engine.cell_name(cell)
    assert name in compact.explanation and name not in plain.explanation
    assert f"row {cell // 9 + 1}, column {cell % 9 + 1}" in plain.explanation
