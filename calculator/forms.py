"""The calculator page's input: what a browser posts, reshaped into the JSON body of the score and waits APIs.

Validation belongs to the engine (``calculator.engine.requests``): this module only turns strings and
checkboxes into that body, so a bad hand gets exactly the API's field and message on the page. The one
notation of its own is the melds field (``碰5p 暗杠3m``), because the API has no text form for melds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from calculator.engine import OPTIONS, TILE_NAMES, EngineError, Option, Preset, Rules, parse_tiles

MODES = ("win", "waits")
WIN_BY = ("self_draw", "discard", "robbing_kong")
FLAGS = ("after_kong", "last_tile", "tian_hu", "di_hu")
HAND_TILES = 14

# Meld kinds as the API names them, and every word a player may type for one.
MELD_KINDS = ("pung", "kong_direct", "kong_added", "kong_concealed")
MELD_WORDS: Mapping[str, str] = {
    "碰": "pung",
    "明杠": "kong_direct",
    "直杠": "kong_direct",
    "弯杠": "kong_added",
    "面下杠": "kong_added",
    "暗杠": "kong_concealed",
    **{kind: kind for kind in MELD_KINDS},
}
MELD_TEXT: Mapping[str, str] = {
    "pung": "碰",
    "kong_direct": "明杠",
    "kong_added": "弯杠",
    "kong_concealed": "暗杠",
}
_MELD_WORD = "|".join(sorted(MELD_WORDS, key=len, reverse=True))  # longest first: 明杠 before 碰
_MELD_TOKEN = re.compile(rf"({_MELD_WORD})\s*[:：]?\s*([^\s,，;；]+)")
_MELD_SEPARATORS = re.compile(r"[\s,，;；]*")

MELD_LABELS: Mapping[str, Any] = {
    "pung": _("Pung"),
    "kong_direct": _("Direct kong"),
    "kong_added": _("Added kong"),
    "kong_concealed": _("Concealed kong"),
}
SUIT_LABELS: Mapping[str, Any] = {"m": _("Characters"), "p": _("Dots"), "s": _("Bamboo")}
SUIT_SHORT_LABELS: Mapping[str, Any] = {"m": _("Cracks"), "p": _("Dots"), "s": _("Bams")}
WIN_BY_LABELS: Mapping[str, Any] = {
    "self_draw": _("Self-draw"),
    "discard": _("On a discard"),
    "robbing_kong": _("Robbing a kong"),
}
PRESET_LABELS: Mapping[str, Any] = {
    Preset.CHENGDU: _("Chengdu (default)"),
    Preset.QQ: _("QQ game rules"),
    Preset.CASUAL: _("Casual home game (capped)"),
}


def in_language(item: Mapping[str, Any] | Any, language: str) -> str:
    """An engine name (pattern or extra, a dict or a row) in the page's language: 清一色 or "Full flush"."""
    get = item.get if isinstance(item, Mapping) else lambda key, default=None: getattr(item, key, default)
    return str(get("name") if language.lower().startswith("zh") else get("name_en", get("name")))


def tile_label(name: str) -> str:
    """A tile in words for screen readers and tooltips: ``5p`` is 5筒 / "5 Dots"."""
    return f"{name[0]} {SUIT_LABELS[name[1]]}"


@dataclass(frozen=True, slots=True)
class Meld:
    kind: str
    tile: str  # as typed; the engine validates it


@dataclass(frozen=True, slots=True)
class HandInput:
    """One post of the calculator form, still as strings: the engine judges every value."""

    mode: str
    concealed: str
    win_tile: str
    melds: tuple[Meld, ...]
    win_by: str
    flags: frozenset[str]
    void_suit: str
    rules: dict[str, Any]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> HandInput:
        """Read a QueryDict (or any mapping of strings); raises EngineError only for the melds notation."""
        return cls(
            mode=data.get("mode", "win") if data.get("mode") in MODES else "win",
            concealed=data.get("concealed", "").strip(),
            win_tile=data.get("win_tile", "").strip(),
            melds=parse_melds(data.get("melds", "")),
            win_by=data.get("win_by", "self_draw").strip() or "self_draw",
            flags=frozenset(flag for flag in FLAGS if data.get(flag) in ("on", "true", "1")),
            void_suit=data.get("void_suit", "").strip(),
            rules=rules_payload(data),
        )

    def concealed_and_win(self) -> tuple[tuple[str, ...], str | None]:
        """The concealed tiles and the winning tile; with no winning tile given, the last one typed wins.

        Raises the engine's EngineError (field ``concealed`` or ``win_tile``) for text that is not tiles.
        """
        concealed = tile_names(self.concealed, "concealed")
        if self.win_tile:
            win = tile_names(self.win_tile, "win_tile")
            return concealed, win[0] if len(win) == 1 else self.win_tile
        if self.mode == "win" and concealed and len(concealed) + 3 * len(self.melds) >= HAND_TILES:
            return concealed[:-1], concealed[-1]
        return concealed, None

    def tiles_missing(self) -> int:
        """How many tiles the hand still lacks, so a hand being built shows a hint rather than an error."""
        needed = HAND_TILES if self.mode == "win" else HAND_TILES - 1
        return max(needed - self.tiles_held(), 0)

    def tiles_held(self) -> int:
        """Every tile of the hand as a player counts them: a meld counts 3 (a kong's fourth is replaced)."""
        concealed, win = self.concealed_and_win()
        return len(concealed) + (win is not None and self.mode == "win") + 3 * len(self.melds)

    def payload(self) -> dict[str, Any]:
        """The JSON body of ``POST /api/v1/score/`` (mode ``win``) or ``/api/v1/waits/`` (mode ``waits``)."""
        concealed, win = self.concealed_and_win()
        body: dict[str, Any] = {
            "concealed": list(concealed),
            "melds": [{"kind": meld.kind, "tile": meld.tile} for meld in self.melds],
            "void_suit": self.void_suit or None,
            "rules": self.rules,
        }
        if self.mode == "waits":
            return body
        return {
            **body,
            "win_tile": win if win is not None else "",
            "win_by": self.win_by,
            **{flag: flag in self.flags for flag in FLAGS},
        }

    def melds_text(self) -> str:
        """The melds field as players write it (碰5p 暗杠3m), the way the page's script writes it too."""
        return " ".join(f"{MELD_TEXT[meld.kind]}{meld.tile}" for meld in self.melds)


