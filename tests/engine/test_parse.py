"""Reading puzzles: the accepted forms and the errors that say what is wrong and where."""

from __future__ import annotations

import pytest

from engine import InvalidPuzzle, count_solutions, grade, parse, solve

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_dots_and_zeros_are_blanks():
    assert parse(PUZZLE) == PUZZLE.replace(".", "0")


def test_grid_drawings_and_whitespace_are_ignored():
    rows = [PUZZLE[r * 9 : r * 9 + 9] for r in range(9)]
    drawn = "\n".join(
        " | ".join(" ".join(row[c : c + 3]) for c in (0, 3, 6))
        + ("\n------+-------+------" if r in (2, 5) else "")
        for r, row in enumerate(rows)
    )
    assert parse(drawn) == PUZZLE.replace(".", "0")


@pytest.mark.parametrize(
    "text, message",
    [
        ("1" * 80, "81 cells, this one has 80"),
        ("0" * 82, "81 cells, this one has 82"),
        ("", "81 cells, this one has 0"),
        ("0" * 40 + "x" + "0" * 40, "character 'x' at position 41"),
        (
            "0" * 9 + "5" + "0" * 8 + "5" + "0" * 62,
            "column 1 has the digit 5 twice, at r2c1 and r3c1",
        ),
        ("77" + "0" * 79, "row 1 has the digit 7 twice, at r1c1 and r1c2"),
        ("3" + "0" * 9 + "3" + "0" * 70, "box 1 has the digit 3 twice, at r1c1 and r2c2"),
    ],
)
def test_bad_input_raises_invalid_puzzle_saying_what_and_where(text, message):
    with pytest.raises(InvalidPuzzle, match=message):
        parse(text)


def test_invalid_puzzle_is_a_value_error_and_non_text_is_refused():
    assert issubclass(InvalidPuzzle, ValueError)
    with pytest.raises(InvalidPuzzle):
        parse(12345)  # type: ignore[arg-type]


def test_solver_calls_refuse_bad_input_with_the_same_error():
    with pytest.raises(InvalidPuzzle, match="81 cells"):
        solve("123")
    with pytest.raises(InvalidPuzzle, match="character"):
        count_solutions("a" * 81)
    with pytest.raises(ValueError, match="limit"):
        count_solutions(PUZZLE, limit=0)


def test_grade_refuses_puzzles_without_exactly_one_solution():
    with pytest.raises(InvalidPuzzle, match="more than one solution"):
        grade("0" * 81)
    with pytest.raises(InvalidPuzzle, match="no solution"):
        grade("12345678" + "0" * 17 + "9" + "0" * 55)
