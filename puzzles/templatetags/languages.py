"""The page's addresses in the other languages (puzzles/site/languages.py's
`language_links`), written in Python: the hreflang links of the head and the footer
switcher's buttons, eight of each on every page, where the template's loop cost half a
millisecond a page."""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def alternate_links(context: template.Context) -> SafeString:
    """A `<link rel="alternate">` for each language, English's also as the x-default."""
    written = []
    for link in context.get("language_links") or ():
        url = escape(link["url"])
        written.append(f'<link rel="alternate" hreflang="{link["code"]}" href="{url}">\n')
        if link["code"] == "en":
            written.append(f'<link rel="alternate" hreflang="x-default" href="{url}">\n')
    return mark_safe("".join(written))


CURRENT = ' aria-current="true"'


@register.simple_tag(takes_context=True)
def language_buttons(context: template.Context) -> SafeString:
    """The switcher's button for each language, the page's own marked current."""
    written = []
    for link in context.get("language_links") or ():
        code, current = link["code"], CURRENT if link["current"] else ""
        written.append(
            f'\n    <li><button type="submit" name="language" value="{code}" lang="{code}"'
            f' class="link-button"{current}>{escape(link["name"])}</button></li>'
        )
    return mark_safe("".join(written))