def tile_names(text: str, field: str) -> tuple[str, ...]:
    """Tile names (``5p``) in the order typed, through the engine's own parser."""
    return tuple(TILE_NAMES[index] for index in parse_tiles(text, field))


def parse_melds(text: str) -> tuple[Meld, ...]:
    """``碰5p 暗杠3m`` or ``pung:5p kong_concealed:3m`` as melds; anything else is named to the player."""
    melds = tuple(Meld(MELD_WORDS[word], tile) for word, tile in _MELD_TOKEN.findall(text))
    leftover = _MELD_SEPARATORS.sub("", _MELD_TOKEN.sub(" ", text))
    if leftover:
        raise EngineError(
            "melds",
            f"'{leftover}' is not a meld: write each as 碰5p, 明杠5p, 弯杠5p or 暗杠5p.",
            f"“{leftover}”不是碰或杠：请写成 碰5p、明杠5p、弯杠5p 或 暗杠5p。",
        )
    return melds


def _whole_number(raw: str) -> Any:
    """Digits become a number; anything else goes to the engine as typed, for its own message.

    ASCII digits only, and few of them: "²".isdigit() is true but int("²") fails, and int() refuses
    strings of more than 4,300 digits."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else raw


def _json_or_text(raw: str) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: hostile, deeply nested input
        return raw


# How each kind of option travels from a text box or select to the rules object of the API.
_OPTION_VALUE: Mapping[str, Callable[[str], Any]] = {
    "enum": str,
    "bool": lambda raw: {"true": True, "false": False}.get(raw, raw),
    "int": _whole_number,
    "zero_or_one": _whole_number,
    "cap_multiplier": lambda raw: None if raw in ("none", "null") else _whole_number(raw),
    "penalty": lambda raw: raw if raw == "cap" else _whole_number(raw),
    "rate": str,
    "pattern_fan": _json_or_text,
}


def rules_payload(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ``rules`` object of the API from the preset select and the ``rule_<key>`` option fields."""
    rules: dict[str, Any] = {"preset": data.get("preset", "").strip() or Preset.CHENGDU.value}
    for option in OPTIONS:
        raw = str(data.get(f"rule_{option.key}", "")).strip()
        if raw:
            rules[option.key] = _OPTION_VALUE[option.kind](raw)
    return rules


@dataclass(frozen=True, slots=True)
class RuleField:
    """One option of OPTIONS as the page shows it: a select for closed sets, a text box otherwise."""

    key: str
    name: str
    meaning: str
    value: str
    default: str
    choices: tuple[tuple[str, str], ...]


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False) if value else ""
    return str(value)


def _choices(option: Option) -> tuple[tuple[str, str], ...]:
    if option.kind == "bool":
        return (("true", str(_("yes"))), ("false", str(_("no"))))
    if option.kind == "zero_or_one":
        return (("0", "0"), ("1", "1"))
    return tuple((choice, choice) for choice in option.choices)


def rule_fields(data: Mapping[str, Any], language: str) -> tuple[RuleField, ...]:
    """Every option of the rules table with what the form holds and the preset's value beside it."""
    try:
        preset_rules = Rules.from_dict({"preset": data.get("preset") or Preset.CHENGDU.value})
    except EngineError:
        preset_rules = Rules()
    defaults = preset_rules.to_dict()
    zh = language.lower().startswith("zh")
    return tuple(
        RuleField(
            key=option.key,
            name=f"rule_{option.key}",
            meaning=option.meaning_zh if zh else option.meaning,
            value=str(data.get(f"rule_{option.key}", "")).strip(),
            default=_shown(defaults[option.key]),
            choices=_choices(option),
        )
        for option in OPTIONS
    )


def preset_choices() -> tuple[tuple[str, Any], ...]:
    return tuple((preset.value, PRESET_LABELS[preset]) for preset in Preset)
