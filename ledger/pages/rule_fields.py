"""The form fields of the house rules, built from the engine's tables: one per option of ``OPTIONS`` (a
choice among its named values, or a number box) and one per pattern of ``PATTERNS`` (its fan). An empty
field means "unchanged", and what that is depends on the page: the preset when a session starts
(``start``), the rules as played when a what-if replays (``whatif``), so each page words it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from calculator.engine import CAP, MAX_OPTION_VALUE, MAX_PATTERN_FAN, OPTIONS, PATTERNS, Option, OptionKind
from web.widgets import Select

from .words import fan_words, option_label, pattern_name, value_words

# The choices offered for the kinds that take a number the table picks from a short list; a session
# prefilled with another value gets it added (``_choices``).
CAP_CHOICES = ("none", "2", "4", "8", "16", "32", "64", "128", "256")
PENALTY_CHOICES = (CAP, "0", "1", "2", "4", "6", "8", "10", "12", "16", "20", "24", "32", "48", "64")
# Options a table changes most often, shown first; the others follow under "more rules".
COMMON_OPTIONS = ("base_points", "cap_multiplier", "zimo_bonus", "direct_kong", "mode", "dingque", "hai_di")
RULE_OPTIONS = tuple(option for option in OPTIONS if option.kind is not OptionKind.PATTERN_FAN)
PATTERN_OPTION = next(option for option in OPTIONS if option.kind is OptionKind.PATTERN_FAN)


@dataclass(frozen=True, slots=True)
class Codec:
    """How one kind of option travels through the form: a value as the posted string and back, and the
    strings offered (None: a text box, checked by its form field)."""

    to_raw: Callable[[Any], str]
    from_raw: Callable[[str], Any]
    choices: Callable[[Option], tuple[str, ...]] | None


CODECS: Mapping[OptionKind, Codec] = {
    OptionKind.ENUM: Codec(str, str, lambda option: option.choices),
    OptionKind.BOOL: Codec(
        lambda value: "on" if value else "off", lambda raw: raw == "on", lambda _o: ("on", "off")
    ),
    OptionKind.ZERO_OR_ONE: Codec(str, int, lambda _o: ("1", "0")),
    OptionKind.CAP_MULTIPLIER: Codec(
        lambda value: "none" if value is None else str(value),
        lambda raw: None if raw == "none" else int(raw),
        lambda _o: CAP_CHOICES,
    ),
    OptionKind.PENALTY: Codec(str, lambda raw: raw if raw == CAP else int(raw), lambda _o: PENALTY_CHOICES),
    OptionKind.INT: Codec(str, int, None),
    OptionKind.RATE: Codec(str, str, None),
}


def _below_one(value: Decimal | None) -> None:
    if value is not None and value >= 1:
        raise ValidationError(_("Less than 1, for example 0.1 for a tenth."))


def _choices(offered: Sequence[str], initial: str | None) -> tuple[str, ...]:
    return tuple(offered) if initial is None or initial in offered else (*offered, initial)


@dataclass(frozen=True, slots=True)
class OptionRow:
    field: forms.BoundField
    explanation: str
    preset: str  # what an empty field means here (the preset's value, as played), said beside it


def option_field(
    option: Option, language: str, initial: str | None, *, unchanged: str, placeholder: str
) -> forms.Field:
    """The form field of one option: a choice among its named values (``unchanged`` first, empty), or a
    number box showing ``placeholder`` while empty."""
    label = option_label(option, language)
    codec = CODECS[option.kind]
    # a number the engine names value by value (起胡, 金钩钓's fan) is a choice among those names too
    named = tuple(str(value.value) for value in option.value_labels)
    offered_values = codec.choices(option) if codec.choices is not None else named
    if offered_values:
        offered = _choices(offered_values, initial)
        return forms.TypedChoiceField(
            label=label,
            required=False,
            choices=[("", unchanged)]
            + [(raw, value_words(option, codec.from_raw(raw), language)) for raw in offered],
            coerce=codec.from_raw,
            empty_value=None,
            widget=Select,
        )
    attrs = {
        "placeholder": placeholder,
        "inputmode": "decimal" if option.kind is OptionKind.RATE else "numeric",
    }
    if option.kind is OptionKind.RATE:
        return forms.DecimalField(
            label=label,
            required=False,
            min_value=Decimal(0),
            max_digits=6,
            decimal_places=4,
            validators=[_below_one],
            widget=forms.TextInput(attrs=attrs),
        )
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=option.minimum,
        max_value=MAX_OPTION_VALUE,
        widget=forms.TextInput(attrs=attrs),
    )


def pattern_field(pattern: Any, language: str, *, unchanged: str) -> forms.Field:
    return forms.TypedChoiceField(
        label=pattern_name(pattern, language),
        required=False,
        choices=[("", unchanged)] + [(str(fan), fan_words(fan)) for fan in range(1, MAX_PATTERN_FAN + 1)],
        coerce=int,
        empty_value=None,
        widget=Select,
    )


def changed_rules(cleaned: Mapping[str, Any]) -> dict[str, Any]:
    """Every option and pattern fan a cleaned form changed, as the ``rules`` object of the API holds them
    (a field left empty is not sent)."""
    rules: dict[str, Any] = {}
    for option in RULE_OPTIONS:
        value = cleaned.get(f"rule_{option.key}")
        if value is not None:
            rules[option.key] = str(value) if option.kind is OptionKind.RATE else value
    fans = {
        pattern.key: cleaned[f"pattern_{pattern.key}"]
        for pattern in PATTERNS
        if cleaned.get(f"pattern_{pattern.key}") is not None
    }
    if fans:
        rules[PATTERN_OPTION.key] = fans
    return rules
