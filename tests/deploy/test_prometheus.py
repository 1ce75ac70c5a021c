"""deploy/prometheus/: the scrape config passes `promtool check config`, the alert rules pass
`promtool check rules` and their own tests (`promtool test rules`), every alert is tested
firing and not firing, and a real Prometheus running the shipped config against the shipped
nginx site and a real gunicorn scrapes the site by address with the token and finds every
series the rules read. (`make test` installs Debian's prometheus, which has promtool.)"""

from __future__ import annotations

import json
import re
import shutil
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from sudokusite.processes import ROOT, free_port, wait_for_port

from ..harness import Child, Gunicorn, production_env, wait_until
from ..tasks.helpers import broker_url, database_url, set_targets
from .helpers import DEPLOY, NAME, nginx_site, on_ports, promtool

PROMETHEUS = DEPLOY / "prometheus"
TOKEN = "prometheus-scrape-" + "p" * 30


def installed(folder: Path) -> Path:
    """The config and rules as an operator installs them, with /etc/prometheus/ made of
    folder and the token's file written; the config's path."""
    for name in ("prometheus.yml", "rules.yml"):
        text = (PROMETHEUS / name).read_text().replace("/etc/prometheus/", f"{folder}/")
        (folder / name).write_text(text)
    token = folder / "sudoku-metrics-token"
    token.write_text(TOKEN + "\n")
    token.chmod(0o600)
    return folder / "prometheus.yml"


