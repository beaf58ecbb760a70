"""The shapes of hands and rules that the calculator APIs describe (score and waits in ``calculator``,
settle in ``settlement``) and the ledger's round bodies check: tiles, melds, a seat, the void suits, and
the rules object built from the engine's options table, so no app imports another's serializers and every
closed set is the engine's.
"""

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from calculator.engine import OPTIONS, PATTERN_BY_KEY, SUITS, MeldKind, Option, Preset
from settlement.engine import SEATS

__all__ = [
    "SEAT_HELP",
    "SUITS",
    "SUIT_HELP",
    "MeldSerializer",
    "RulesSerializer",
    "TilesField",
    "rules_field",
    "seat_field",
    "void_suit_field",
    "void_suits_field",
]

TILES_SCHEMA = {
    "oneOf": [
        {"type": "string", "example": "123m456p77s"},
        {"type": "array", "items": {"type": "string", "example": "5p"}, "example": ["1m", "2m", "3m"]},
    ]
}
SUIT_HELP = "m 万 (characters), p 筒 (dots) or s 条 (bamboo)"
SEAT_HELP = "A seat, 0 to 3 in play order."


def seat_field(help_text: str = SEAT_HELP, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=SEATS[0], max_value=SEATS[-1], help_text=help_text, **kwargs)


def void_suit_field(**kwargs: Any) -> serializers.ChoiceField:
    """A declared void suit (定缺): one of the engine's suits, or null."""
    return serializers.ChoiceField(choices=list(SUITS), allow_null=True, **kwargs)


def void_suits_field(**kwargs: Any) -> serializers.ListField:
    """A round's void suits: one per seat, in seat order."""
    return serializers.ListField(
        child=void_suit_field(), min_length=len(SEATS), max_length=len(SEATS), required=False, **kwargs
    )


@extend_schema_field(TILES_SCHEMA)
class TilesField(serializers.JSONField):
    """Tiles as a compact string (``"123m456p77s"``, ``"23445677筒"``) or a list of single-tile strings."""


class MeldSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(
        choices=[kind.value for kind in MeldKind],
        help_text="碰 pung, 直杠 kong_direct, 弯杠/面下杠 kong_added or 暗杠 kong_concealed.",
    )
    tile = serializers.CharField(help_text='The meld\'s tile kind, e.g. "5p" (a pung of 5p is 555p).')


def _penalty_schema() -> dict[str, Any]:
    return {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["cap"]}]}


@extend_schema_field(_penalty_schema())
class PenaltyField(serializers.JSONField):
    """A whole number of b, or ``"cap"``."""


def _option_field(option: Option) -> serializers.Field[Any, Any, Any, Any]:
    """The documentation field of one rule option, built from the options table so the two cannot drift."""
    help_text = f"{option.meaning} {option.meaning_zh} Default: {option.default!s}."
    common: dict[str, Any] = {"required": False, "help_text": help_text}
    builders: dict[str, Callable[[], serializers.Field[Any, Any, Any, Any]]] = {
        "enum": lambda: serializers.ChoiceField(choices=list(option.choices), **common),
        "bool": lambda: serializers.BooleanField(allow_null=option.default is None, **common),
        "int": lambda: serializers.IntegerField(min_value=option.minimum, max_value=option.maximum, **common),
        "zero_or_one": lambda: serializers.IntegerField(min_value=0, max_value=1, **common),
        "cap_multiplier": lambda: serializers.IntegerField(min_value=2, allow_null=True, **common),
        "penalty": lambda: PenaltyField(**common),
        "rate": lambda: serializers.FloatField(min_value=0, max_value=0.999999, **common),
        "pattern_fan": lambda: serializers.DictField(
            child=serializers.IntegerField(min_value=1, max_value=16),
            **{**common, "help_text": f"{help_text} Keys: {', '.join(PATTERN_BY_KEY)}."},
        ),
    }
    return builders[option.kind]()


RulesSerializer: type[serializers.Serializer[Any]] = type(
    "RulesSerializer",
    (serializers.Serializer[Any],),
    {
        "__doc__": "House rules: a preset plus any option overrides (RULES.md section 11). Unlisted options "
        "take the preset's value.",
        "preset": serializers.ChoiceField(
            choices=[preset.value for preset in Preset],
            required=False,
            help_text="chengdu (default), qq (the QQ rules, literal) or casual (a common app-style game).",
        ),
        **{option.key: _option_field(option) for option in OPTIONS},
    },
)


def rules_field() -> serializers.Serializer[Any]:
    """A request's ``rules``: optional, the chengdu preset when left out."""
    return RulesSerializer(required=False, help_text='Default {"preset": "chengdu"}.')
