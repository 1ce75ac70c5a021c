from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class PuzzlesConfig(AppConfig):
    default = True
    name = "puzzles"
    verbose_name = "Sudoku"

    def ready(self) -> None:
        # Connect the signals: guest adoption at log-in, clocks stopped at log-out; and
        # register the deploy checks. The engine speaks the request's language
        # (engine/i18n.py), with no Django in it.
        from django.utils import translation

        import engine

        from .accounts import players  # noqa: F401
        from .play import clock  # noqa: F401
        from .site import checks  # noqa: F401

        engine.use_language_of(translation.get_language)


class SudokuAdminConfig(admin_apps.AdminConfig):
    """Django's admin with our site class, which adds the pool page."""

    default = False
    default_site = "puzzles.admin_site.SudokuAdminSite"
