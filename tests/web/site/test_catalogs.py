"""The catalogs in locale/: one per shipped language and domain, every entry translated and
none fuzzy, the committed .mo files compiled from the .po files as they are, every string
of the templates marked, and every marked string in the catalogs."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation import to_locale

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
DOMAINS = ("django", "djangojs")
OTHERS = [to_locale(code) for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
# Debian's gettext, which `make test` installs when missing: without it these tests fail.
MSGFMT = shutil.which("msgfmt") or "msgfmt"


def catalog(locale: str, domain: str) -> Path:
    """A catalog: the site's two in locale/, the engine's own in engine/locale/."""
    root = ROOT / "engine" / "locale" if domain == "engine" else LOCALE
    return root / locale / "LC_MESSAGES" / f"{domain}.po"


@pytest.mark.parametrize("locale", OTHERS)
@pytest.mark.parametrize("domain", [*DOMAINS, "engine"])
def test_every_shipped_language_has_a_complete_catalog(locale, domain):
    po = catalog(locale, domain)
    assert po.exists(), f"{po} is missing"
    result = subprocess.run(
        [MSGFMT, "--check", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    said = result.stderr.strip()
    assert "fuzzy" not in said and "untranslated" not in said, f"{po}: {said}"


@pytest.mark.parametrize("locale", OTHERS)
@pytest.mark.parametrize("domain", [*DOMAINS, "engine"])
def test_the_committed_mo_is_compiled_from_the_po_as_it_is(locale, domain, tmp_path):
    po = catalog(locale, domain)
    compiled = tmp_path / "out.mo"
    subprocess.run([MSGFMT, "--check", "-o", str(compiled), str(po)], check=True)
    committed = po.with_suffix(".mo")
    assert committed.exists(), f"run `make messages`: {committed} is missing"
    assert committed.read_bytes() == compiled.read_bytes(), f"run `make messages`: {committed}"


# Text left outside {% translate %} and {% blocktranslate %}: any word of letters.
WORD = re.compile(r"[^\W\d_]{2,}")
TEXT_ATTRIBUTES = re.compile(r'\b(?:aria-label|title|placeholder|alt|aria-description)="([^"]*)"')
BLOCK = r"{%\s*blocktrans(?:late)?\b.*?{%\s*endblocktrans(?:late)?\s*%}"
# Not words to translate: the brand.
ALLOWED = {"Sudoku"}


def untranslated_text(source: str) -> list[str]:
    """Words of a template's own text (and of its attributes people read) left outside
    the translation tags; comments, scripts, styles and template tags are not text."""
    text = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}", " ", source, flags=re.S)
    text = re.sub(BLOCK, "\u00a7", text, flags=re.S)
    text = re.sub(r"{%\s*block body_class\s*%}.*?{%\s*endblock\s*%}", " ", text)  # a class
    text = re.sub(r"{%.*?%}|{{.*?}}", "\u00a7", text, flags=re.S)
    text = re.sub(r"<script\b.*?</script>|<style\b.*?</style>", " ", text, flags=re.S)
    found = [w for value in TEXT_ATTRIBUTES.findall(text) for w in WORD.findall(value)]
    text = re.sub(r"<[^>]*>", " ", text)  # tags and their attributes
    text = re.sub(r"&#?\w+;", " ", text)  # entities
    found += WORD.findall(text)
    return [w for w in found if w not in ALLOWED]


TEMPLATES = sorted(
    path for path in (ROOT / "templates").rglob("*") if path.suffix in (".html", ".txt", ".svg")
)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_string_of_the_templates_is_marked_for_translation(path):
    assert untranslated_text(path.read_text()) == []


def test_the_check_finds_text_left_unmarked():
    source = (
        '{% load i18n %}<p title="Left out">Kept {% translate "Marked" %}</p>'
        "{% blocktranslate %}Also {{ x }} marked{% endblocktranslate %}"
    )
    assert untranslated_text(source) == ["Left", "out", "Kept"]


def test_every_marked_string_is_in_the_catalogs(tmp_path):
    """makemessages on a copy of the sources finds no msgid the German catalogs lack."""
    for domain in DOMAINS:
        copy = tmp_path / domain
        shutil.copytree(
            ROOT,
            copy,
            ignore=shutil.ignore_patterns(
                ".venv",
                "node_modules",
                "var",
                ".git",
                "tests",
                "bench",
                "dist",
                "__pycache__",
                "*.mo",
            ),
            symlinks=True,
        )
        subprocess.run(
            [
                str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else "python",
                "manage.py",
                "makemessages",
                "-l",
                "de",
                "-d",
                domain,
                "--no-obsolete",
                "--no-location",
                "--ignore=engine",  # the engine's words have catalogs of their own
                *(["-e", "html,txt,py,svg"] if domain == "django" else []),
            ],
            cwd=copy,
            check=True,
            capture_output=True,
        )
        fresh = msgids(copy / "locale" / "de" / "LC_MESSAGES" / f"{domain}.po")
        kept = msgids(catalog("de", domain))
        assert fresh - kept == set(), f"run `make messages`: {domain} lacks {fresh - kept}"


def msgids(po: Path) -> set[str]:
    """The msgids (with their context) of a catalog."""
    found, context = set(), ""
    text = po.read_text()
    for entry in text.split("\n\n"):
        lines = [line for line in entry.splitlines() if not line.startswith("#")]
        joined = "\n".join(lines)
        context_match = re.search(r'^msgctxt ((?:".*"\n?)+)', joined, re.M)
        context = _unquote(context_match.group(1)) if context_match else ""
        match = re.search(r'^msgid ((?:".*"\n?)+)', joined, re.M)
        if match and _unquote(match.group(1)):
            found.add((context, _unquote(match.group(1))))
    return found


def _unquote(block: str) -> str:
    return "".join(re.findall(r'"(.*)"', block))


# A sentence in the page's script: a capitalised word, a space, more (not in a comment).
SENTENCE = re.compile(r"""(["'`])([A-Z][a-z']+ [^"'`]*?)\1""")
MARKED = re.compile(r"(gettext|ngettext|pgettext)\(\s*(\"[^\"]*\",\s*)?$")


def unmarked_sentences(source: str) -> list[str]:
    """Sentences of a script not handed to gettext, ngettext or pgettext as they are."""
    found, before = [], ""
    for line in source.splitlines():
        if not line.strip().startswith("//"):
            for match in SENTENCE.finditer(line):
                ahead = line[: match.start()]
                if not (MARKED.search(ahead) or (not ahead.strip() and MARKED.search(before))):
                    found.append(match.group(2))
        before = line
    return found


SCRIPTS = sorted((ROOT / "static" / "js" / "game").rglob("*.js"))


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sentence_of_the_game_script_is_marked_for_translation(path):
    assert unmarked_sentences(path.read_text()) == []


def test_the_script_check_finds_a_sentence_left_unmarked():
    source = 'say("Left out here");\nsay(gettext("Marked one"));\nsay(gettext(\n  "Marked too"));'
    assert unmarked_sentences(source) == ["Left out here"]


def test_every_sentence_of_the_engine_is_in_its_catalogs(tmp_path):
    """xgettext on the engine finds no message the German engine catalog lacks."""
    sources = sorted(str(p) for p in (ROOT / "engine").rglob("*.py"))
    fresh = tmp_path / "engine.pot"
    subprocess.run(
        [
            "xgettext",
            "--language=Python",
            "--from-code=UTF-8",
            "--keyword=_",
            "--keyword=N_",
            "--keyword=ngettext:1,2",
            "--keyword=pgettext:1c,2",
            "-o",
            str(fresh),
            *sources,
        ],
        check=True,
    )
    lacking = msgids(fresh) - msgids(catalog("de", "engine"))
    assert lacking == set(), f"run `make messages`: the engine's catalogs lack {lacking}"
