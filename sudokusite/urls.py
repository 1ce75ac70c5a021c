"""URLs: the site's pages and API, accounts, the admin and /healthz."""

from django.contrib import admin
from django.urls import include, path

from puzzles import views

urlpatterns = [
    path("", include("puzzles.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("healthz", views.healthz, name="healthz"),
    path("robots.txt", views.robots_txt, name="robots_txt"),
]
