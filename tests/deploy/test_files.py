"""deploy/: the systemd units pass `systemd-analyze verify`, the nginx site passes
`nginx -t`, and the units run the commands docs/operations.md gives. (`make test` installs
Debian's systemd, nginx and openssl when they are missing.)"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from sudokusite.processes import ROOT

from .helpers import DEPLOY, nginx_site

UNITS = sorted(DEPLOY.glob("*.service"))
PREFIX = "/srv/sudoku"  # where the units expect the release (current/) and its virtualenv


def release_folder(folder: Path) -> Path:
    """A release as docs/upgrades.md lays it out, made of this checkout (each of its files
    linked) and the virtualenv running the tests as its venv/."""
    folder.mkdir(parents=True)
    for entry in ROOT.iterdir():
        if entry.name not in (".venv", "venv"):
            (folder / entry.name).symlink_to(entry)
    (folder / "venv").symlink_to(Path(sys.prefix))
    return folder


def installed_units(folder: Path, units: list[Path] = UNITS) -> list[Path]:
    """The units as an operator installs them, with PREFIX made of this checkout and the
    virtualenv running the tests (systemd-analyze checks that the programs exist)."""
    prefix = folder / "srv-sudoku"
    release_folder(prefix / "releases" / "this")
    (prefix / "current").symlink_to("releases/this")
    copies = []
    for unit in units:
        copy = folder / unit.name
        copy.write_text(unit.read_text().replace(PREFIX, str(prefix)))
        copies.append(copy)
    return copies


def verify(unit: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["systemd-analyze", "verify", unit.name],
        cwd=unit.parent,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_there_are_units_for_web_worker_beat_and_backup():
    assert [u.name for u in UNITS] == [
        "sudoku-backup.service",
        "sudoku-beat.service",
        "sudoku-web.service",
        "sudoku-worker.service",
    ]


@pytest.mark.parametrize("unit", UNITS, ids=[u.name for u in UNITS])
def test_each_unit_passes_systemd_analyze_verify(tmp_path, unit):
    (copy,) = installed_units(tmp_path, [unit])
    result = verify(copy)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_the_backup_timer_passes_systemd_analyze_verify_beside_its_service(tmp_path):
    timer, service = DEPLOY / "sudoku-backup.timer", DEPLOY / "sudoku-backup.service"
    copies = installed_units(tmp_path, [timer, service])
    result = verify(copies[0])
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_systemd_analyze_verify_catches_a_mistake_in_a_unit(tmp_path):
    (copy,) = installed_units(tmp_path, [DEPLOY / "sudoku-web.service"])
    copy.write_text(copy.read_text().replace("Restart=", "Restrat="))
    result = verify(copy)
    assert "Unknown key 'Restrat'" in result.stdout + result.stderr


def nginx_test(folder: Path, site: str) -> subprocess.CompletedProcess:
    """`nginx -t` on the site inside an nginx.conf of its own (nginx_site)."""
    conf = nginx_site(folder, site)
    return subprocess.run(
        ["nginx", "-t", "-e", "stderr", "-p", str(folder), "-c", str(conf)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_nginx_site_passes_nginx_t(tmp_path):
    result = nginx_test(tmp_path, (DEPLOY / "nginx-sudoku.conf").read_text())
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr
    assert "[warn]" not in result.stderr and "[emerg]" not in result.stderr


def test_nginx_t_catches_a_mistake_in_the_site(tmp_path):
    site = (
        (DEPLOY / "nginx-sudoku.conf")
        .read_text()
        .replace("proxy_pass http://sudoku_web;", "proxy_pass http://sudoku_web", 1)
    )
    result = nginx_test(tmp_path, site)
    assert result.returncode != 0 and "[emerg]" in result.stderr


def test_nginx_logs_each_request_as_json_with_the_id_it_gives_the_site():
    site = (DEPLOY / "nginx-sudoku.conf").read_text()
    (log_format,) = re.findall(r"log_format\s+(\w+)\s+escape=json\s+([^;]*);", site)
    name, fields = log_format[0], "".join(re.findall(r"'([^']*)'", log_format[1]))
    line = json.loads(re.sub(r"\$\w+", "0", fields))  # the shape of a line, values aside
    assert {"time", "request_id", "remote_addr", "method", "uri", "status"} <= set(line)
    assert '"request_id":"$request_id"' in fields
    servers = site.split("server {")[1:]
    assert len(servers) == 2
    for server in servers:
        assert re.search(rf"access_log\s+/var/log/nginx/\S+\s+{name};", server)
        assert "proxy_set_header X-Request-ID $request_id;" in server


def exec_start(unit: Path) -> str:
    """The unit's command line as systemd runs it (%% is a plain %), its program named as
    the virtualenv's bin/ has it (run by the virtualenv's python, or not)."""
    lines = unit.read_text().splitlines()
    (command,) = [line for line in lines if line.startswith("ExecStart=")]
    command = command.removeprefix("ExecStart=").replace("%%", "%")
    command = command.replace(f"{PREFIX}/current/venv/bin/python ", "")
    return command.replace(f"{PREFIX}/current/venv/bin/", "")


@pytest.mark.parametrize("unit", UNITS, ids=[u.name for u in UNITS])
def test_each_unit_runs_the_command_the_docs_give(unit):
    docs = "".join((ROOT / "docs" / page).read_text() for page in ("operations.md", "backups.md"))
    command = shlex.join(shlex.split(exec_start(unit)))
    assert command in docs


def test_gunicorn_keeps_a_connection_longer_than_nginx_and_a_players_pause():
    # nginx keeps its idle upstream connections 60 s unless the site says otherwise; gunicorn
    # closing one first would fail the request nginx sends on it at that moment. A player
    # acts every 5 s on average: a connection that lives a minute is reused by almost all.
    import sudokusite.gunicorn as config

    site = (DEPLOY / "nginx-sudoku.conf").read_text()
    upstream = re.search(r"keepalive_timeout\s+(\d+)s?;", site)
    assert config.keepalive > (int(upstream.group(1)) if upstream else 60)
    assert config.keepalive >= 60
