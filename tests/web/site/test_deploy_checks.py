"""`manage.py check --deploy`: the project's own warnings beside Django's."""

from __future__ import annotations

import pytest
from django.core import checks


def deploy_warnings() -> list[str]:
    return [m.id for m in checks.run_checks(include_deployment_checks=True) if m.id]


@pytest.mark.parametrize(
    "backend",
    [
        "django.core.mail.backends.console.EmailBackend",
        "django.core.mail.backends.locmem.EmailBackend",
        "django.core.mail.backends.dummy.EmailBackend",
        "django.core.mail.backends.filebased.EmailBackend",
    ],
)
def test_check_deploy_warns_when_mail_never_reaches_players(settings, backend):
    settings.EMAIL_BACKEND = backend
    assert "puzzles.W001" in deploy_warnings()
    (warning,) = [
        m for m in checks.run_checks(include_deployment_checks=True) if m.id == "puzzles.W001"
    ]
    assert "password-reset" in warning.msg and "EMAIL_BACKEND" in warning.hint


def test_check_deploy_is_quiet_about_mail_sent_by_smtp(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    assert "puzzles.W001" not in deploy_warnings()


def test_the_mail_check_is_a_deploy_check_only(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    assert "puzzles.W001" not in [m.id for m in checks.run_checks()]


def placeholder_errors() -> dict[str, str]:
    """The placeholder errors of `check --deploy`, by the variable each names."""
    found = checks.run_checks(include_deployment_checks=True)
    return {m.msg.split()[0]: m.hint for m in found if m.id == "puzzles.E001"}


@pytest.fixture
def real_secrets(settings, monkeypatch):
    """Settings as an operator leaves them: every secret a real one."""
    settings.SECRET_KEY = "q1Zr8mC0bX4vN7pL2sT9wK5yH3jD6fG8aE1uR0oI4zM7xV2cB5nQ9"
    settings.METRICS_TOKEN = "Yk3pR8wT1zQ5mN0vB7cX4lJ9hG2fD6sA"
    settings.EMAIL_HOST_PASSWORD = "a-password"
    monkeypatch.setitem(settings.DATABASES["default"], "PASSWORD", "a-password")
    return settings


def test_check_deploy_is_quiet_about_real_secrets(real_secrets):
    assert placeholder_errors() == {}


@pytest.mark.parametrize(
    ("setting", "value", "variable"),
    [
        ("SECRET_KEY", "CHANGE-ME-to-50-random-characters", "DJANGO_SECRET_KEY"),
        (
            "SECRET_KEY",
            "dev-only-secret-key-set-DJANGO_SECRET_KEY-in-production",
            "DJANGO_SECRET_KEY",
        ),
        ("SECRET_KEY", "", "DJANGO_SECRET_KEY"),
        ("METRICS_TOKEN", "CHANGE-ME-to-a-long-random-token", "METRICS_TOKEN"),
        ("METRICS_TOKEN", "change-me", "METRICS_TOKEN"),
        ("EMAIL_HOST_PASSWORD", "CHANGE-ME", "EMAIL_HOST_PASSWORD"),
    ],
)
def test_check_deploy_refuses_a_placeholder_secret(real_secrets, setting, value, variable):
    setattr(real_secrets, setting, value)
    errors = placeholder_errors()
    assert list(errors) == [variable]
    assert "/etc/sudoku/sudoku.env" in errors[variable]


def test_check_deploy_refuses_the_placeholder_database_password(real_secrets, monkeypatch):
    monkeypatch.setitem(real_secrets.DATABASES["default"], "PASSWORD", "CHANGE-ME")
    assert list(placeholder_errors()) == ["DATABASE_URL"]


def test_the_placeholder_check_is_an_error_of_check_deploy_only(real_secrets):
    real_secrets.METRICS_TOKEN = "CHANGE-ME"
    (error,) = [
        m for m in checks.run_checks(include_deployment_checks=True) if m.id == "puzzles.E001"
    ]
    assert error.level == checks.ERROR
    assert "puzzles.E001" not in [m.id for m in checks.run_checks()]
