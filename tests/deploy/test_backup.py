"""deploy/sudoku-backup, the database's backup, in the parts that need no database server:
it refuses to run without its settings, a failing pg_dump leaves nothing behind and
removes no dump, and the database's password never shows on a command line. The dump
itself, its rotation and a restore run against PostgreSQL in .ci/production. The alert
docs/backups.md gives passes promtool. (`make test` installs Debian's postgresql-client
and prometheus, for pg_dump and promtool, when missing.)"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudokusite.processes import ROOT
from tests.harness import wait_until

from .helpers import promtool

SCRIPT = ROOT / "deploy" / "sudoku-backup"
OLD_DUMPS = ["sudoku-2020-01-01T031500Z.dump", "sudoku-2020-01-02T031500Z.dump"]


def settings(folder: Path, database_url: str, **more: str) -> Path:
    """A settings file as an operator writes it, its dumps going to folder/dumps."""
    lines = [f"DATABASE_URL={database_url}", f"BACKUP_DIR={folder / 'dumps'}"]
    lines += [f"{name}={value}" for name, value in more.items()]
    path = folder / "sudoku.env"
    path.write_text("\n".join(lines) + "\n")
    return path


def environment() -> dict[str, str]:
    # The environment a timer's unit gives: no PG* variables of the caller's, and a
    # connection that gives up soon.
    return {"PATH": os.environ["PATH"], "PGCONNECT_TIMEOUT": "10"}


def run(*arguments: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(SCRIPT), *map(str, arguments)],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=60,
        check=False,
    )


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_dump_of(pid: int) -> str | None:
    """The process id of the pg_dump the script's process runs, once it runs it (past
    Debian's wrapper, a Perl script that hands over to the version's own)."""
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            program = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")[0]
        except FileNotFoundError:  # a short-lived child already gone
            continue
        if program.endswith(b"pg_dump"):
            return child
    return None


def test_without_the_settings_file_it_says_so_and_makes_nothing(tmp_path):
    result = run(tmp_path / "missing.env")
    assert result.returncode == 1
    assert result.stderr == f"sudoku-backup: cannot read the settings file {tmp_path}/missing.env\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("database_url", "more", "said"),
    [
        ("", {}, "DATABASE_URL is not set"),
        ("sqlite:////srv/sudoku/db.sqlite3", {}, "DATABASE_URL is not a PostgreSQL database"),
        ("postgres://sudoku@127.0.0.1/sudoku", {"BACKUP_KEEP_DAYS": "week"}, "BACKUP_KEEP_DAYS"),
        ("postgres://sudoku@127.0.0.1/sudoku", {"BACKUP_KEEP_LAST": "0"}, "BACKUP_KEEP_LAST"),
    ],
    ids=["no-database", "sqlite", "days-not-a-number", "keeps-none"],
)
def test_settings_it_cannot_use_are_refused_with_the_reason(tmp_path, database_url, more, said):
    result = run(settings(tmp_path, database_url, **more))
    assert result.returncode == 1
    assert result.stderr.startswith("sudoku-backup: ") and said in result.stderr
    assert not (tmp_path / "dumps").exists()


def test_a_failing_pg_dump_fails_the_run_leaves_no_file_and_removes_no_dump(tmp_path):
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    for name in OLD_DUMPS:  # past any rotation: kept all the same when no new dump is made
        (dumps / name).write_bytes(b"an old dump")
    url = f"postgres://sudoku@127.0.0.1:{closed_port()}/sudoku"
    result = run(settings(tmp_path, url, BACKUP_KEEP_DAYS="1", BACKUP_KEEP_LAST="1"))
    assert result.returncode == 1
    assert "pg_dump: error: connection to server" in result.stderr
    assert result.stderr.endswith(
        "sudoku-backup: pg_dump failed (status 1): no dump made, none removed\n"
    )
    assert sorted(p.name for p in dumps.iterdir()) == [".lock", *OLD_DUMPS]


@contextlib.contextmanager
def pg_dump_held(folder: Path, password: str = "") -> Iterator[tuple[subprocess.Popen, str, int]]:
    """A run whose pg_dump waits on a server that takes the connection and never answers:
    the run, its pg_dump's process id and the server's port, while the block runs; then
    the server goes, which ends pg_dump, and the run fails."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        url = f"postgres://sudoku{password}@127.0.0.1:{port}/sudoku?sslmode=disable"
        script = subprocess.Popen(
            [str(SCRIPT), str(settings(folder, url))],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(),
        )
        try:
            wait_until(lambda: pg_dump_of(script.pid), 30, "pg_dump started")
            yield script, pg_dump_of(script.pid), port
        finally:
            server.close()
            script.communicate(timeout=60)


