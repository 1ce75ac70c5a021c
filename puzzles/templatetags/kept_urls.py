"""`{% url %}` with its addresses kept: a template built in (settings.TEMPLATES) that
stands in for Django's own tag, parsed the same way, whose reversals are kept a process
for the arguments, the language, the script prefix and the URLconf they were made for.

A page reverses some twenty addresses (the navigation, the footer, the game's API), each
the same for every player in a language; Django's `reverse()` walks the URLconf every
time, 40-50 microseconds an address. Kept, the game page renders about a millisecond
sooner. An address that does not reverse is not kept: it raises, or gives "" with
`as`, as Django's tag does."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.core.signals import setting_changed
from django.template import defaulttags
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.translation import get_language

register = template.Library()

KEPT_AT_MOST = 4096  # addresses; past it the oldest half is let go
_kept: dict[tuple, str] = {}


def forget(**kwargs: object) -> None:
    """Let every kept address go (a setting changed: the URLconf or the languages)."""
    _kept.clear()


setting_changed.connect(forget, dispatch_uid="kept_urls_forget")


def kept_reverse(view_name: str, args: list, kwargs: dict, current_app: str | None) -> str:
    """reverse(), kept for the same arguments, language, script prefix and URLconf."""
    try:
        key = (
            view_name,
            tuple(args),
            tuple(sorted(kwargs.items())),
            current_app,
            get_language(),
            get_script_prefix(),
            get_urlconf() or settings.ROOT_URLCONF,
        )
        hash(key)
    except TypeError:  # an argument that cannot be a key: reversed every time
        return reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
    url = _kept.get(key)
    if url is None:
        url = reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
        if len(_kept) >= KEPT_AT_MOST:
            for old in list(_kept)[: KEPT_AT_MOST // 2]:
                _kept.pop(old, None)
        _kept[key] = url
    return url


class KeptURLNode(defaulttags.URLNode):
    def render(self, context: template.Context) -> str:
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {k: v.resolve(context) for k, v in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        try:
            current_app = context.request.current_app
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace
            except AttributeError:
                current_app = None
        url = ""
        try:
            url = kept_reverse(view_name, args, kwargs, current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser: template.base.Parser, token: template.base.Token) -> KeptURLNode:
    """Django's `{% url %}`, its reversal kept (above)."""
    node = defaulttags.url(parser, token)
    node.__class__ = KeptURLNode
    return node
