"""deploy/sudoku.env.example, the settings file, is read two ways: by systemd
(`EnvironmentFile=` in the units) and by `sh` (`set -a; . /etc/sudoku/sudoku.env` in the
docs' `manage()`). Both must read it, and read the same values."""

from __future__ import annotations

import re
import secrets
import subprocess
from pathlib import Path

import pytest

from sudokusite.processes import ROOT

from ..harness import python

ENV_FILE = ROOT / "deploy" / "sudoku.env.example"
NEWLINE = "\n\r"
WHITESPACE = " \t\n\r"
# After a backslash inside double quotes, systemd keeps only these characters (the
# backslash goes); before any other it keeps both.
SHELL_NEED_ESCAPE = '"\\`$'


def _systemd_value(text: str) -> tuple[str, int]:
    """The value starting at text[0] as systemd reads it (after `KEY=`), and the length
    read, up to the end of its line (past it when a quote spans lines)."""
    value, state, blank_from, i = "", "pre", None, 0
    for i, c in enumerate(text, 1):  # noqa: B007 - i, the length read, is returned
        if state in ("pre", "value") and c in NEWLINE:
            break
        if state == "pre" and c in WHITESPACE:
            continue
        if state in ("pre", "value") and c == "\\":
            state, blank_from = "escape", None
        elif state == "pre" and c in "'\"":
            state = "single" if c == "'" else "double"
        elif state in ("pre", "value"):
            if c not in WHITESPACE:
                blank_from = None
            elif blank_from is None:
                blank_from = len(value)
            state, value = "value", value + c
        elif state == "escape":
            state, value = "value", value + ("" if c in NEWLINE else c)
        elif (state, c) in (("single", "'"), ("double", '"')):
            state = "pre"
        elif state == "double" and c == "\\":
            state = "double-escape"
        elif state == "double-escape":
            state = "double"
            value += c if c in SHELL_NEED_ESCAPE else "" if c == "\n" else "\\" + c
        else:
            value += c
    if state == "value" and blank_from is not None:
        value = value[:blank_from]
    return value, i


def systemd_reads(text: str) -> dict[str, str]:
    """KEY=VALUE lines as systemd's EnvironmentFile= reads them (systemd.exec(5) and its
    env-file parser): lines starting with # or ; are comments, blanks around the key and
    before the value are dropped, an unquoted value loses its trailing blanks and takes a
    backslash as an escape, single quotes keep everything, and double quotes are dropped
    with their backslash escapes of " \\ ` $ undone."""
    found, i = {}, 0
    while i < len(text):
        end = text.find("\n", i)
        line = text[i : len(text) if end < 0 else end]
        stripped = line.lstrip(WHITESPACE)
        if not stripped or stripped[0] in "#;" or "=" not in stripped:
            i += len(line) + 1
            continue
        key, _ = stripped.split("=", 1)
        start = i + (len(line) - len(stripped)) + len(key) + 1
        value, length = _systemd_value(text[start:])
        found[key.strip(WHITESPACE)] = value
        i = start + length
    return found


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("A=plain", "plain"),
        ("A = spaced out  ", "spaced out"),
        ('A="Sudoku <sudoku@example.com>"', "Sudoku <sudoku@example.com>"),
        ("A='it''s'", "its"),
        ('A="a \\"b\\" \\$c \\d"', 'a "b" $c \\d'),
        ("A=one\\ two", "one two"),
        ("# A=comment", None),
    ],
)
def test_the_systemd_rules_read_as_systemd_exec_5_says(line, value):
    assert systemd_reads(line + "\n").get("A") == value


def sh_reads(path: Path, folder: Path) -> tuple[subprocess.CompletedProcess, dict, dict]:
    """`set -a; . file` in sh, as the docs' manage() does: the run, and the variables
    before and after."""
    before = folder / "before"
    script = 'env -0 > "$1"; set -a; . "$2"; set +a; env -0'
    result = subprocess.run(
        ["sh", "-c", script, "sh", str(before), str(path)],
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        timeout=30,
        check=False,
    )
    return result, variables(before.read_bytes()), variables(result.stdout)


def variables(dump: bytes) -> dict[str, str]:
    pairs = [item.decode().split("=", 1) for item in dump.split(b"\0") if b"=" in item]
    return dict(pairs)


def made_by(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    made = {key: value for key, value in after.items() if before.get(key) != value}
    made.pop("_", None)  # the last command's path, which some shells keep
    return made


def test_sh_reads_the_settings_file_as_the_docs_load_it(tmp_path):
    result, _, _ = sh_reads(ENV_FILE, tmp_path)
    assert result.returncode == 0, result.stderr.decode(errors="replace")


def test_sh_and_systemd_read_the_same_values_from_the_settings_file(tmp_path):
    _, before, after = sh_reads(ENV_FILE, tmp_path)
    systemd = systemd_reads(ENV_FILE.read_text())
    assert made_by(before, after) == systemd
    assert systemd["DEFAULT_FROM_EMAIL"] == "Sudoku <sudoku@example.com>"


def test_the_comparison_catches_a_value_the_two_read_differently(tmp_path):
    # Unquoted, systemd keeps a # and what follows; sh takes " #" as a comment.
    changed = tmp_path / "sudoku.env"
    changed.write_text("PLAIN=same\nEXTRA=kept #not by sh\n")
    _, before, after = sh_reads(changed, tmp_path)
    assert made_by(before, after) == {"PLAIN": "same", "EXTRA": "kept"}
    assert systemd_reads(changed.read_text()) == {"PLAIN": "same", "EXTRA": "kept #not by sh"}


def check_deploy(values: dict[str, str], folder: Path) -> subprocess.CompletedProcess:
    """`manage.py check --deploy` with these settings only, as the services have them."""
    env = values | {"PATH": "/usr/bin:/bin", "NUMBA_CACHE_DIR": str(folder / "numba")}
    return python(env, "manage.py", "check", "--deploy", "--fail-level", "WARNING", timeout=120)


def test_check_deploy_refuses_the_settings_file_until_its_placeholders_are_replaced(tmp_path):
    shipped = systemd_reads(ENV_FILE.read_text())
    result = check_deploy(shipped, tmp_path)
    assert result.returncode != 0
    named = re.findall(r"\(puzzles\.E001\) (\w+) ", result.stderr)
    assert sorted(named) == [
        "DATABASE_URL",
        "DJANGO_SECRET_KEY",
        "EMAIL_HOST_PASSWORD",
        "METRICS_TOKEN",
    ]
    edited = {
        key: value.replace("CHANGE-ME", secrets.token_urlsafe(50)) for key, value in shipped.items()
    }
    result = check_deploy(edited, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "puzzles.E001" not in result.stdout + result.stderr
