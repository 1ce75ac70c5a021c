"""Rate limits on log-in, sign-up and password reset; production settings; staff-only admin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import get_resolver

from puzzles import ratelimit
from puzzles.models import SeedJob

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


def login(client: Client, username: str, password: str, ip: str = "10.0.0.1"):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_an_account_is_locked_after_repeated_failures_from_any_client(alice):
    for i in range(ratelimit.LOGIN_PER_ACCOUNT.count):
        assert login(Client(), "alice", "wrong", ip=f"10.0.1.{i}").status_code == 200
    response = login(Client(), "alice", "wonderland-42", ip="10.9.9.9")
    assert response.status_code == 429
    assert b"Too many attempts" in response.content
    assert "_auth_user_id" not in response.client.session
    assert (
        login(Client(), "bob-does-not-exist", "x", ip="10.9.9.9").status_code == 200
    )  # others fine


def test_a_client_is_slowed_down_after_many_failures_across_accounts(alice):
    for i in range(ratelimit.LOGIN_PER_CLIENT.count):
        login(Client(), f"user{i}", "wrong", ip="10.0.0.7")
    assert login(Client(), "alice", "wonderland-42", ip="10.0.0.7").status_code == 429
    assert login(Client(), "alice", "wonderland-42", ip="10.0.0.8").status_code == 302


def test_a_good_login_clears_the_account_counter(alice):
    for _ in range(ratelimit.LOGIN_PER_ACCOUNT.count - 1):
        login(Client(), "alice", "wrong")
    assert login(Client(), "alice", "wonderland-42").status_code == 302
    for _ in range(ratelimit.LOGIN_PER_ACCOUNT.count - 1):
        login(Client(), "alice", "wrong")
    assert login(Client(), "alice", "wonderland-42").status_code == 302


def test_sign_ups_are_limited_per_client():
    for i in range(ratelimit.SIGNUP_PER_CLIENT.count):
        Client().post(
            "/accounts/signup/",
            {"username": f"u{i}", "password1": "x", "password2": "y"},
            REMOTE_ADDR="10.1.1.1",
        )
    good = {
        "username": "late",
        "password1": "a-long-pass-phrase",
        "password2": "a-long-pass-phrase",
    }
    assert Client().post("/accounts/signup/", good, REMOTE_ADDR="10.1.1.1").status_code == 429
    assert Client().post("/accounts/signup/", good, REMOTE_ADDR="10.1.1.2").status_code == 302


def test_password_reset_mails_are_limited_per_address(alice, mailoutbox):
    for _ in range(ratelimit.RESET_PER_ACCOUNT.count + 2):
        Client().post(
            "/accounts/password_reset/", {"email": "alice@example.com"}, REMOTE_ADDR="10.2.2.2"
        )
    assert len(mailoutbox) == ratelimit.RESET_PER_ACCOUNT.count


def test_forwarded_addresses_count_only_behind_trusted_proxies(settings, alice):
    settings.TRUSTED_PROXIES = 1
    for i in range(ratelimit.LOGIN_PER_CLIENT.count):
        Client().post(
            "/accounts/login/",
            {"username": f"x{i}", "password": "no"},
            REMOTE_ADDR="10.3.3.3",
            HTTP_X_FORWARDED_FOR="1.2.3.4",
        )
    other = Client().post(
        "/accounts/login/",
        {"username": "alice", "password": "wonderland-42"},
        REMOTE_ADDR="10.3.3.3",
        HTTP_X_FORWARDED_FOR="5.6.7.8",
    )
    assert other.status_code == 302  # the same proxy, another player behind it


def test_limits_fail_open_when_the_cache_is_down(alice):
    dead = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    with override_settings(CACHES=dead):
        for _ in range(ratelimit.LOGIN_PER_ACCOUNT.count + 1):
            assert login(Client(), "alice", "wrong").status_code == 200
        assert login(Client(), "alice", "wonderland-42").status_code == 302


def test_check_deploy_passes_under_production_settings():
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "k" * 20 + "-production-secret-with-enough-variety-0123456789",
        "DJANGO_ALLOWED_HOSTS": "sudoku.example.com",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_cookies_are_secure_and_https_is_enforced():
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "s" * 60,
        "DJANGO_ALLOWED_HOSTS": "x",
    }
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='sudokusite.settings';"
        "django.setup();"
        "from django.conf import settings as s;"
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT,"
        " s.SECURE_HSTS_SECONDS > 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.stdout.split() == ["True", "True", "True", "True"], result.stderr


def _admin_urls() -> list[str]:
    """Every admin URL pattern, with 1 for each argument."""
    import re

    urls = []
    for pattern in get_resolver().url_patterns:
        if str(pattern.pattern) != "admin/":
            continue
        for sub in pattern.url_patterns:
            route = str(sub.pattern)
            if hasattr(sub, "url_patterns"):
                urls += ["/admin/" + route + str(s.pattern) for s in sub.url_patterns]
            else:
                urls.append("/admin/" + route)
    clean = []
    for url in urls:
        url = re.sub(r"<[^>]+>", "1", url).replace("^", "").replace("$", "").replace("\\Z", "")
        url = re.sub(r"\(\?P<[^>]+>[^)]*\)", "1", url)
        clean.append(url)
    return sorted(set(clean))


def test_a_regular_player_reaches_no_admin_url_and_no_seed_job(client, alice):
    client.force_login(alice)
    urls = _admin_urls()
    assert "/admin/pool/" in urls and len(urls) > 20
    for url in urls:
        if "logout" in url or "login" in url:
            continue
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            assert response.status_code in (302, 404), (method, url, response.status_code)
            if response.status_code == 302:
                assert "/admin/login/" in response["Location"], url
    assert SeedJob.objects.count() == 0
