"""House rules: one frozen ``Rules`` value built from a preset plus overrides (RULES.md sections 3 to 11).

``Rules`` has one field per row of the options table (``options.py``) and takes its defaults from there.
``Rules.from_dict`` validates a request's ``rules`` object; ``Rules.to_dict`` gives it back in the same
shape, so a table can store its rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from decimal import Decimal
from typing import Any

from .errors import EngineError
from .limits import MAX_PAYMENT_POINTS
from .options import (
    CAP,
    OPTIONS,
    OPTIONS_BY_KEY,
    PRESETS,
    ChajiaoValue,
    DealerRule,
    DianGangHua,
    DirectKong,
    EscapedWinner,
    EscapePenaltyTo,
    GangShangPaoTransfer,
    HuazhuRecipients,
    Mode,
    MultiWin,
    MultiWinnerTransfer,
    OptionKind,
    Preset,
    QiangGangPayment,
    TianDiHu,
    ZimoBonus,
    json_value,
    parse_option,
    parse_preset,
)
from .patterns import PATTERN_BY_KEY, PATTERN_ROWS, YAO_JIU_JIANG_DUI


def option_default(key: str) -> Any:
    """An option's default as ``Rules`` stores it (a mapping as sorted pairs): read from the table."""
    default = OPTIONS_BY_KEY[key].default
    return tuple(sorted(default.items())) if isinstance(default, Mapping) else default


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules of one table. Build with ``Rules.from_dict``; never mutated."""

    preset: Preset = Preset.CHENGDU
    base_points: int = option_default("base_points")
    mode: Mode = option_default("mode")
    zimo_bonus: ZimoBonus = option_default("zimo_bonus")
    direct_kong: DirectKong = option_default("direct_kong")
    added_kong_points: int = option_default("added_kong_points")
    concealed_kong_points: int = option_default("concealed_kong_points")
    dingque: bool = option_default("dingque")
    huazhu_refunds_kongs: bool = option_default("huazhu_refunds_kongs")
    cap_multiplier: int | None = option_default("cap_multiplier")
    pattern_fan: tuple[tuple[str, int], ...] = option_default("pattern_fan")
    jin_gou_diao: bool = option_default("jin_gou_diao")
    jin_gou_diao_fan: int = option_default("jin_gou_diao_fan")
    hai_di: bool = option_default("hai_di")
    men_qing_zhong_zhang: bool = option_default("men_qing_zhong_zhang")
    men_qing: bool | None = option_default("men_qing")  # None: as men_qing_zhong_zhang
    zhong_zhang: bool | None = option_default("zhong_zhang")
    tax_rate: Decimal = option_default("tax_rate")
    dealer_rule: DealerRule = option_default("dealer_rule")
    tian_di_hu: TianDiHu = option_default("tian_di_hu")
    gen_counts_kongs: bool = option_default("gen_counts_kongs")
    gen_counts_pung_plus_held: bool = option_default("gen_counts_pung_plus_held")
    gang_shang_hua_fan: int = option_default("gang_shang_hua_fan")
    gang_shang_pao_fan: int = option_default("gang_shang_pao_fan")
    qiang_gang_fan: int = option_default("qiang_gang_fan")
    ting_requires_live_wait: bool = option_default("ting_requires_live_wait")
    huazhu_points: int | str = option_default("huazhu_points")
    escape_points: int | str = option_default("escape_points")
    multi_win: MultiWin = option_default("multi_win")
    qiang_gang_payment: QiangGangPayment = option_default("qiang_gang_payment")
    dian_gang_hua: DianGangHua = option_default("dian_gang_hua")
    gang_shang_pao_transfer: GangShangPaoTransfer = option_default("gang_shang_pao_transfer")
    multi_winner_transfer: MultiWinnerTransfer = option_default("multi_winner_transfer")
    huazhu_recipients: HuazhuRecipients = option_default("huazhu_recipients")
    huazhu_pays_chajiao: bool = option_default("huazhu_pays_chajiao")
    tui_shui: bool = option_default("tui_shui")
    refund_to_won_payers: bool = option_default("refund_to_won_payers")
    refund_when_nobody_ready: bool = option_default("refund_when_nobody_ready")
    escape_penalty_to: EscapePenaltyTo = option_default("escape_penalty_to")
    escaped_winner: EscapedWinner = option_default("escaped_winner")
    yao_jiu_jiang_dui: bool = option_default("yao_jiu_jiang_dui")
    jia_xin_wu: bool = option_default("jia_xin_wu")
    men_qing_needs_zimo: bool = option_default("men_qing_needs_zimo")
    chajiao_value: ChajiaoValue = option_default("chajiao_value")
    min_fan_to_win: int = option_default("min_fan_to_win")

    @classmethod
    def from_dict(cls, data: object = None, *, field_name: str = "rules") -> Rules:
        """Validate a ``rules`` object: a preset (default ``chengdu``) plus option overrides."""
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise EngineError("rules_not_an_object", field=field_name)
        preset = parse_preset(data.get("preset", Preset.CHENGDU.value), f"{field_name}.preset")
        values: dict[str, Any] = dict(PRESETS[preset])
        for key, raw in data.items():
            if key == "preset":
                continue
            option = OPTIONS_BY_KEY.get(key) if isinstance(key, str) else None
            if option is None:
                raise EngineError("rule_option_unknown", field=f"{field_name}.{key}", key=key)
            value = parse_option(option, raw, f"{field_name}.{key}")
            if option.kind is OptionKind.PATTERN_FAN:
                value = {**values.get(key, {}), **value}  # merged over the preset's own overrides
            values[key] = value
        if "pattern_fan" in values:
            values["pattern_fan"] = tuple(sorted(values["pattern_fan"].items()))
        rules = cls(preset=preset, **values)
        _check_cap_penalty(rules, field_name)
        return rules

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value, in the JSON shape ``from_dict`` takes."""
        out: dict[str, Any] = {"preset": self.preset.value}
        for option in OPTIONS:
            out[option.key] = json_value(getattr(self, option.key))
        return out

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the preset: the smallest dict ``from_dict`` turns back into self."""
        preset_rules = Rules.from_dict({"preset": self.preset.value})
        out: dict[str, Any] = {"preset": self.preset.value}
        for option in OPTIONS:
            mine = getattr(self, option.key)
            if mine != getattr(preset_rules, option.key):
                out[option.key] = json_value(mine)
        return out

    def with_options(self, **changes: Any) -> Rules:
        return replace(self, **changes)

    def pattern_value(self, key: str) -> int:
        """The fan a pattern is worth under these rules."""
        for pattern_key, fan in self.pattern_fan:
            if pattern_key == key:
                return fan
        return PATTERN_BY_KEY[key].fan

    @property
    def left_out_patterns(self) -> frozenset[str]:
        """The base patterns the table plays without (幺九将对 off, RULES.md 3.1)."""
        return frozenset() if self.yao_jiu_jiang_dui else YAO_JIU_JIANG_DUI

    @property
    def winners_play_on(self) -> bool:
        """血流成河 (RULES.md 7.1): a win takes nobody out of play."""
        return self.mode is Mode.XUELIU

    @property
    def counts_men_qing(self) -> bool:
        """门清 counts: ``men_qing`` when given, else ``men_qing_zhong_zhang`` (RULES.md 3.3)."""
        return self.men_qing_zhong_zhang if self.men_qing is None else self.men_qing

    @property
    def counts_zhong_zhang(self) -> bool:
        """中张 counts: ``zhong_zhang`` when given, else ``men_qing_zhong_zhang`` (RULES.md 3.3)."""
        return self.men_qing_zhong_zhang if self.zhong_zhang is None else self.zhong_zhang

    @property
    def self_draw_bonus(self) -> int:
        """自摸加底: what each payer of a self-draw share adds, in points (RULES.md 4.2), 0 unless jia_di."""
        return self.base_points if self.zimo_bonus is ZimoBonus.JIA_DI else 0

    @property
    def cap_points(self) -> int:
        """The cap amount in points: base x cap, or 16b when there is no cap (RULES.md 3.5)."""
        return self.base_points * (self.cap_multiplier or 16)

    def capped_multiplier(self, fan: int) -> int:
        multiplier = multiplier_of(fan)
        return multiplier if self.cap_multiplier is None else min(multiplier, self.cap_multiplier)

    def amount(self, fan: int) -> int:
        """What one payer pays for ``fan``: b x min(2^(fan-1), cap), before any 自摸加底."""
        return self.base_points * self.capped_multiplier(fan)

    def penalty(self, value: int | str) -> int:
        """A flower-pig or escape penalty in points: a number of b, or ``cap``."""
        return self.cap_points if value == CAP else self.base_points * int(value)


def _check_cap_penalty(rules: Rules, field_name: str) -> None:
    """A penalty of "cap" pays base x cap: with a huge cap and base that one payment would pass the bound."""
    uses_cap = CAP in (rules.huazhu_points, rules.escape_points)
    if uses_cap and rules.cap_points > MAX_PAYMENT_POINTS:
        raise EngineError(
            "cap_penalty_too_large",
            field=f"{field_name}.cap_multiplier",
            points=rules.cap_points,
            maximum=MAX_PAYMENT_POINTS,
        )


def multiplier_of(fan: int) -> int:
    """平胡 is 1 fan and x1: the multiplier is 2^(fan-1)."""
    return 1 << (fan - 1) if fan >= 1 else 1


DEFAULT_RULES = Rules()
# Every preset with all its values: what a rules form shows before the table changes anything.
PRESET_RULES: Mapping[Preset, Rules] = {
    preset: Rules.from_dict({"preset": preset.value}) for preset in Preset
}


def describe_rules() -> dict[str, Any]:
    """The body of ``GET /api/v1/rules/``: every option, and every preset with its full values."""
    return {
        "options": [option.describe() for option in OPTIONS],
        "presets": {preset.value: rules.to_dict() for preset, rules in PRESET_RULES.items()},
        "patterns": [
            {"key": pattern.key, "fan": pattern.fan, "name": pattern.name, "name_en": pattern.name_en}
            for pattern in PATTERN_ROWS
        ],
    }


assert {f.name for f in fields(Rules)} == {"preset", *OPTIONS_BY_KEY}, "Rules and OPTIONS must agree"  # noqa: S101 - an invariant checked at import
