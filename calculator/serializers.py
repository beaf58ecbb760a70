"""The shapes of the calculator API, for the OpenAPI schema only.

Nothing here validates a request: the views hand the body to ``calculator.engine.requests``, whose checks
are cheaper than a serializer's and give the same messages as the pages. These classes describe the
request and response bodies of API.md, field by field, so ``/api/docs/`` explains them.
"""

from typing import Any

from rest_framework import serializers

from api.hand_shapes import (
    SUIT_HELP,
    MeldSerializer,
    RulesSerializer,
    TilesField,
    rules_field,
    void_suit_field,
)
from calculator.engine import PATTERN_BY_KEY, REASON_CODES, WinBy


def _void_suit() -> serializers.ChoiceField:
    """Score's and waits' ``void_suit``: one for the hand, null when none was declared."""
    return void_suit_field(
        required=False, default=None, help_text=f"The declared void suit (定缺): {SUIT_HELP}, or null."
    )


class ScoreRequestSerializer(serializers.Serializer[Any]):
    """One winning hand: its concealed tiles, melds and winning tile, how it won, and the table's rules."""

    concealed = TilesField(help_text="The concealed tiles before the win, without win_tile. Required.")
    melds = MeldSerializer(many=True, required=False, help_text="Shown melds (default none).")
    win_tile = serializers.CharField(help_text='The winning tile, e.g. "9s". Required.')
    win_by = serializers.ChoiceField(
        choices=[how.value for how in WinBy],
        required=False,
        default=WinBy.DISCARD.value,
        help_text="How the hand won: discard (点炮), self_draw (自摸) or robbing_kong (抢杠胡).",
    )
    after_kong = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Won right after a kong: with self_draw it is 杠上花, with discard 杠上炮.",
    )
    last_tile = serializers.BooleanField(
        required=False, default=False, help_text="Won on the last wall tile or its discard (海底)."
    )
    tian_hu = serializers.BooleanField(
        required=False, default=False, help_text="天胡: the dealer's first 14 tiles win."
    )
    di_hu = serializers.BooleanField(
        required=False, default=False, help_text="地胡: a non-dealer wins in the first go-around."
    )
    void_suit = _void_suit()
    rules = rules_field()


class PatternSerializer(serializers.Serializer[Any]):
    key = serializers.ChoiceField(choices=list(PATTERN_BY_KEY), help_text="The base pattern's key.")
    name = serializers.CharField(help_text="Its Chinese name, e.g. 清一色.")
    name_en = serializers.CharField(help_text="Its English name, e.g. Full flush.")
    fan = serializers.IntegerField(help_text="Its fan under these rules.")


class ExtraSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(
        help_text="gang_shang_hua, gang_shang_pao, qiang_gang_hu, zi_mo_jia_fan, jin_gou_diao, "
        "hai_di_lao_yue, hai_di_pao, men_qing or zhong_zhang."
    )
    name = serializers.CharField(help_text="Its Chinese name, e.g. 杠上花.")
    name_en = serializers.CharField(help_text="Its English name.")
    fan = serializers.IntegerField(help_text="The fan it adds.")


class ScoreResultSerializer(serializers.Serializer[Any]):
    """The fan of the hand. Valid tiles that do not win give win false, a reason, and zeros."""

    win = serializers.BooleanField(help_text="Whether the tiles form a legal winning hand.")
    fan = serializers.IntegerField(
        help_text="Pattern + gen + extras, never capped; 平胡 is 1 fan (0: no win)."
    )
    multiplier = serializers.IntegerField(help_text="2^(fan-1), never capped (0: no win).")
    points = serializers.IntegerField(
        help_text="base x capped multiplier: what one payer pays, before any 自摸加底 (0: no win)."
    )
    capped = serializers.BooleanField(help_text="Whether the cap (封顶) lowered points.")
    pattern = PatternSerializer(allow_null=True, help_text="The one base pattern that counts (null: no win).")
    gen = serializers.IntegerField(help_text="根: kinds whose four copies are all in the hand.")
    extras = ExtraSerializer(many=True, help_text="Extra fan (杠上花, 海底, ...).")
    sets = serializers.ListField(
        child=serializers.CharField(),
        help_text='The decomposition that gave the best fan, e.g. ["11s", "222s", ...] (empty: no win).',
    )
    reason = serializers.CharField(required=False, help_text="Why the hand does not win (win false only).")
    reason_zh = serializers.CharField(required=False, help_text="The reason in Chinese (win false only).")
    reason_code = serializers.ChoiceField(
        choices=list(REASON_CODES),
        required=False,
        help_text="The reason as a stable code (win false only).",
    )


