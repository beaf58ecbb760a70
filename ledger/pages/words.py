"""The stored words and the engine's values as the pages say them, in the page's language.

Roles and seats are the ledger's; an option's value is named by the engine (``value_labels``) when it
is one of a closed set, and by the few words here when it is yes/no, a cap or a penalty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from calculator.engine import CAP, OPTIONS, PATTERNS, PRESET_RULES, Option, OptionKind, Preset
from web.language import page_language
from web.names import is_chinese

from ..models import Role

ROLE_LABELS: Mapping[str, Any] = {
    Role.OWNER: gettext_lazy("Owner"),
    Role.SCOREKEEPER: gettext_lazy("Scorekeeper"),
    Role.VIEWER: gettext_lazy("Viewer"),
}
# What each role may do, in one line: shown beside the choice so nobody picks a role blind.
ROLE_HINTS: Mapping[str, Any] = {
    Role.OWNER: gettext_lazy("everything, including members and roles"),
    Role.SCOREKEEPER: gettext_lazy("adds players, starts sessions, records hands"),
    Role.VIEWER: gettext_lazy("looks only"),
}


def fan_words(fan: int) -> str:
    return ngettext("%(n)s fan", "%(n)s fan", fan) % {"n": fan}


# The words of a value the engine does not name (its ``value_labels`` name the closed sets).
_VALUE_WORDS: Mapping[OptionKind, Callable[[Any], str]] = {
    OptionKind.BOOL: lambda value: _("Yes") if value else _("No"),
    OptionKind.CAP_MULTIPLIER: lambda value: (
        _("No cap") if value is None else _("At most %(n)s× the base") % {"n": value}
    ),
    OptionKind.PENALTY: lambda value: (
        _("The cap amount")
        if value == CAP
        else ngettext("%(n)s base", "%(n)s bases", int(value)) % {"n": value}
    ),
    OptionKind.RATE: lambda value: f"{Decimal(str(value)).normalize():f}",
    OptionKind.INT: str,
    OptionKind.ENUM: str,
    OptionKind.ZERO_OR_ONE: str,
}


def value_words(option: Option, value: Any, language: str) -> str:
    """One value of an option as a player reads it: 自摸加底, 不封顶, 16 底."""
    if option.value_labels:
        return option.value_label(value, language)
    return _VALUE_WORDS[option.kind](value)


def option_label(option: Option, language: str) -> str:
    return option.label_zh if is_chinese(language) else option.label


def option_explanation(option: Option, language: str) -> str:
    return option.explanation_zh if is_chinese(language) else option.explanation


def pattern_name(pattern: Any, language: str) -> str:
    return pattern.name if is_chinese(language) else f"{pattern.name_en} ({pattern.name})"


def _preset_summary(preset: Preset) -> str:
    """What a preset changes from the default rules, written from the engine's preset table, so it never
    tells something the preset does not do."""
    language = page_language()
    rules = PRESET_RULES[preset]
    default = PRESET_RULES[Preset.CHENGDU]
    parts = [
        f"{option_label(option, language)}: {value_words(option, getattr(rules, option.key), language)}"
        for option in OPTIONS
        if option.kind is not OptionKind.PATTERN_FAN
        and getattr(rules, option.key) != getattr(default, option.key)
    ]
    parts += [
        f"{pattern_name(pattern, language)} {fan_words(rules.pattern_value(pattern.key))}"
        for pattern in PATTERNS
        if rules.pattern_value(pattern.key) != default.pattern_value(pattern.key)
    ]
    return (
        " · ".join(parts) if parts else _("Blood battle as played in Chengdu: the default of every option.")
    )


preset_summary = lazy(_preset_summary, str)
