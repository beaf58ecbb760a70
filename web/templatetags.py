"""The template tags of the pages of several apps (``{% load web %}``, registered in the settings' TEMPLATES).

A tag here stands for what would otherwise be an ``{% include %}`` repeated in the pages' loops: an include
costs a template lookup and a context of its own each time, a third of home's rendering of 100 group cards
(issue 16).
"""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def signed(value: int | Decimal, *, digits: str = "", extra_class: str = "") -> SafeString:
    """A signed number: + or − (readable without colour), green for a gain, red for a loss. ``digits``: the
    magnitude as printed when the value is not an integer (an average); ``extra_class``: the page's own."""
    tone, sign = (" gain", "+") if value > 0 else (" loss", "\u2212") if value < 0 else ("", "")
    extra = f" {conditional_escape(extra_class)}" if extra_class else ""
    # An f-string, not format_html: this is drawn hundreds of times a page, and only the two strings
    # passed in need escaping (the magnitude is an int).
    magnitude = conditional_escape(digits) if digits else abs(int(value))
    return SafeString(f'<span class="signed{tone}{extra}">{sign}{magnitude}</span>')
