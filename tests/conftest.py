"""Fixtures shared by the web and task tests: named players and fast password hashing."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    if "django_db_setup" in request.fixturenames or request.node.get_closest_marker("django_db"):
        settings = request.getfixturevalue("settings")
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_newcomer_page_kept():
    """Each test renders the newcomer's home page afresh (puzzles/play/newcomers.py keeps
    it for 30 s in the process), and starts with no request's wait for a thread heard of
    (puzzles/site/shedding.py's STRAIN) and the machine's cores not read: the suite's own
    processes keep them busy, and a test of the strain gives it the cores it means."""
    from puzzles.play import newcomers
    from puzzles.site import shedding

    newcomers.forget()
    shedding.STRAIN.forget()
    shedding.STRAIN.cpu = lambda: None
    yield
    newcomers.forget()
    shedding.STRAIN.forget()
    shedding.STRAIN.cpu = shedding.machine_cpu


@pytest.fixture(autouse=True)
def _language_of_the_last_request_forgotten():
    """Each test starts in the default language: a request's LocaleMiddleware leaves its
    language active in the thread, and the engine speaks the site's language, so an engine
    test run after a German or Arabic page in the same process would speak German or
    Arabic."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", "alice@example.com", "wonderland-42")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", "bob@example.com", "builder-of-things-7")


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("root", "root@example.com", "root-password-1")
