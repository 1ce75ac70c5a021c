"""The admin site: Django's, plus the pool page. Kept apart from the ModelAdmin
registrations in admin.py, which need the site to exist before they run."""

from __future__ import annotations

from django.contrib import admin
from django.urls import path

from .pools import admin_views as pool_admin


class SudokuAdminSite(admin.AdminSite):
    site_header = "Sudoku administration"
    site_title = "Sudoku admin"
    index_template = "admin/sudoku_index.html"

    def get_urls(self):
        urls = [
            path("pool/", self.admin_view(pool_admin.pool_page), name="pool"),
            path("pool/status.json", self.admin_view(pool_admin.pool_status), name="pool_status"),
        ]
        return urls + super().get_urls()