def test_the_password_goes_to_pg_dump_in_its_environment_not_on_its_command_line(tmp_path):
    with pg_dump_held(tmp_path, ":p%40ss%2Fw0rd") as (script, child, port):
        command = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        variables = Path(f"/proc/{child}/environ").read_bytes().split(b"\0")
    assert command[0].endswith(b"pg_dump")
    assert f"--dbname=postgres://sudoku@127.0.0.1:{port}/sudoku?sslmode=disable".encode() in command
    assert not any(b"p%40ss" in part or b"p@ss" in part for part in command)
    assert b"PGPASSWORD=p@ss/w0rd" in variables
    assert script.returncode == 1
    assert sorted(p.name for p in (tmp_path / "dumps").iterdir()) == [".lock"]


def test_a_second_run_while_one_runs_fails_at_once_and_says_so(tmp_path):
    with pg_dump_held(tmp_path):
        second = run(tmp_path / "sudoku.env")
        partials = sorted(p.name for p in (tmp_path / "dumps").glob(".sudoku-*.partial"))
    assert second.returncode == 1
    assert second.stderr == f"sudoku-backup: another backup is running in {tmp_path}/dumps\n"
    assert len(partials) == 1  # the first run's, left alone by the second


def test_the_upgrade_steps_back_up_first():
    docs = (ROOT / "docs" / "upgrades.md").read_text()
    upgrades = docs.split("## Upgrading\n", 1)[1]
    first = next(line for line in upgrades.splitlines() if line[:1].isdigit())
    assert first.startswith("0. ") and "back up" in first.lower(), first
    assert "(backups.md)" in first, first


def alert_rules() -> str:
    """The alert rule docs/backups.md gives, as written there."""
    docs = (ROOT / "docs" / "backups.md").read_text()
    return docs.split("```yaml\n", 1)[1].split("```", 1)[0]


def test_the_docs_alert_rule_passes_promtool_check_rules(tmp_path):
    (tmp_path / "backup-rules.yml").write_text(alert_rules())
    result = promtool("check", "rules", "backup-rules.yml", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS: 1 rules found" in result.stdout


def test_the_docs_alert_fires_once_no_backup_succeeded_for_26_hours(tmp_path):
    # The last success at time 0: quiet at 26 hours, firing 10 minutes past them.
    (tmp_path / "backup-rules.yml").write_text(alert_rules())
    (tmp_path / "backup-tests.yml").write_text(
        """rule_files: [backup-rules.yml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'sudoku_backup_last_success_timestamp_seconds{instance="db1"}'
        values: '0x2000'
    alert_rule_test:
      - eval_time: 26h
        alertname: SudokuBackupMissing
        exp_alerts: []
      - eval_time: 26h20m
        alertname: SudokuBackupMissing
        exp_alerts:
          - exp_labels: {severity: warning, instance: db1}
            exp_annotations:
              summary: No backup of the Sudoku database has succeeded for over 26 hours
              description: >-
                See `systemctl status sudoku-backup` and
                `journalctl -u sudoku-backup` on db1.
"""
    )
    result = promtool("test", "rules", "backup-tests.yml", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout
