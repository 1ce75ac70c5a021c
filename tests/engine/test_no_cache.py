"""A process whose user may write none of numba's cache folders (beside the code, the home
folder's cache, NUMBA_CACHE_DIR) still imports the engine and solves: it warns once and
compiles the kernels in memory."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sudokusite.processes import ROOT

from ..harness import python

PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def unwritable_copy(folder: Path) -> Path:
    """The engine copied where no cache folder can be made: every __pycache__ a plain file
    (a folder cannot be made over it, not even by root, as a read-only one could)."""
    code = folder / "code"
    shutil.copytree(ROOT / "engine", code / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    for package in [code / "engine", *(code / "engine").glob("*/")]:
        (package / "__pycache__").write_text("")
    return code


@pytest.mark.parametrize("cache_dir", [None, "blocked/numba"], ids=["unset", "unwritable"])
def test_the_engine_solves_without_a_cache_it_may_write(tmp_path, cache_dir):
    code = unwritable_copy(tmp_path)
    blocked = tmp_path / "blocked"
    blocked.write_text("")  # a file: nothing can be made under it
    env = {"PATH": "/usr/bin:/bin", "HOME": str(blocked), "PYTHONDONTWRITEBYTECODE": "1"}
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = str(tmp_path / cache_dir)
    result = python(env, "-c", f"import engine; print(engine.solve({PUZZLE!r}))", cwd=code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == SOLUTION
    warnings = [line for line in result.stderr.splitlines() if "NUMBA_CACHE_DIR" in line]
    assert len(warnings) == 1, result.stderr
    assert "compiled" in warnings[0]
