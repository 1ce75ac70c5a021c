from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class PuzzlesConfig(AppConfig):
    default = True
    name = "puzzles"
    verbose_name = "Sudoku"

    def ready(self) -> None:
        from . import players  # noqa: F401 - connects the guest-adoption signal


class SudokuAdminConfig(admin_apps.AdminConfig):
    """Django's admin with our site class, which adds the pool page."""

    default = False
    default_site = "puzzles.admin_site.SudokuAdminSite"
