"""Checking the lines of an import file: one puzzle a line, or the `quizzes,solutions` CSV."""

from __future__ import annotations

from dataclasses import dataclass

import engine

MAX_LINE = 400  # characters: a CSV line of puzzle and solution is 163
CSV_HEADER = "quizzes,solutions"


@dataclass(frozen=True)
class Line:
    number: int
    text: str


def lines_of(text: str) -> list[Line]:
    """The lines that hold content, numbered as in the file; the CSV header left out."""
    found = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if number == 1 and line.replace(" ", "").lower() == CSV_HEADER:
            continue
        found.append(Line(number, line))
    return found


def check(line: str) -> engine.Generated | str:
    """The graded puzzle of a line, or the reason it cannot be imported."""
    if len(line) > MAX_LINE:
        return f"the line is too long ({len(line)} characters)"
    puzzle_text, _, solution_text = line.partition(",")
    if "," in solution_text:
        return "expected a puzzle, or a puzzle and its solution separated by one comma"
    try:
        puzzle = engine.parse(puzzle_text)
    except engine.InvalidPuzzle as error:
        return str(error)
    if "0" not in puzzle:
        return "the grid is complete: there is nothing to solve"
    count = engine.count_solutions(puzzle, 2)
    if count == 0:
        return "the puzzle has no solution"
    if count > 1:
        return "the puzzle has more than one solution"
    solution = engine.solve(puzzle)
    if solution_text.strip():
        try:
            given = engine.parse(solution_text)
        except engine.InvalidPuzzle as error:
            return f"the solution column is not a grid: {error}"
        if given != solution:
            return "the solution given is not the puzzle's solution"
    return engine.Generated(puzzle, solution, engine.grade(puzzle))


def looks_binary(data: bytes) -> bool:
    """True for content no text editor wrote: NUL bytes or mostly undecodable."""
    head = data[:65536]
    if b"\x00" in head:
        return True
    text = head.decode("utf-8", errors="replace")
    return text.count("\ufffd") > len(text) // 20
