"""The layout keeps itself: imports between the app's groups run one way (see
puzzles/__init__.py), the engine knows nothing of the site, and the page's scripts import
each other in no circle."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
APP = ROOT / "puzzles"
GROUPS = ("pools", "accounts", "learn", "play")
# What each part of the app may import from the app (itself always). Models, and the
# statements written as SQL from them (sql), sit under every group and import none of them.
ALLOWED = {
    "pools": {"models", "sql"},
    "accounts": {"models", "sql"},
    "learn": {"models", "sql", "pools", "accounts"},
    "play": {"models", "sql", "pools", "accounts", "learn"},
    "models": set(),
    "sql": {"models"},
}
BASE = ("models", "sql")


def part_of(module: str) -> str:
    """The part of the app a dotted module name belongs to: a group, "models", or "top"
    for the modules that wire the groups into Django (urls, admin, apps, commands...)."""
    parts = module.split(".")
    if parts[0] != "puzzles" or len(parts) < 2:
        return "outside"
    if parts[1] in GROUPS or parts[1] in BASE:
        return parts[1]
    return "top"


def module_name(path: Path) -> str:
    relative = path.relative_to(ROOT).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every module of ours the source imports, at the top or inside a function, relative
    imports resolved against the module's own package."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join([*base, *([node.module] if node.module else [])])
            found.add(target)
            # "from . import games" names modules, not attributes
            found |= {f"{target}.{alias.name}" for alias in node.names}
    return {name for name in found if name.split(".")[0] in ("puzzles", "engine")}


def engine_internal(name: str) -> bool:
    """Whether a dotted name reaches into one of the engine's own modules ("engine.climb",
    "engine.techniques.table"), rather than a name the engine exports ("engine.Board")."""
    parts = name.split(".")
    if parts[0] != "engine" or len(parts) < 2:
        return False
    engine = ROOT / "engine"
    return (engine / f"{parts[1]}.py").exists() or (engine / parts[1]).is_dir()


def wrong_way(importer: str, imported: set[str]) -> list[str]:
    """The imports that run against the rule, as "importer -> imported"."""
    own = part_of(importer)
    # The site uses the engine through its public names only (engine/__init__.py).
    bad = [f"{importer} -> {name}" for name in sorted(imported) if engine_internal(name)]
    if own in ("top", "outside"):
        return bad
    allowed = ALLOWED[own] | {own}
    for name in sorted(imported):
        if name.split(".")[0] == "engine":
            continue
        target = part_of(name)
        if target == "outside" or name == "puzzles":
            continue
        dotted = ".".join(name.split(".")[1:3])
        if target not in allowed and dotted not in allowed:
            bad.append(f"{importer} -> {name}")
    return bad


def app_modules() -> list[Path]:
    return [p for p in APP.rglob("*.py") if "migrations" not in p.parts]


def test_imports_between_the_apps_groups_run_one_way():
    bad = []
    for path in [*app_modules(), *(ROOT / "sudokusite").rglob("*.py")]:
        module = module_name(path)
        found = imports_of(path.read_text(), module, path.name == "__init__.py")
        bad += wrong_way(module, found)
    assert bad == [], "imports that run the wrong way:\n" + "\n".join(bad)


def test_the_rule_catches_a_wrong_way_import():
    # The checker itself: a pool module reaching up into play, in either spelling, is
    # caught, as is one of accounts reaching into pools; the right way passes.
    assert wrong_way(
        "puzzles.pools.stock", imports_of("from ..play import games", "puzzles.pools.stock")
    )
    assert wrong_way("puzzles.pools.tasks", imports_of("import puzzles.learn.examples", "x"))
    assert wrong_way(
        "puzzles.accounts.players",
        imports_of("def f():\n    from ..pools.daily import today\n", "puzzles.accounts.players"),
    )
    assert wrong_way("puzzles.models", imports_of("from .pools import stock", "puzzles.models"))
    assert wrong_way("puzzles.sql", imports_of("from .play import rows", "puzzles.sql"))
    # An engine internal reached past the engine's public names, from a group or the top.
    assert wrong_way(
        "puzzles.learn.guide",
        imports_of("from engine.techniques.table import TABLE", "puzzles.learn.guide"),
    )
    assert wrong_way("puzzles.urls", imports_of("import engine.climb", "puzzles.urls"))
    assert not wrong_way("puzzles.learn.guide", imports_of("import engine", "puzzles.learn.guide"))
    assert not wrong_way(
        "puzzles.learn.guide", imports_of("from engine import TECHNIQUES", "puzzles.learn.guide")
    )
    assert not wrong_way(
        "puzzles.accounts.sessions",
        imports_of("from ..sql import select_one", "puzzles.accounts.sessions"),
    )
    assert not wrong_way(
        "puzzles.play.games", imports_of("from ..pools.stock import claim", "puzzles.play.games")
    )


def test_every_group_says_what_lives_there_and_what_it_may_import():
    for group in GROUPS:
        doc = ast.get_docstring(ast.parse((APP / group / "__init__.py").read_text()))
        assert doc and "May import" in doc, group


def test_the_engine_imports_nothing_of_the_site():
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            for name in names:
                assert name.split(".")[0] not in ("django", "puzzles", "sudokusite"), path


IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+["'](\.[^"']+)["']""", re.M)


def script_circles(folder: Path) -> list[list[str]]:
    """Circles of imports among the ES modules of a folder (and below)."""
    graph = {}
    for path in folder.rglob("*.js"):
        graph[path] = {(path.parent / spec).resolve() for spec in IMPORT.findall(path.read_text())}
    circles, done = [], set()

    def visit(node: Path, trail: list[Path]) -> None:
        if node in trail:
            circles.append([p.name for p in trail[trail.index(node) :]])
            return
        if node in done:
            return
        for nxt in graph.get(node, ()):
            visit(nxt, [*trail, node])
        done.add(node)

    for node in graph:
        visit(node, [])
    return circles


def test_the_pages_scripts_import_each_other_in_no_circle(tmp_path):
    assert script_circles(ROOT / "static" / "js") == []
    # ... and the check sees one when there is one.
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\n')
    (tmp_path / "b.js").write_text('import { a } from "./a.js";\n')
    assert script_circles(tmp_path)


def test_no_virtualenv_is_tracked():
    # A link to a shared virtualenv, once committed, replaces the folder it points to in
    # every checkout that merges it: the environment is gone for everyone using it.
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(
        ["git", "ls-files", "--", ".venv", "venv"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert tracked == ""


def test_no_module_of_the_app_is_a_warehouse():
    """No module over 500 lines and no function over 60 in puzzles/ (the data model and
    migrations aside): a room that grows past that holds more than one concern."""
    big = []
    for path in app_modules():
        if path.name == "models.py":
            continue
        source = path.read_text()
        if len(source.splitlines()) > 500:
            big.append(f"{path.relative_to(ROOT)}: {len(source.splitlines())} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > 60:
                    big.append(f"{path.relative_to(ROOT)}: {node.name}, {length} lines")
    assert big == []


def test_the_apps_top_holds_few_modules():
    """The app's top level wires the groups into Django; what serves a concern lives in its
    group, and the site's own plumbing in site/."""
    top = sorted(p.name for p in APP.glob("*.py") if p.name != "__init__.py")
    assert len(top) <= 8, top
