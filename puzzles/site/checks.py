"""The project's own `manage.py check --deploy` errors and warnings, beside Django's."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Warning, register
from django.core.exceptions import ImproperlyConfigured

# Backends that keep mail on the machine: fine on a laptop, silent loss in production.
LOCAL_MAIL = {
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
    "django.core.mail.backends.dummy.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
}


@register("mail", deploy=True)
def mail_leaves_the_machine(app_configs, **kwargs) -> list[Warning]:
    """Password-reset mail that never reaches a player locks them out without a word."""
    if settings.EMAIL_BACKEND not in LOCAL_MAIL:
        return []
    return [
        Warning(
            f"Mail goes to {settings.EMAIL_BACKEND.rsplit('.', 2)[-2]}: password-reset "
            "mail never reaches players.",
            hint=(
                "Set EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and EMAIL_HOST, "
                "EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS and "
                "DEFAULT_FROM_EMAIL (docs/operations.md)."
            ),
            id="puzzles.W001",
        )
    ]


# What deploy/sudoku.env.example and the development settings put where a secret goes.
PLACEHOLDERS = ("change-me", "dev-only-secret")
SETTINGS_FILE = "/etc/sudoku/sudoku.env"
NEW_SECRET = "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
WHAT_TO_SET = {
    "DJANGO_SECRET_KEY": f"a secret key of its own: the output of {NEW_SECRET}",
    "METRICS_TOKEN": f"a token of its own (the output of {NEW_SECRET}), and the same in "
    "Prometheus's scrape config",
    "EMAIL_HOST_PASSWORD": "the mail account's password",
    "DATABASE_URL": "the URL with the password given to `createuser --pwprompt sudoku`",
}


def _is_placeholder(value: str) -> bool:
    return any(mark in value.lower() for mark in PLACEHOLDERS)


def _placeholders() -> list[str]:
    """The variables of the settings file whose secret is still a placeholder."""
    try:
        secret_key = settings.SECRET_KEY
    except ImproperlyConfigured:  # an empty one
        secret_key = ""
    passwords = [db.get("PASSWORD") or "" for db in settings.DATABASES.values()]
    found = {
        "DJANGO_SECRET_KEY": not secret_key or _is_placeholder(secret_key),
        "METRICS_TOKEN": _is_placeholder(settings.METRICS_TOKEN),  # unset: no /metrics
        "EMAIL_HOST_PASSWORD": _is_placeholder(settings.EMAIL_HOST_PASSWORD),
        "DATABASE_URL": any(_is_placeholder(password) for password in passwords),
    }
    return [variable for variable, placeholder in found.items() if placeholder]


@register("security", deploy=True)
def secrets_are_real(app_configs, **kwargs) -> list[Error]:
    """A secret left as the settings file's placeholder is known to anyone who has read the
    file: sessions could be forged, the metrics read, the mail account or the database
    opened."""
    return [
        Error(
            f"{variable} is still a placeholder, not a secret: anyone who has read "
            "deploy/sudoku.env.example or the settings knows it.",
            hint=f"Set {variable} in {SETTINGS_FILE} to {WHAT_TO_SET[variable]}.",
            id="puzzles.E001",
        )
        for variable in _placeholders()
    ]
