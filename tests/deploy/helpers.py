"""What the deploy tests run the shipped files with: promtool, and the shipped nginx site
(deploy/nginx-sudoku.conf) inside an nginx.conf of its own, with a certificate made for
the test, its logs and temporary files kept in the test's folder."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from sudokusite.processes import ROOT

DEPLOY = ROOT / "deploy"
NAME = "sudoku.example.com"  # the site's name, as the shipped files have it
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def promtool(*args: str, cwd: Path = DEPLOY / "prometheus") -> subprocess.CompletedProcess:
    """Debian's promtool, run in cwd."""
    return subprocess.run(
        ["promtool", *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def certificate(folder: Path, name: str = NAME) -> tuple[Path, Path]:
    """A certificate for name, made for the test, and its key."""
    chain, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name}"),
            *("-keyout", str(key), "-out", str(chain)),
        ],
        capture_output=True,
        check=True,
        timeout=60,
    )
    return chain, key


def on_ports(site: str, http: int, https: int, upstream: int) -> str:
    """The site listening on this machine's loopback at http and https (no IPv6: not on
    every machine), in front of the gunicorn at upstream."""
    site = re.sub(r"\n\s*listen \[::\]:\d+[^;]*;", "", site)
    site = site.replace("listen 80;", f"listen 127.0.0.1:{http};")
    site = re.sub(r"listen 443 ssl", f"listen 127.0.0.1:{https} ssl", site)
    return site.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};")


def nginx_site(folder: Path, site: str | None = None) -> Path:
    """The site (the shipped one unless given) inside an nginx.conf of its own in folder,
    its certificate paths pointed at a certificate made for NAME (folder/fullchain.pem)
    and its logs kept in folder; the nginx.conf's path. Run it with `nginx -p folder -c`."""
    chain, key = certificate(folder)
    site = (DEPLOY / "nginx-sudoku.conf").read_text() if site is None else site
    site = re.sub(r"/etc/letsencrypt/live/[^;]*/fullchain\.pem", str(chain), site)
    site = re.sub(r"/etc/letsencrypt/live/[^;]*/privkey\.pem", str(key), site)
    site = site.replace("/var/log/nginx/", f"{folder}/")
    (folder / "sudoku.conf").write_text(site)
    temp = folder / "temp"
    temp.mkdir(mode=0o777, exist_ok=True)
    (folder / "nginx.conf").write_text(
        f"pid {folder}/nginx.pid;\nerror_log stderr;\nevents {{}}\n"
        f"http {{\n    include /etc/nginx/mime.types;\n    access_log {folder}/access.log;\n"
        + "".join(f"    {kind}_temp_path {temp}/{kind};\n" for kind in TEMP_PATHS)
        + f"    include {folder}/sudoku.conf;\n}}\n"
    )
    return folder / "nginx.conf"
