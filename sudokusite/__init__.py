"""The Django project: settings, URLs, the Celery app, the process launcher and the
plumbing it shares with the tests' harness."""

from .celery import app as celery_app

__all__ = ["celery_app"]
