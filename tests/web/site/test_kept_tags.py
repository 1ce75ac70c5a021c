"""The kept `{% url %}` and `{% translate %}` (puzzles/templatetags/kept_urls.py and
kept_i18n.py) render what Django's own tags render: every page of the site in every
language, read first with the kept tags (one language after another, so that what was
kept for one would show in the next if it were kept wrongly) and then with Django's."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.template import Context, Template
from django.test import Client, override_settings
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation

from . import test_translated_pages as translated

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _ in settings.LANGUAGES]
PAGES = [*translated.PAGES, "/analyse/"]
# What differs from one answer to the next whatever the tags: the CSRF token, the nonce.
CHANGING = re.compile(r'(csrfmiddlewaretoken" value="|name="csrf-token" content="|nonce=")[^"]*')


def djangos_own_tags() -> list[dict]:
    """The site's template settings with Django's own tags: no kept `{% url %}`, and
    Django's i18n library where the templates load kept_i18n."""
    templates = [dict(engine, OPTIONS=dict(engine["OPTIONS"])) for engine in settings.TEMPLATES]
    for engine in templates:
        engine["OPTIONS"].pop("builtins", None)
        engine["OPTIONS"]["libraries"] = {"kept_i18n": "django.templatetags.i18n"}
    return templates


def every_page(client: Client, game: str) -> dict[tuple[str, str], str]:
    read = {}
    for code in LANGUAGES:
        prefix = "" if code == settings.LANGUAGE_CODE else f"/{code}"
        for page in PAGES:
            response = client.get(prefix + (game if page == "game" else page))
            assert response.status_code == 200, (code, page, response.status_code)
            read[code, page] = CHANGING.sub(r"\1", response.content.decode())
    return read


def test_every_page_in_every_language_reads_as_with_djangos_own_tags(stocked):
    client = Client()
    start = timezone.make_aware(datetime.datetime(2026, 11, 28, 12, 0))
    with time_machine.travel(start, tick=False):
        game = client.post("/play/easy/")["Location"]
        kept = every_page(client, game)
        with override_settings(TEMPLATES=djangos_own_tags()):
            own = every_page(client, game)
    assert len(kept) == len(LANGUAGES) * len(PAGES)
    for where, page in own.items():
        assert kept[where] == page, f"{where} differs with the kept tags"


def render(text: str, **context) -> str:
    return Template(text).render(Context(context))


def test_a_kept_address_follows_the_language_and_the_arguments():
    template = Template("{% url 'puzzles:game' pk %}")
    for code in ("en", "de", "en", "fr"):
        with translation.override(code):
            for pk in (1, 2, 1):
                expected = reverse("puzzles:game", args=[pk])
                assert template.render(Context({"pk": pk})) == expected
    with translation.override("de"):
        assert template.render(Context({"pk": 3})).startswith("/de/")


def test_an_address_that_does_not_reverse_raises_or_is_empty_with_as():
    with pytest.raises(NoReverseMatch):
        render("{% url 'puzzles:no-such-page' %}")
    assert render("{% url 'puzzles:no-such-page' as there %}[{{ there }}]") == "[]"
    assert render("{% url 'puzzles:daily' as there %}[{{ there }}]") == "[/daily/]"


def test_a_constant_is_kept_for_its_language_and_a_variable_never():
    constant = Template("{% load kept_i18n %}{% translate 'Daily' %}")
    variable = Template("{% load kept_i18n %}{% translate word %}")
    with translation.override("de"):
        german = constant.render(Context())
        assert german == translation.gettext("Daily") != "Daily"
        assert variable.render(Context({"word": "History"})) == translation.gettext("History")
        assert variable.render(Context({"word": "Stats"})) == translation.gettext("Stats")
    with translation.override("en"):
        assert constant.render(Context()) == "Daily"


SNIPPETS = [
    "{% load kept_i18n %}{% translate '100%%' as said %}[{{ said }}]{% translate '100%%' %}",
    "{% load kept_i18n %}{% translate 'Daily' as said %}{{ said }} {{ said }}",
    "{% load kept_i18n %}{% translate '<b>' %}",
    "{% load kept_i18n %}{% autoescape off %}{% translate '<b>' %}{% endautoescape %}",
    "{% load kept_i18n %}{% translate 'Main' context 'main navigation' %}",
    "{% load kept_i18n %}{% translate 'Daily' noop %}{% translate 'Daily'|upper %}",
    "{% load kept_i18n %}{% trans 'Daily' %}{% get_current_language as code %}{{ code }}",
]


@pytest.mark.parametrize("code", ["en", "de", "ar"])
def test_snippets_render_as_with_djangos_own_tags(code):
    with translation.override(code):
        kept = [render(text) for text in SNIPPETS + SNIPPETS]
        with override_settings(TEMPLATES=djangos_own_tags()):
            own = [render(text) for text in SNIPPETS + SNIPPETS]
    assert kept == own


LOADS_I18N = re.compile(r"{%\s*load\b[^%]*\bi18n\b[^%]*%}")


def test_the_sites_templates_load_the_kept_translate():
    """A template that loads Django's i18n works, but looks up every string on every
    render: the site's templates load kept_i18n."""
    base = Path(settings.BASE_DIR)
    files = [*(base / "templates").rglob("*"), *(base / "puzzles").rglob("templates/**/*")]
    loading = [
        str(path.relative_to(base))
        for path in files
        if path.is_file() and LOADS_I18N.search(path.read_text().replace("kept_i18n", ""))
    ]
    assert not loading, loading
