"""The project's own `manage.py check --deploy` warnings, beside Django's."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Warning, register

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
