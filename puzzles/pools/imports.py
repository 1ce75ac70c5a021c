"""Checking the lines of an import file: one puzzle a line, or the `quizzes,solutions` CSV.

A file is read line by line, never split whole: an upload is counted without building its
lines, and a worker reads a job's file a window at a time from where the last chunk stopped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.utils.translation import gettext as _

import engine

MAX_LINE = 400  # characters: a CSV line of puzzle and solution is 163
MAX_LINES = 100_000  # lines of a file, blank ones included: 10x the 10,000-line files we expect
CSV_HEADER = "quizzes,solutions"
# Where str.splitlines() breaks, so that line numbers are those any editor shows.
LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


class TooManyLines(ValueError):
    """The file has more lines than an import takes."""


@dataclass(frozen=True)
class Line:
    number: int
    text: str


def split(text: str, number: int = 0, final: bool = True) -> Iterator[tuple[int, str, int]]:
    """(number, raw line, offset after its break) for each line of text, numbered on from
    number. With final False, text is a window of a longer file: a last line that may go on
    past the window is left for the next one."""
    start = 0
    while start < len(text):
        found = LINE_BREAK.search(text, start)
        if found is None or (not final and found.end() == len(text)):
            # A break at the window's very end may be the "\r" of a "\r\n" cut in two.
            if final:
                yield number + 1, text[start:], len(text)
            return
        number += 1
        yield number, text[start : found.start()], found.end()
        start = found.end()


def content_of(number: int, raw: str) -> str | None:
    """What a line holds to import; None for a blank line, a comment or the CSV header."""
    line = raw.strip()
    if not line or line.startswith("#"):
        return None
    if number == 1 and line.replace(" ", "").lower() == CSV_HEADER:
        return None
    return line


def iter_lines(text: str) -> Iterator[Line]:
    """The lines that hold content, numbered as in the file, one at a time."""
    for number, raw, _end in split(text):
        line = content_of(number, raw)
        if line is not None:
            yield Line(number, line)


def lines_of(text: str) -> list[Line]:
    """The lines that hold content, numbered as in the file; the CSV header left out."""
    return list(iter_lines(text))


def count_lines(text: str, limit: int = MAX_LINES) -> int:
    """How many lines hold content, without keeping any; TooManyLines past limit lines."""
    count = 0
    for number, raw, _end in split(text):
        if number > limit:
            raise TooManyLines(
                _("The file has more than %(limit)s lines. Split it up.") % {"limit": f"{limit:,}"}
            )
        if content_of(number, raw) is not None:
            count += 1
    return count


def take(text: str, number: int, final: bool, most: int) -> tuple[list[Line], int, int]:
    """Up to most content lines from the start of text, whose first line is number + 1:
    the lines, how many characters they used up, and the number of the last line read."""
    lines, used, last = [], 0, number
    for last, raw, end in split(text, number, final):
        used = end
        line = content_of(last, raw)
        if line is not None:
            lines.append(Line(last, line))
            if len(lines) == most:
                break
    return lines, used, last


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
    grade = engine.grade(puzzle)
    if "Trial and Error" in grade.techniques:
        return "the puzzle needs trial and error: no tier takes a puzzle logic cannot solve"
    return engine.Generated(puzzle, solution, grade)


def looks_binary(data: bytes) -> bool:
    """True for content no text editor wrote: NUL bytes (which no database text column
    takes) anywhere, or a start that is mostly undecodable."""
    if b"\x00" in data:
        return True
    text = data[:65536].decode("utf-8", errors="replace")
    return text.count("\ufffd") > len(text) // 20