def test_the_scrape_config_passes_promtool_check_config(tmp_path):
    result = promtool("check", "config", str(installed(tmp_path)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout and "rules.yml" in result.stdout


def test_promtool_check_config_catches_a_mistake(tmp_path):
    config = installed(tmp_path)
    config.write_text(config.read_text().replace("credentials_file:", "credential_file:"))
    result = promtool("check", "config", str(config))
    assert result.returncode != 0 and "credential_file" in result.stdout + result.stderr


def test_the_rules_pass_promtool_check_rules():
    result = promtool("check", "rules", "rules.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SUCCESS: {len(alerts())} rules found" in result.stdout


def test_the_rules_pass_their_tests():
    result = promtool("test", "rules", "rules_test.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout


def test_the_rules_tests_catch_a_page_that_comes_too_late(tmp_path):
    # A worker's death must page within 2 minutes: a rule that waits longer fails its test.
    shutil.copy(PROMETHEUS / "rules_test.yml", tmp_path)
    rules = (PROMETHEUS / "rules.yml").read_text()
    gone = rules.index("alert: SudokuWorkerGone")
    late = rules[:gone] + rules[gone:].replace("for: 30s", "for: 2m", 1)
    (tmp_path / "rules.yml").write_text(late)
    result = promtool("test", "rules", "rules_test.yml", cwd=tmp_path)
    assert result.returncode != 0
    assert "alertname: SudokuWorkerGone" in result.stdout + result.stderr


def alerts() -> list[str]:
    return re.findall(r"- alert: (\w+)", (PROMETHEUS / "rules.yml").read_text())


def test_each_alert_is_tested_firing_and_not_firing():
    tests = (PROMETHEUS / "rules_test.yml").read_text()
    checks = re.findall(r"alertname: (\w+)\n\s+exp_alerts:( \[\])?", tests)
    silent = {name for name, empty in checks if empty}
    firing = {name for name, empty in checks if not empty}
    assert set(alerts()) == silent == firing
    for name in ["SudokuWorkerGone", "SudokuNoWorkerAlive", "SudokuBrokerDown"]:
        assert name in alerts()


def series_the_rules_read() -> set[str]:
    """The site's series named in the rules' expressions (up is Prometheus's own)."""
    rules = (PROMETHEUS / "rules.yml").read_text()
    expressions = re.findall(r"expr: (\|\n(?:\s{10}.*\n)+|.*)", rules)
    return {name for expr in expressions for name in re.findall(r"\bsudoku_\w+", expr)}


def prometheus_config(folder: Path, https: int, certificate: Path) -> Path:
    """The shipped config as installed, its target this machine's nginx by address, and
    the test's certificate trusted (a real one is trusted by the system's authorities)."""
    config = installed(folder)
    text = re.sub(r"targets: \[.*\]", f'targets: ["127.0.0.1:{https}"]', config.read_text())
    text = text.replace(
        f"      server_name: {NAME}\n", f"      server_name: {NAME}\n      ca_file: {certificate}\n"
    )
    config.write_text(text)
    return config


def query(port: int, path: str, **params: str) -> dict:
    url = f"http://127.0.0.1:{port}/api/v1/{path}?{urllib.parse.urlencode(params)}"
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)["data"]


@pytest.mark.django_db(transaction=True)
def test_prometheus_scrapes_the_site_by_address_as_shipped_and_finds_what_the_rules_read(
    tmp_path,
):
    set_targets(easy=(5, 10, 1))  # a pool with a target
    env = production_env(database_url(), broker_url()) | {
        "DJANGO_HTTPS": "1",
        "DJANGO_BEHIND_PROXY": "1",
        "DJANGO_ALLOWED_HOSTS": NAME,  # the site's name only: Prometheus asks by address
        "METRICS_TOKEN": TOKEN,
    }
    http, https, api = free_port(), free_port(), free_port()
    started = [site := Gunicorn(env, workers=1, threads=2)]
    try:
        shipped = (DEPLOY / "nginx-sudoku.conf").read_text()
        conf = nginx_site(tmp_path, on_ports(shipped, http, https, site.port))
        certificate = tmp_path / "fullchain.pem"
        nginx = ["nginx", "-p", str(tmp_path), "-c", str(conf)]
        started.append(Child([*nginx, "-g", "daemon off;"], env, tmp_path / "nginx.out"))
        wait_for_port(https, 30)
        config = prometheus_config(tmp_path, https, certificate)
        command = ["prometheus", f"--config.file={config}", f"--web.listen-address=127.0.0.1:{api}"]
        command += [f"--storage.tsdb.path={tmp_path / 'data'}"]
        started.append(Child(command, env, tmp_path / "prometheus.log"))
        wait_for_port(api, 60)
        wait_until(lambda: ready(api), 60, "Prometheus ready")

        def scraped() -> bool:
            found = query(api, "query", query='up{job="sudoku"}')["result"]
            return bool(found) and found[0]["value"][1] == "1"

        # The first scrape comes within one scrape interval (15 s) of the start.
        wait_until(scraped, 120, "a successful scrape")
        (up,) = query(api, "query", query='up{job="sudoku"}')["result"]
        assert up["metric"]["instance"] == f"127.0.0.1:{https}"
        for name in sorted(series_the_rules_read()):
            assert query(api, "query", query=name)["result"], f"no {name} in the scrape"
        (info,) = query(api, "query", query="sudoku_build_info")["result"]
        assert info["metric"]["version"] and info["metric"]["commit"]
        groups = query(api, "rules")["groups"]
        rules = [rule for group in groups for rule in group["rules"]]
        assert sorted(rule["name"] for rule in rules) == sorted(alerts())
        # Each rule evaluated at least once, none in error.
        wait_until(lambda: all(r["lastEvaluation"] > "2000" for r in rules_now(api)), 60)
        assert {rule["health"] for rule in rules_now(api)} == {"ok"}
    finally:
        for process in reversed(started):
            process.stop()


def ready(port: int) -> bool:
    """Whether Prometheus has opened its storage and answers queries (503 until then)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/-/ready", timeout=10) as answer:
            return answer.status == 200
    except urllib.error.HTTPError:
        return False


def rules_now(port: int) -> list[dict]:
    return [rule for group in query(port, "rules")["groups"] for rule in group["rules"]]


def test_the_docs_show_the_shipped_config_and_rules():
    page = (ROOT / "docs" / "monitoring.md").read_text()
    assert "deploy/prometheus/prometheus.yml" in page
    assert (PROMETHEUS / "prometheus.yml").read_text() in page
    for name in alerts():
        assert f"`{name}`" in page, name
