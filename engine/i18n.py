"""The engine's words in the player's language, with Python's own gettext: no Django.

Every sentence the engine says is an English message id marked with `_` (or `ngettext`,
`pgettext`; `N_` marks words kept in tables and said later with `_`), with named
placeholders filled by `str.format` after translation, so that a language may put them in
its own order: `_("{place} is not {digit}").format(place=..., digit=...)`. In English the
message id is the sentence: the engine's English output is what it was before.

The catalogs are the engine's own, `engine/locale/<locale>/LC_MESSAGES/engine.po` (the
site's `make messages` extracts and merges them, and compiles the `.mo` files committed
beside them). The language is `speaking(code)`'s within its block; outside any, the one a
host names with `use_language_of(function)` (the site names Django's current language);
English when neither says.
"""

from __future__ import annotations

import contextlib
import functools
import gettext as _gettext
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "engine"
ENGLISH = "en"

_SPEAKING: ContextVar[str | None] = ContextVar("engine_language", default=None)
_source: Callable[[], str | None] | None = None


def use_language_of(source: Callable[[], str | None] | None) -> None:
    """Name the function that says the language outside `speaking()` (None: English)."""
    global _source
    _source = source


def language() -> str:
    """The language the engine speaks here: a code such as 'de' or 'pt-br'."""
    code = _SPEAKING.get()
    if code is None and _source is not None:
        code = _source()
    return (code or ENGLISH).lower()


@contextlib.contextmanager
def speaking(code: str | None) -> Iterator[None]:
    """Within the block, the engine speaks the language `code` (None: the host's)."""
    token = _SPEAKING.set(code)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def to_locale(code: str) -> str:
    """A language code as the catalogs' folders name it: 'pt-br' gives 'pt_BR',
    'zh-hans' gives 'zh_Hans', as Django's to_locale does."""
    language, _, country = code.lower().partition("-")
    if not country:
        return language
    country = country.title() if len(country) > 2 else country.upper()
    return f"{language}_{country}"


@functools.cache
def catalog(code: str) -> _gettext.NullTranslations:
    """The engine's catalog of a language; the message ids themselves when it has none."""
    if code == ENGLISH:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, [to_locale(code)], fallback=True)


def _(message: str) -> str:
    """A sentence or word in the current language."""
    return catalog(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for n in the current language (format n in after, as `{n}` or named)."""
    return catalog(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A short word whose sense the context tells apart ('row' the unit, say)."""
    return catalog(language()).pgettext(context, message)


def N_(message: str) -> str:
    """Marks a word kept in a table, to be said with `_` where it is shown."""
    return message