class WaitsRequestSerializer(serializers.Serializer[Any]):
    """A position: 13 - 3 x melds concealed tiles, or one more for a player holding a drawn tile."""

    concealed = TilesField(
        help_text="The concealed tiles: 13 - 3 x melds, or one more when the player holds a drawn tile. "
        "Required."
    )
    melds = MeldSerializer(many=True, required=False, help_text="Shown melds (default none).")
    void_suit = _void_suit()
    rules = rules_field()


class WaitSerializer(serializers.Serializer[Any]):
    tile = serializers.CharField(help_text="The tile waited on.")
    fan = serializers.IntegerField(help_text="Best-case fan on this tile for 查大叫 (no situational fan).")
    multiplier = serializers.IntegerField(help_text="2^(fan-1), never capped.")
    points = serializers.IntegerField(help_text="base x capped multiplier.")
    pattern = serializers.CharField(help_text="The base pattern's key.")
    gen = serializers.IntegerField(help_text="根 counted, the waiting tile included.")
    capped = serializers.BooleanField(help_text="Whether the cap lowered points.")


class DiscardWaitsSerializer(serializers.Serializer[Any]):
    discard = serializers.CharField(help_text="A discard that leaves a ready hand.")
    waits = WaitSerializer(many=True, help_text="The waits after that discard.")


class WaitsResultSerializer(serializers.Serializer[Any]):
    ready = serializers.BooleanField(help_text="有叫: some live tile completes a legal hand.")
    huazhu = serializers.BooleanField(
        help_text="花猪: the tiles hold all three suits, or the declared void suit."
    )
    waits = WaitSerializer(many=True, help_text="Every live wait (the best discard's, with 14 tiles).")
    best = WaitSerializer(allow_null=True, help_text="The best wait; null when not ready.")
    discards = DiscardWaitsSerializer(
        many=True,
        required=False,
        help_text="Only with one tile too many: each discard that leaves a ready hand.",
    )
    best_discard = serializers.CharField(
        required=False, allow_null=True, help_text="Only with one tile too many: the discard that gives best."
    )


class RuleOptionSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="The option's key in a rules object.")
    type = serializers.CharField(help_text="Its JSON type.")
    default = serializers.JSONField(help_text="Its default value (the chengdu preset's, before presets).")
    meaning = serializers.CharField(help_text="What it does, in English.")
    meaning_zh = serializers.CharField(help_text="What it does, in Chinese.")
    values = serializers.ListField(
        child=serializers.JSONField(), required=False, help_text="The allowed values, where listed."
    )
    minimum = serializers.IntegerField(required=False, help_text="The smallest allowed whole number.")
    keys = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="pattern_fan only: the pattern keys."
    )


class PatternFanSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="A base pattern's key.")
    fan = serializers.IntegerField(help_text="Its default fan.")


class RulesDescriptionSerializer(serializers.Serializer[Any]):
    options = RuleOptionSerializer(many=True, help_text="Every rule option.")
    presets = serializers.DictField(
        child=RulesSerializer(), help_text="Every preset by name, with the full value of every option."
    )
    patterns = PatternFanSerializer(many=True, help_text="The base patterns and their default fan.")
