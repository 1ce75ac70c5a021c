"""Django's `i18n` template library with `{% translate %}` of a constant kept: the library
the templates load as `i18n` (settings.TEMPLATES), every tag and filter of Django's own,
`translate` (and `trans`) parsed the same way.

A page translates some forty constant strings; Django's tag looks each up in the catalog
and escapes it again on every render, about 20 microseconds a string. A node of a
constant string keeps what it rendered for the language, the escaping and the message
context, and gives it again. A string from a variable, or one with filters, goes the
ordinary way. A setting changed (the languages, the catalogs' places) lets all go."""

from __future__ import annotations

from django import template
from django.core.signals import setting_changed
from django.template.base import render_value_in_context
from django.templatetags import i18n
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import get_language

register = template.Library()
register.tags.update(i18n.register.tags)
register.filters.update(i18n.register.filters)

_generation = [0]  # counted up when a setting changes: what was kept is stale


def forget(**kwargs: object) -> None:
    _generation[0] += 1


setting_changed.connect(forget, dispatch_uid="kept_i18n_forget")


class KeptTranslateNode(i18n.TranslateNode):
    def render(self, context: template.Context) -> str:
        message_context = self.message_context.resolve(context) if self.message_context else None
        key = (get_language(), context.autoescape, message_context)
        if self.__dict__.get("_kept_generation") != _generation[0]:
            self._kept, self._kept_generation = {}, _generation[0]
        kept = self._kept
        value = kept.get(key)
        if value is None:
            value = kept[key] = self._words(context, message_context)
        if self.asvar:
            context[self.asvar] = value
            return ""
        return value

    def _words(self, context: template.Context, message_context: str | None) -> str:
        """What Django's tag renders (its steps as they are)."""
        self.filter_expression.var.translate = not self.noop
        if self.message_context:
            self.filter_expression.var.message_context = message_context
        value = render_value_in_context(self.filter_expression.resolve(context), context)
        # Percent signs are doubled in template text, so that they are not format flags.
        is_safe = isinstance(value, SafeData)
        value = value.replace("%%", "%")
        return mark_safe(value) if is_safe else value


def _constant(node: i18n.TranslateNode) -> bool:
    """A constant string with no filter: the same words for everyone in a language."""
    expression = node.filter_expression
    return not expression.filters and getattr(expression.var, "literal", None) is not None


@register.tag("translate")
@register.tag("trans")
def do_translate(parser: template.base.Parser, token: template.base.Token) -> template.Node:
    """Django's `{% translate %}`; a constant string's rendering kept (above)."""
    node = i18n.do_translate(parser, token)
    if _constant(node):
        node.__class__ = KeptTranslateNode
    return node
