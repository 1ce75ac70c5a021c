"""Which build is running: the project's version (pyproject.toml's, the one place it is
written) and the commit it was made from, read once when the process starts and told by
/metrics as sudoku_build_info. The commit is the installer's word (SUDOKU_COMMIT in the
settings file), else the release's REVISION file (deploy/sudoku-upgrade writes it), else
git's when the code is a git checkout, else "unknown"."""

from __future__ import annotations

import os
import subprocess
import tomllib
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def version(root: Path = ROOT) -> str:
    """The version in pyproject.toml; "unknown" when the file is not there."""
    try:
        return tomllib.loads((root / "pyproject.toml").read_text())["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def commit(environ: Mapping[str, str] = os.environ, root: Path = ROOT) -> str:
    """SUDOKU_COMMIT when set; else the REVISION file of a release unpacked by
    deploy/sudoku-upgrade; else the checkout's HEAD, asked of git once; else "unknown" (a
    copy of the code without .git, or no git installed)."""
    given = environ.get("SUDOKU_COMMIT", "").strip()
    if given:
        return given
    try:
        written = (root / "REVISION").read_text().strip()
    except OSError:
        written = ""
    if written:
        return written
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--verify", "HEAD"],
            cwd=root,
            env={**environ, "GIT_CEILING_DIRECTORIES": str(root.parent)},
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    head = found.stdout.strip()
    return head if found.returncode == 0 and head else "unknown"


VERSION = version()
COMMIT = commit()
