"""The house-rules part of a form: a preset select and one field per option of the engine's table.

The fields are shown from the option table itself, never listed by hand, and read into the ``rules``
object of the API as typed by ``web.notation.rules_payload`` (the engine judges every value).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from calculator.engine import OPTIONS, EngineError, Option, OptionKind, Preset, Rules

from .names import is_chinese

PRESET_LABELS: Mapping[Preset, Any] = {
    Preset.CHENGDU: _("Chengdu (default)"),
    Preset.QQ: _("QQ game rules"),
    Preset.CASUAL: _("Casual home game (capped)"),
}


@dataclass(frozen=True, slots=True)
class RuleField:
    """One option of OPTIONS as the page shows it, in the players' words of the page's language: a select
    for closed sets (each value named), a text box otherwise. No internal key is shown."""

    name: str  # the form field
    label: str
    explanation: str
    value: str
    default: str  # the preset's value, as its choice is labelled
    choices: tuple[tuple[str, str], ...]


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False) if value else ""
    return str(value)


def _choices(option: Option, zh: bool) -> tuple[tuple[str, str], ...]:
    """Each allowed value with its name from the engine's table (``value_labels``)."""
    if option.value_labels:
        return tuple(
            (_shown(value.value), value.label_zh if zh else value.label) for value in option.value_labels
        )
    if option.kind == OptionKind.BOOL:
        return (("true", str(_("yes"))), ("false", str(_("no"))))
    return tuple((choice, choice) for choice in option.choices)


def _default_shown(option: Option, value: Any, zh: bool) -> str:
    """The preset's value as the page names it: 血战到底, not ``xuezhan``."""
    shown = _shown(value)
    return dict(_choices(option, zh)).get(shown, shown)


def rule_fields(data: Mapping[str, Any], language: str) -> tuple[RuleField, ...]:
    """Every option of the rules table with what the form holds and the preset's value beside it."""
    try:
        preset_rules = Rules.from_dict({"preset": data.get("preset") or Preset.CHENGDU.value})
    except EngineError:
        preset_rules = Rules()
    defaults = preset_rules.to_dict()
    zh = is_chinese(language)
    return tuple(
        RuleField(
            name=f"rule_{option.key}",
            label=option.label_zh if zh else option.label,
            explanation=option.explanation_zh if zh else option.explanation,
            value=str(data.get(f"rule_{option.key}", "")).strip(),
            default=_default_shown(option, defaults[option.key], zh),
            choices=_choices(option, zh),
        )
        for option in OPTIONS
    )


def rules_fields_of(rules: Mapping[str, Any]) -> dict[str, str]:
    """A stored ``rules`` object as the form's fields hold it: the inverse of ``notation.rules_payload``."""
    return {
        "preset": str(rules.get("preset", "")),
        **{f"rule_{key}": _shown(value) for key, value in rules.items() if key != "preset"},
    }


def preset_choices() -> tuple[tuple[str, Any], ...]:
    return tuple((preset.value, PRESET_LABELS[preset]) for preset in Preset)


def rules_context(data: Mapping[str, Any], language: str) -> dict[str, Any]:
    """What ``web/_rules.html`` needs."""
    presets = preset_choices()
    return {
        "preset": data.get("preset", Preset.CHENGDU.value),
        "presets": presets,
        "preset_values": [value for value, _label in presets],
        "rule_fields": rule_fields(data, language),
    }
