"""The admin's pool targets and what every admin page carries: one target per difficulty,
edited in words an admin understands, and the site's icon."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders

from puzzles.models import PoolTarget
from puzzles.pools import stock as pool

pytestmark = pytest.mark.django_db


def _change_form(target: PoolTarget, **values: int) -> dict:
    fields = {"difficulty": target.difficulty, "low": target.low, "high": target.high}
    return {**fields, "batch_size": target.batch_size, **values}


def test_a_low_mark_above_the_high_mark_is_refused_in_words(client, staff):
    client.force_login(staff)
    target = pool.targets()["hard"]
    url = f"/admin/puzzles/pooltarget/{target.pk}/change/"
    response = client.post(url, _change_form(target, low=60, high=50))
    assert response.status_code == 200
    html = response.content.decode()
    assert "The low mark cannot be above the high mark" in html
    assert "Constraint" not in html and "pooltarget_low_le_high" not in html
    target.refresh_from_db()
    assert (target.low, target.high) != (60, 50)


def test_the_target_list_refuses_a_low_mark_above_the_high_mark_in_words(client, staff):
    client.force_login(staff)
    targets = list(pool.targets().values())
    form = {
        "form-TOTAL_FORMS": str(len(targets)),
        "form-INITIAL_FORMS": str(len(targets)),
        "_save": "Save",
    }
    for i, target in enumerate(targets):
        low = 99 if target.difficulty == "easy" else target.low
        form |= {
            f"form-{i}-id": str(target.pk),
            f"form-{i}-low": str(low),
            f"form-{i}-high": str(target.high),
            f"form-{i}-batch_size": str(target.batch_size),
        }
    response = client.post("/admin/puzzles/pooltarget/", form)
    assert response.status_code == 200
    html = response.content.decode()
    assert "The low mark cannot be above the high mark" in html
    assert "Constraint" not in html
    assert pool.targets()["easy"].low != 99


def test_pool_targets_are_one_per_difficulty_with_no_add_or_delete(client, staff):
    client.force_login(staff)
    target = pool.targets()["easy"]
    listing = client.get("/admin/puzzles/pooltarget/").content.decode()
    assert "/admin/puzzles/pooltarget/add/" not in listing
    assert 'value="delete_selected"' not in listing
    assert client.get("/admin/puzzles/pooltarget/add/").status_code == 403
    delete = f"/admin/puzzles/pooltarget/{target.pk}/delete/"
    assert client.get(delete).status_code == 403
    assert client.post(delete, {"post": "yes"}).status_code == 403
    change = client.get(f"/admin/puzzles/pooltarget/{target.pk}/change/").content.decode()
    assert delete not in change
    assert PoolTarget.objects.filter(pk=target.pk).exists()


def test_the_favicon_is_found_on_the_site_and_on_admin_pages(client, staff):
    response = client.get("/favicon.ico")
    assert response.status_code == 301  # the file itself is served as every static file
    assert response["Location"] == "/static/img/favicon.svg"
    assert finders.find("img/favicon.svg")
    client.force_login(staff)
    for url in ("/admin/", "/admin/pool/", "/admin/puzzles/pooltarget/"):
        assert 'rel="icon"' in client.get(url).content.decode(), url
