"""/sitemap.xml: the site's public pages in every language, each with its alternates
(hreflang) in the others and the English one as the default."""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from ..learn import guide

# The pages anyone may read: no game, no account's own page.
PAGES = ("puzzles:home", "puzzles:daily", "puzzles:how_to_play", "puzzles:techniques")


class _Everywhere(Sitemap):
    """A page in every language of settings.LANGUAGES, with alternates."""

    i18n = True
    alternates = True
    x_default = True


class PagesSitemap(_Everywhere):
    changefreq = "daily"

    def items(self) -> list[str]:
        return list(PAGES)

    def location(self, item: str) -> str:
        return reverse(item)


class TechniquesSitemap(_Everywhere):
    changefreq = "monthly"

    def items(self) -> list[str]:
        return list(guide.GUIDE)

    def location(self, item: str) -> str:
        return reverse("puzzles:technique", args=[item])


SITEMAPS = {"pages": PagesSitemap, "techniques": TechniquesSitemap}
