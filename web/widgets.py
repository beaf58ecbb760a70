"""Form widgets drawn in Python: Django's markup, without its templates.

Django draws a ``<select>`` from three templates: the select, then per option the option's and its
attributes' (two includes each). The start page's house rules are 50 selects of 356 options, and those
includes were 60% of its time (issue 16); drawn here, the same markup costs a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.forms.renderers import BaseRenderer
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString


def attributes(attrs: Mapping[str, Any]) -> str:
    """Attributes as django/forms/widgets/attrs.html writes them, escaped: True as a bare name, False left
    out."""
    return "".join(
        f" {escape(name)}" if value is True else f' {escape(name)}="{escape(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


class Select(forms.Select):
    """django/forms/widgets/select.html's markup to the byte (each option on its line, then the blank line
    that ends its template), escaped as there (a value always, being formatted to a string first; a label
    unless it is safe already); flat choices only (no optgroup), as every choice field that uses it has."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: BaseRenderer | None = None
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        options = "".join(
            _option(option) for _group, choices, _index in widget["optgroups"] for option in choices
        )
        # every piece escaped above
        return SafeString(
            f'<select name="{escape(widget["name"])}"{attributes(widget["attrs"])}>{options}\n</select>'
        )


def _option(option: Mapping[str, Any]) -> str:
    label = conditional_escape(option["label"])
    return f'\n  <option value="{escape(option["value"])}"{attributes(option["attrs"])}>{label}</option>\n'
