"""python -m engine: one result a line, errors reported per line."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import engine
from engine import cli

from .helpers import DATA, load

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_solve_reads_a_file_and_writes_one_solution_a_line():
    result = run("solve", str(DATA / "top95.txt"))
    assert result.returncode == 0
    assert result.stdout.split() == [engine.solve(p) for p in load("top95")]


def test_count_and_canonical_read_stdin():
    puzzles = load("multi_solution_200")[:3] + load("top95")[:2]
    result = run("count", "-", stdin="\n".join(puzzles))
    assert result.stdout.split() == ["2", "2", "2", "1", "1"]
    result = run("canonical", "-", stdin="\n".join(puzzles))
    assert result.stdout.split() == [engine.canonical(p) for p in puzzles]


def test_grade_and_hint_describe_each_puzzle():
    puzzle = load("top95")[0]
    grade = run("grade", "-", stdin=puzzle).stdout.strip()
    expected = engine.grade(puzzle)
    assert grade.startswith(f"{expected.difficulty},{expected.score},")
    hint = run("hint", "-", stdin=puzzle).stdout.strip()
    assert hint == f"{engine.next_step(puzzle).technique}: {engine.next_step(puzzle).explanation}"


def test_generate_prints_puzzle_solution_difficulty_score_and_repeats_with_a_seed():
    result = run("generate", "--difficulty", "hard", "--count", "3", "--seed", "1")
    lines = result.stdout.split()
    assert len(lines) == 3
    for line in lines:
        puzzle, solution, difficulty, score = line.split(",")
        assert engine.solve(puzzle) == solution
        assert difficulty == "hard"
        assert float(score) == engine.grade(puzzle).score
    assert (
        run("generate", "--difficulty", "hard", "--count", "3", "--seed", "1").stdout.split()
        == lines
    )


def test_a_bad_line_is_reported_and_the_rest_still_answered():
    result = run("solve", "-", stdin="12345\n" + load("top95")[0] + "\n")
    assert result.returncode == 1
    first, second = result.stdout.splitlines()
    assert first.startswith("error: line 1:") and "81 cells" in first
    assert second == engine.solve(load("top95")[0])


def test_error_lines_give_the_line_number_in_the_file(tmp_path):
    good = load("top95")[0]
    text = f"# a header\n\n{good}\n\n# comment\n12345\n{good}\n"
    result = run("count", "-", stdin=text)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "1",
        "error: line 6: a puzzle has 81 cells, this one has 5",
        "1",
    ]
    path = tmp_path / "puzzles.txt"
    path.write_text(text)
    assert run("count", str(path)).stdout == result.stdout


def test_a_limit_below_one_is_a_usage_error_not_a_traceback():
    result = run("count", "--limit", "0", "-", stdin=load("top95")[0])
    assert result.returncode == 2
    assert "--limit" in result.stderr and "at least 1" in result.stderr
    assert "Traceback" not in result.stderr
    assert run("generate", "--count", "-3").returncode == 2


def test_a_file_that_cannot_be_read_is_a_usage_error(tmp_path):
    result = run("solve", str(tmp_path / "missing.txt"))
    assert result.returncode == 2
    assert "cannot read" in result.stderr and "Traceback" not in result.stderr


def test_reading_stdin_leaves_it_open_for_the_caller(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(load("top95")[0] + "\n"))
    out = io.StringIO()
    assert cli.main(["count", "-"], out=out) == 0
    assert out.getvalue() == "1\n"
    assert not sys.stdin.closed
