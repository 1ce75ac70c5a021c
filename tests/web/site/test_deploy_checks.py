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
