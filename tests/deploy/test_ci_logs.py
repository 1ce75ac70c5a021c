"""A CI pass that fails shows why: the server errors of the processes it started, wherever
they are in their logs, and not only the logs' last lines (.ci/lib.sh, show_logs)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def show_logs(work: Path) -> str:
    script = f'WORK={work}; . "{ROOT}/.ci/lib.sh"; show_logs'
    return subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, check=True, timeout=30
    ).stdout


def test_a_failed_pass_shows_the_errors_deep_in_a_log(tmp_path: Path) -> None:
    quiet = [
        f"INFO puzzles.requests [{n}]: POST /api/games/7/changes 200 4.1 ms" for n in range(200)
    ]
    lines = [
        "INFO puzzles.requests [a]: GET / 503 2.0 ms from 127.0.0.1 user guest",
        "ERROR django.request: Internal Server Error: /games/3/",
        "Traceback (most recent call last):",
        '  File "puzzles/play/views.py", line 9, in game_page',
        "psycopg.OperationalError: the database system is shutting down",
        *quiet,
    ]
    (tmp_path / "web.log").write_text("\n".join(lines) + "\n")
    (tmp_path / "worker.log").write_text("\n".join(quiet) + "\n")
    (tmp_path / "groups").write_text("101 web\n102 worker\n")
    shown = show_logs(tmp_path)
    errors, _, rest = shown.partition("---- the last lines of web's log")
    assert "---- the server errors in web's log" in errors
    assert "GET / 503 2.0 ms" in errors
    assert "psycopg.OperationalError: the database system is shutting down" in errors
    # The last lines follow all the same, and a log with no error shows only those.
    assert quiet[-1] in rest and "GET / 503" not in rest
    assert "server errors in worker's log" not in shown
    assert "---- the last lines of worker's log" in shown


def test_an_answer_of_200_that_took_500_ms_is_no_server_error(tmp_path: Path) -> None:
    (tmp_path / "web.log").write_text(
        "INFO puzzles.requests [b]: GET /daily/ 200 503.0 ms from 127.0.0.1 user 5\n"
        "INFO puzzles.requests [c]: GET /api/games/500/ 200 3.0 ms from 127.0.0.1 user 5\n"
    )
    (tmp_path / "groups").write_text("101 web\n")
    assert "server errors" not in show_logs(tmp_path)
