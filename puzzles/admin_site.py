"""The admin site: Django's, plus the pool page, and a log-in that is the site's own (the
same counters and limits as /accounts/login/). Kept apart from the ModelAdmin
registrations in admin.py, which need the site to exist before they run."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from .accounts.views import LoginView
from .pools import admin_views as pool_admin


class SudokuAdminSite(admin.AdminSite):
    site_header = gettext_lazy("Sudoku administration")
    site_title = gettext_lazy("Sudoku admin")
    index_template = "admin/sudoku_index.html"
    login_template = "admin/sudoku_login.html"

    def get_urls(self):
        urls = [
            path("pool/", self.admin_view(pool_admin.pool_page), name="pool"),
            path("pool/status.json", self.admin_view(pool_admin.pool_status), name="pool_status"),
        ]
        return urls + super().get_urls()

    @method_decorator(never_cache)
    @login_not_required
    def login(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        """Django's admin log-in page, through the site's LoginView: staff accounts are
        counted and limited exactly as every other, and their devices become known."""
        if request.method == "GET" and self.has_permission(request):
            return HttpResponseRedirect(reverse("admin:index", current_app=self.name))
        from django.contrib.admin.forms import AdminAuthenticationForm

        context = {
            **self.each_context(request),
            "title": _("Log in"),
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": request.user.get_username(),
        }
        if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
            context[REDIRECT_FIELD_NAME] = reverse("admin:index", current_app=self.name)
        context.update(extra_context or {})
        request.current_app = self.name
        return LoginView.as_view(
            extra_context=context,
            authentication_form=self.login_form or AdminAuthenticationForm,
            template_name=self.login_template,
        )(request)
