"""URLs: the site's pages and API, accounts, the admin, the health checks and the metrics."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path

from puzzles.accounts import views as accounts
from puzzles.site import languages, metrics
from puzzles.site import views as site_views
from puzzles.site.sitemaps import SITEMAPS

# The pages, in every language: English without a prefix, the others under /<code>/
# (puzzles/site/languages.py). The API answers under both, in its request's language.
urlpatterns = [
    *i18n_patterns(
        path("", include("puzzles.urls")),
        # Rate-limited versions of Django's log-in, password reset and password change, and its
        # new-password form that lets the owner's device past a lock; the rest as Django has them.
        path("accounts/login/", accounts.LoginView.as_view(), name="login"),
        path(
            "accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"
        ),
        path(
            "accounts/password_change/",
            accounts.PasswordChangeView.as_view(),
            name="password_change",
        ),
        path(
            "accounts/reset/<uidb64>/<token>/",
            accounts.PasswordResetConfirmView.as_view(),
            name="password_reset_confirm",
        ),
        path("accounts/", include("django.contrib.auth.urls")),
        prefix_default_language=False,
    ),
    path("i18n/setlang/", languages.choose_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("healthz", metrics.healthz, name="healthz"),
    path("healthz/workers", metrics.healthz_workers, name="healthz_workers"),
    path("metrics", metrics.metrics, name="metrics"),
    path("robots.txt", site_views.robots_txt, name="robots_txt"),
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("favicon.ico", site_views.favicon, name="favicon"),
    path("sw.js", site_views.service_worker, name="service_worker"),
    path("manifest.webmanifest", site_views.manifest, name="manifest"),
    path("offline/", site_views.offline, name="offline"),
]

handler500 = "puzzles.site.views.server_error"
