"""The management commands: seed_pool, import_puzzles, pool_status."""

from __future__ import annotations

import gzip
import io
import tracemalloc

import pytest
from django.core.management import CommandError, call_command

import engine
from puzzles.models import Difficulty, Puzzle, SeedJob
from puzzles.pools.stock import insert_new, puzzle_row

from ...engine.helpers import DATA
from ..helpers import SAMPLED, graded, samples_of

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_seed_pool_now_makes_puzzles_of_the_difficulty():
    out = run("seed_pool", "--difficulty", "medium", "--count", "4", "--now")
    assert "made 4" in out
    assert Puzzle.objects.filter(difficulty="medium").count() == 4
    assert SeedJob.objects.get().state == "done"


def test_seed_pool_top_up_only_fills_the_gap_and_dry_run_stores_nothing():
    run("seed_pool", "--difficulty", "easy", "--count", "3", "--now")
    # The slowest tiers stocked from public samples, so that "all" has nothing of them to make.
    for difficulty, name in SAMPLED.items():
        insert_new([puzzle_row(graded(p)) for p in samples_of(name, difficulty, 5)])
    assert "would make 2" in run(
        "seed_pool", "--difficulty", "easy", "--count", "5", "--top-up", "--dry-run"
    )
    run("seed_pool", "--difficulty", "all", "--count", "5", "--top-up", "--now")
    assert Puzzle.objects.fresh("easy").count() == 5
    assert Puzzle.objects.fresh("expert").count() == 5
    assert "already at 5" in run("seed_pool", "--difficulty", "easy", "--count", "5", "--top-up")
    assert "extreme: stock already at 5" in run(
        "seed_pool", "--difficulty", "all", "--count", "5", "--top-up"
    )


def test_seed_pool_without_now_queues_a_job():
    out = run("seed_pool", "--difficulty", "hard", "--count", "7")
    job = SeedJob.objects.get()
    assert (job.requested, job.state) == (7, "queued")
    assert f"job {job.pk}" in out


def test_import_puzzles_reports_each_rejected_line(tmp_path):
    path = tmp_path / "few.txt"
    good = (DATA / "top95.txt").read_text().split()[:3]
    path.write_text("\n".join([*good, "12345", good[0]]))
    out = run("import_puzzles", str(path), "--now")
    assert "line 4: a puzzle has 81 cells" in out
    assert "line 5: already stored" in out
    assert "stored 3, rejected 2" in out
    assert Puzzle.objects.filter(source="imported").count() == 3


def test_import_puzzles_dry_run_checks_without_storing(tmp_path):
    path = tmp_path / "few.txt"
    path.write_text("\n".join((DATA / "multi_solution_200.txt").read_text().split()[:2]))
    out = run("import_puzzles", str(path), "--dry-run")
    assert "more than one solution" in out
    assert "0 of 2 lines would import" in out
    assert Puzzle.objects.count() == 0


def test_import_puzzles_refuses_binary_and_missing_files(tmp_path):
    bomb = tmp_path / "bomb.txt"
    bomb.write_bytes(gzip.compress(b"0" * 1_000_000))
    with pytest.raises(CommandError, match="not a text file"):
        run("import_puzzles", str(bomb))
    with pytest.raises(CommandError, match="cannot read"):
        run("import_puzzles", str(tmp_path / "missing.txt"))
    assert SeedJob.objects.count() == 0


def test_pool_status_lists_every_difficulty():
    out = run("pool_status")
    for difficulty in Difficulty.values:
        assert difficulty in out
    assert "broker:" in out


def test_a_full_grid_is_rejected_not_imported(tmp_path):
    import engine

    path = tmp_path / "grid.txt"
    path.write_text(engine.random_grid(3) + "\n")
    out = run("import_puzzles", str(path), "--now")
    assert "line 1: the grid is complete" in out
    assert Puzzle.objects.count() == 0


def kaggle_csv_lines(count: int) -> list[str]:
    """Lines of the quizzes,solutions CSV, puzzles with their real solutions."""
    puzzles = (DATA / "easy_kaggle_1000.txt").read_text().split()[:count]
    solutions = (DATA / "easy_kaggle_1000_solutions.txt").read_text().split()[:count]
    return [f"{p.replace('.', '0')},{s}" for p, s in zip(puzzles, solutions, strict=True)]


def test_import_puzzles_checks_the_solution_column_of_the_csv(tmp_path):
    right = kaggle_csv_lines(4)
    puzzle, solution = right[3].split(",")
    swapped = solution.translate(str.maketrans("12", "21"))  # a valid grid, not the solution
    path = tmp_path / "sudoku.csv"
    lines = ["quizzes,solutions", *right[:3], f"{puzzle},{swapped}", f"{puzzle},{solution[:80]}"]
    path.write_text("\n".join(lines) + "\n")
    out = run("import_puzzles", str(path), "--now")
    assert "line 5: the solution given is not the puzzle's solution" in out
    assert "line 6: the solution column is not a grid: a puzzle has 81 cells" in out
    assert "stored 3, rejected 2" in out
    for line in right[:3]:
        puzzle, solution = line.split(",")
        assert Puzzle.objects.get(givens=puzzle).solution == solution


def seen_from(puzzle: str, cell: int) -> set[str]:
    """The digits given in the cell's row, column and box."""
    return {puzzle[i] for i in engine.PEERS[cell]} - {"0"}


def test_a_puzzle_without_a_solution_is_rejected_with_the_reason(tmp_path):
    puzzle, solution = kaggle_csv_lines(1)[0].split(",")
    # A digit no given forbids in a blank cell, but not the solution's: nothing solves it.
    cell, digit = next(
        (cell, digit)
        for cell in range(81)
        if puzzle[cell] == "0"
        for digit in sorted(set("123456789") - seen_from(puzzle, cell) - {solution[cell]})
    )
    path = tmp_path / "unsolvable.txt"
    path.write_text(puzzle[:cell] + digit + puzzle[cell + 1 :] + "\n")
    out = run("import_puzzles", str(path), "--now")
    assert "line 1: the puzzle has no solution" in out
    assert Puzzle.objects.count() == 0


def test_import_puzzles_reads_no_more_of_a_huge_file_than_the_limit(tmp_path):
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as stream:
        stream.truncate(500 * 1024 * 1024)  # sparse: 500 MB that take no disk
    tracemalloc.start()
    with pytest.raises(CommandError, match="larger than"):
        run("import_puzzles", str(huge))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 16 * 1024 * 1024, peak  # the 5 MB limit and a little, not the file
    assert SeedJob.objects.count() == 0


def test_import_puzzles_refuses_a_file_of_too_many_lines(tmp_path):
    path = tmp_path / "ones.txt"
    path.write_text("1\n" * 100_001)
    with pytest.raises(CommandError, match="more than 100,000 lines"):
        run("import_puzzles", str(path))
    assert SeedJob.objects.count() == 0


def test_a_puzzle_that_needs_trial_and_error_is_rejected_not_imported(tmp_path, monkeypatch):
    # With the nested forcing chains switched off, the hardest list's first puzzle needs
    # search: no tier may store it.
    import sys

    monkeypatch.setattr(sys.modules["engine.techniques.nested"], "LEVELS", ())
    path = tmp_path / "hardest.txt"
    path.write_text(engine.EXTREME_STARTS[0] + "\n")
    out = run("import_puzzles", str(path), "--now")
    assert "line 1: the puzzle needs trial and error" in out
    assert Puzzle.objects.count() == 0
