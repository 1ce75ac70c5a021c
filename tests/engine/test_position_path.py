"""The logical solve from a player's position: their pencil marks as the candidates."""

from __future__ import annotations

import pytest

import engine

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
PUZZLE = engine.parse(EASTER_MONSTER)
SOLUTION = engine.solve(PUZZLE)


def test_without_marks_the_path_is_the_graded_one():
    path = engine.solution_path(PUZZLE, seconds=60)
    assert [p.step for p in path] == engine.grade(PUZZLE).steps


def test_marks_made_are_kept_and_the_path_starts_from_them():
    # Take out of every empty cell all that is not the solution's digit: the position is
    # then solved by singles alone, which the unmarked puzzle is not.
    marks = [[int(SOLUTION[c])] if PUZZLE[c] == "0" else [] for c in range(81)]
    path = engine.solution_path(PUZZLE, marks)
    assert path[0].candidates[2] == [int(SOLUTION[2])]
    assert {p.step.technique for p in path} <= {"Full House", "Naked Single", "Hidden Single"}
    assert len(path) == PUZZLE.count("0")


def test_marks_wider_than_the_placed_digits_allow_are_narrowed():
    marks = [list(range(1, 10)) for _ in range(81)]
    path = engine.solution_path(PUZZLE, marks)
    assert path[0].candidates == engine.candidates(PUZZLE)


def test_marks_that_take_out_the_solution_digit_are_refused():
    marks = engine.candidates(PUZZLE)
    marks[1] = [d for d in marks[1] if d != int(SOLUTION[1])]
    with pytest.raises(engine.InvalidPuzzle, match="leave out the solution's digit"):
        engine.solution_path(PUZZLE, marks)


def test_several_solutions_are_refused_with_marks_too():
    with pytest.raises(engine.InvalidPuzzle, match="more than one solution"):
        engine.solution_path("0" * 81, [[] for _ in range(81)])


def test_a_solve_past_its_time_stops():
    with pytest.raises(TimeoutError):
        engine.solution_path(PUZZLE, seconds=0)
