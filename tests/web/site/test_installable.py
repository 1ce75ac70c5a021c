"""What lets the site be added to a home screen and played offline: the service worker
from the site's root, the web app manifest and its icons, and the offline page."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_and_always_checked_again(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    assert b'addEventListener("fetch"' in response.content
    assert client.post("/sw.js").status_code == 405


def test_the_manifest_names_the_site_and_icons_that_exist(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        path = icon["src"].split("/static/", 1)[1]
        assert finders.find(path), icon["src"]


def test_every_page_links_the_manifest_and_loads_the_offline_script(client):
    page = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert "js/dist/pwa.js" in page


def test_the_offline_page_says_so_and_has_a_place_for_the_games_kept(client):
    response = client.get("/offline/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "You are offline" in page and "data-kept-games" in page


def test_the_manifest_s_splash_follows_the_system_s_theme_and_the_player_s(client):
    def splash(**headers) -> str:
        response = client.get("/manifest.webmanifest", **headers)
        assert "Sec-CH-Prefers-Color-Scheme" in response["Vary"]
        return response.json()["background_color"]

    assert splash() == "#ffffff"
    assert splash(HTTP_SEC_CH_PREFERS_COLOR_SCHEME="dark") == "#0f1320"
    client.post("/settings/", {"theme": "dark", "show_timer": "on"})
    assert splash() == "#0f1320"
    client.post("/settings/", {"theme": "light", "show_timer": "on"})
    assert splash(HTTP_SEC_CH_PREFERS_COLOR_SCHEME='"dark"') == "#ffffff"
