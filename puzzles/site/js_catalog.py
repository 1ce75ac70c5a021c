"""The game page's script in the player's language: the `djangojs` catalog of a language
(from the project's LOCALE_PATHS and the apps' locale folders), as Django's
JavaScriptCatalog gives it, handed to the page as data.

The page carries it in `{{ js_catalog }}`, a `<script id="js-catalog"
type="application/json">` data block as json_script writes it (data, not a script: the
Content-Security-Policy stays as it is), and static/js/game/i18n.js reads it. The context
processor hands the template a callable, so that a page that does not show the catalog
never builds it; each language's catalog, and its block, is built once a process.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import translation
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation.trans_real import DjangoTranslation
from django.views.i18n import JavaScriptCatalog

DOMAIN = "djangojs"
ENGLISH_PLURAL = "(n != 1)"

_catalogs: dict[str, dict] = {}
_blocks: dict[str, SafeString] = {}


def _english(language: str) -> bool:
    return translation.to_language(language).split("-")[0] == "en"


def js_catalog(language: str) -> dict:
    """{"catalog": {msgid: text or [plural forms]}, "plural": a C expression in n} of the
    `djangojs` domain for `language`; English (the words as written) has an empty catalog."""
    language = translation.to_language(language or "en")
    if language not in _catalogs:
        if _english(language):
            _catalogs[language] = {"catalog": {}, "plural": ENGLISH_PLURAL}
        else:
            view = JavaScriptCatalog()
            view.translation = DjangoTranslation(language, domain=DOMAIN)
            _catalogs[language] = {
                "catalog": view.get_catalog(),
                "plural": view.get_plural() or ENGLISH_PLURAL,
            }
    return _catalogs[language]


def js_catalog_block(language: str) -> SafeString:
    """The page's `js-catalog` data block for `language`: the catalog as JSON, escaped for
    HTML as json_script escapes it. Written once a process: a game page shows it on every
    visit, and 185 messages cost more to serialise than the rest of the page's data."""
    language = translation.to_language(language or "en")
    if language not in _blocks:
        _blocks[language] = json_script(js_catalog(language), "js-catalog")
    return _blocks[language]


def clear_cache() -> None:
    """Forgets the catalogs built (for tests that change LOCALE_PATHS)."""
    _catalogs.clear()
    _blocks.clear()


class _Catalog:
    """The language's catalog block, built when a template shows it (templates call
    callables)."""

    def __init__(self, language: str) -> None:
        self.language = language

    def __call__(self) -> SafeString:
        return js_catalog_block(self.language)


def js_catalog_context(request: HttpRequest) -> dict:
    """`js_catalog` for every template: the request's language's catalog block, built when
    used."""
    language = getattr(request, "LANGUAGE_CODE", None) or translation.get_language() or "en"
    return {"js_catalog": _Catalog(language)}
