"""House rules: one frozen ``Rules`` value built from a preset plus overrides (RULES.md sections 3 to 11).

Every option is a row of ``OPTIONS`` (its kind, default, allowed values and meaning), so validation,
``GET /api/v1/rules/`` and the pages all read the same table. ``Rules.from_dict`` validates a request's
``rules`` object; ``Rules.to_dict`` gives it back in the same shape, so a table can store its rules.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from .errors import EngineError


class Preset(enum.StrEnum):
    CHENGDU = "chengdu"
    QQ = "qq"
    CASUAL = "casual"


class Mode(enum.StrEnum):
    XUEZHAN = "xuezhan"
    NORMAL = "normal"


class ZimoBonus(enum.StrEnum):
    JIA_DI = "jia_di"
    JIA_FAN = "jia_fan"
    NONE = "none"


class DirectKong(enum.StrEnum):
    CHENGBAO = "chengbao"
    JIA_JIA_YOU = "jia_jia_you"
    FEEDER_1 = "feeder_1"


class TianDiHu(enum.StrEnum):
    REPLACE = "replace"
    STACK = "stack"
    OFF = "off"


class MultiWin(enum.StrEnum):
    ALL = "all"
    FIRST = "first"


class QiangGangPayment(enum.StrEnum):
    DISCARD = "discard"
    BAO = "bao"


class DianGangHua(enum.StrEnum):
    ZIMO = "zimo"
    DIANPAO = "dianpao"
    BAO = "bao"


class GangShangPaoTransfer(enum.StrEnum):
    LAST_KONG = "last_kong"
    ALL_KONGS = "all_kongs"
    NONE = "none"


class MultiWinnerTransfer(enum.StrEnum):
    EACH = "each"
    FIRST = "first"
    SPLIT = "split"


class HuazhuRecipients(enum.StrEnum):
    NON_HUAZHU = "non_huazhu"
    ACTIVE = "active"
    ACTIVE_READY = "active_ready"


class EscapePenaltyTo(enum.StrEnum):
    DISTRIBUTE = "distribute"
    BURN = "burn"


class EscapedWinner(enum.StrEnum):
    KEEP = "keep"
    FORFEIT = "forfeit"


class DealerRule(enum.StrEnum):
    FIRST_WINNER = "first_winner"
    DISCARDER = "discarder"
    FIRST_WINNER_MULTI_DISCARDER = "first_winner_multi_discarder"
    DICE = "dice"


# The base patterns of RULES.md 3.1 with their default fan, in the order of the table there.
PATTERN_DEFAULT_FAN: Mapping[str, int] = {
    "ping_hu": 1,
    "dui_dui_hu": 2,
    "qing_yi_se": 3,
    "dai_yao_jiu": 3,
    "qi_dui": 3,
    "qing_dui": 4,
    "jiang_dui": 4,
    "long_qi_dui": 5,
    "qing_qi_dui": 5,
    "qing_yao_jiu": 5,
    "qing_long_qi_dui": 6,
    "tian_hu": 6,
    "di_hu": 6,
}

CAP = "cap"  # huazhu_points / escape_points may name the cap amount instead of a number
MAX_FAN = 64  # far beyond any real hand; keeps 2 ** (fan - 1) a sane integer


@dataclass(frozen=True, slots=True)
class Option:
    """One row of the options table."""

    key: str
    kind: str  # "enum", "bool", "int", "cap_multiplier", "penalty", "zero_or_one", "rate", "pattern_fan"
    default: Any
    meaning: str
    meaning_zh: str
    choices: tuple[str, ...] = ()
    minimum: int = 0

    def describe(self) -> dict[str, Any]:
        described: dict[str, Any] = {
            "key": self.key,
            "type": OPTION_TYPES[self.kind],
            "default": _json_value(self.default),
            "meaning": self.meaning,
            "meaning_zh": self.meaning_zh,
        }
        if self.choices:
            described["values"] = list(self.choices)
        if self.kind == "int":
            described["minimum"] = self.minimum
        if self.kind == "zero_or_one":
            described["values"] = [0, 1]
        if self.kind == "cap_multiplier":
            described["values"] = ["null", "a power of two: 2, 4, 8, 16, 32, ..."]
        if self.kind == "penalty":
            described["values"] = ["a whole number of b (0 or more)", CAP]
        if self.kind == "pattern_fan":
            described["keys"] = list(PATTERN_DEFAULT_FAN)
        return described


OPTION_TYPES = {
    "enum": "string",
    "bool": "boolean",
    "int": "integer",
    "zero_or_one": "integer",
    "cap_multiplier": "integer or null",
    "penalty": 'integer or "cap"',
    "rate": "number",
    "pattern_fan": "object",
}


def _enum_option(key: str, enum_type: type[enum.StrEnum], default: enum.StrEnum, en: str, zh: str) -> Option:
    return Option(key, "enum", default, en, zh, tuple(member.value for member in enum_type))


OPTIONS: tuple[Option, ...] = (
    Option("base_points", "int", 1, "The base unit b (底分) in points.", "底分（每番基数）。", minimum=1),
    _enum_option(
        "mode",
        Mode,
        Mode.XUEZHAN,
        "xuezhan: blood battle, play on until three have won; normal: the first win ends the round.",
        "血战到底，或普通模式（一人胡牌即结束）。",
    ),
    _enum_option(
        "zimo_bonus",
        ZimoBonus,
        ZimoBonus.JIA_DI,
        "Self-draw bonus: each payer adds 1b (jia_di), +1 fan (jia_fan), or none.",
        "自摸加底（每家多付1底）、自摸加番或不加。",
    ),
    _enum_option(
        "direct_kong",
        DirectKong,
        DirectKong.CHENGBAO,
        "直杠: the feeder pays 2b (chengbao), the "
        "feeder 2b and every other active player 1b (jia_jia_you), or the feeder 1b (feeder_1).",
        "直杠：点杠者付2底（承包）、点杠者2底其余每家1底（家家有），或点杠者付1底。",
    ),
    Option(
        "added_kong_points",
        "int",
        1,
        "弯杠: what each active opponent pays, in b.",
        "弯杠（面下杠）每家付的底数。",
    ),
    Option(
        "concealed_kong_points", "int", 2, "暗杠: what each active opponent pays, in b.", "暗杠每家付的底数。"
    ),
    Option(
        "dingque",
        "bool",
        True,
        "定缺: each player declares a void suit; holding it at a draw makes a "
        "flower pig and a win may not contain it.",
        "定缺：胡牌不得有缺门的牌，流局时持有缺门牌算花猪。",
    ),
    Option(
        "huazhu_refunds_kongs",
        "bool",
        True,
        "A flower pig also returns his kong income at 退税.",
        "花猪也要退税（退还杠钱）。",
    ),
    Option(
        "cap_multiplier",
        "cap_multiplier",
        None,
        "封顶: the largest multiplier paid (null: no cap).",
        "封顶倍数（null 为不封顶）。",
    ),
    Option(
        "pattern_fan",
        "pattern_fan",
        {},
        'Fan of any base pattern, e.g. {"long_qi_dui": 4}.',
        '改写任何牌型的番数，如 {"long_qi_dui": 4}。',
    ),
    Option(
        "jin_gou_diao",
        "bool",
        False,
        "金钩钓: +1 fan when all four sets are melds and the win completes the pair.",
        "金钩钓：四组都已碰杠、单钓将牌胡牌，加1番。",
    ),
    Option(
        "hai_di",
        "bool",
        False,
        "海底捞月 / 海底炮: +1 fan for a win on the last tile.",
        "海底捞月、海底炮：最后一张牌胡牌加1番。",
    ),
    Option(
        "men_qing_zhong_zhang",
        "bool",
        False,
        "门清 and 中张 (断幺九): +1 fan each.",
        "门清、中张（断幺九）各加1番。",
    ),
    Option(
        "tax_rate",
        "rate",
        Decimal(0),
        "Coins: the share of each winner's coins the house keeps (0 to below 1).",
        "游戏币：赢家所得中房间抽取的比例（0 至小于 1）。",
    ),
    _enum_option("dealer_rule", DealerRule, DealerRule.FIRST_WINNER, "Who deals next.", "下一手的庄家。"),
    _enum_option(
        "tian_di_hu",
        TianDiHu,
        TianDiHu.REPLACE,
        "天胡/地胡: replace the pattern (at least 6 fan), stack 6 fan on it, or off.",
        "天胡/地胡：取代牌型（至少6番）、叠加6番，或不计。",
    ),
    Option("gen_counts_kongs", "bool", True, "Declared kongs count as gen (根).", "已开的杠算根。"),
    Option(
        "gen_counts_pung_plus_held",
        "bool",
        True,
        "A pung plus the fourth copy held counts as a gen.",
        "碰牌加手里第四张算根。",
    ),
    Option("gang_shang_hua_fan", "zero_or_one", 1, "杠上花 extra fan (0 or 1).", "杠上花加番（0或1）。"),
    Option("gang_shang_pao_fan", "zero_or_one", 1, "杠上炮 extra fan (0 or 1).", "杠上炮加番（0或1）。"),
    Option("qiang_gang_fan", "zero_or_one", 1, "抢杠胡 extra fan (0 or 1).", "抢杠胡加番（0或1）。"),
    Option(
        "ting_requires_live_wait",
        "bool",
        True,
        "A wait on a kind the player holds all four of does not count as ready.",
        "自己手中已有四张的牌不算叫。",
    ),
    Option(
        "huazhu_points",
        "penalty",
        16,
        '查花猪: what a flower pig pays each recipient, in b, or "cap".',
        '查花猪：花猪赔每家的底数，或 "cap"（封顶数）。',
    ),
    Option(
        "escape_points",
        "penalty",
        16,
        '逃跑: what an escaping player pays each active player, in b, or "cap".',
        '逃跑：逃跑者赔每家的底数，或 "cap"（封顶数）。',
    ),
    _enum_option(
        "multi_win",
        MultiWin,
        MultiWin.ALL,
        "一炮多响: every claimant wins (all), or only the first after the discarder (first, 截胡).",
        "一炮多响都算胡，或截胡（只算下家起第一个）。",
    ),
    _enum_option(
        "qiang_gang_payment",
        QiangGangPayment,
        QiangGangPayment.DISCARD,
        "抢杠胡: the robbed player pays as a discarder, or pays every opponent's self-draw share (bao).",
        "抢杠胡：被抢者按点炮付，或包赔自摸（包）。",
    ),
    _enum_option(
        "dian_gang_hua",
        DianGangHua,
        DianGangHua.ZIMO,
        "点杠花 (杠上花 after a direct kong): an "
        "ordinary self-draw, only the feeder pays one share, or the feeder pays every share.",
        "点杠花：按自摸算、按点炮算（点杠者付一份），或点杠者包赔。",
    ),
    _enum_option(
        "gang_shang_pao_transfer",
        GangShangPaoTransfer,
        GangShangPaoTransfer.LAST_KONG,
        "呼叫转移: the kong player hands the winner his income from the last kong, from all his "
        "kongs, or nothing.",
        "呼叫转移：杠上炮时转移最后一杠、全部杠钱，或不转移。",
    ),
    _enum_option(
        "multi_winner_transfer",
        MultiWinnerTransfer,
        MultiWinnerTransfer.EACH,
        "呼叫转移 with several winners: a full copy each, only the first winner, or split.",
        "一炮多响时的呼叫转移：每家一份、只给第一家，或平分。",
    ),
    _enum_option(
        "huazhu_recipients",
        HuazhuRecipients,
        HuazhuRecipients.NON_HUAZHU,
        "查花猪: who a pig "
        "pays: every non-pig who has not escaped, only non-pigs still in play, or only ready ones.",
        "查花猪赔给谁：所有非花猪（含已胡）、未胡的非花猪，或未胡且有叫的。",
    ),
    Option("huazhu_pays_chajiao", "bool", False, "A flower pig also pays 查大叫.", "花猪也要赔查大叫。"),
    Option(
        "refund_to_won_payers",
        "bool",
        True,
        "退税 also returns kong money to payers who have won.",
        "退税也退给已胡的人。",
    ),
    Option(
        "refund_when_nobody_ready",
        "bool",
        True,
        "退税 happens even when no opponent is ready.",
        "无人有叫时也退税。",
    ),
    _enum_option(
        "escape_penalty_to",
        EscapePenaltyTo,
        EscapePenaltyTo.DISTRIBUTE,
        "逃跑: the penalty goes to the other active players, or is burned (paid to the house).",
        "逃跑罚分给其他玩家，或交给房间（烧掉）。",
    ),
    _enum_option(
        "escaped_winner",
        EscapedWinner,
        EscapedWinner.KEEP,
        "A winner who leaves keeps his winnings, or forfeits them.",
        "已胡玩家离开：保留所得，或退回。",
    ),
)
OPTIONS_BY_KEY: Mapping[str, Option] = {option.key: option for option in OPTIONS}

PRESETS: Mapping[Preset, Mapping[str, Any]] = {
    Preset.CHENGDU: {},
    Preset.QQ: {
        "base_points": 6,
        "zimo_bonus": ZimoBonus.NONE,
        "direct_kong": DirectKong.FEEDER_1,
        "dingque": False,
        "huazhu_refunds_kongs": False,
        "tax_rate": Decimal("0.10"),
        "dealer_rule": DealerRule.DICE,
    },
    Preset.CASUAL: {
        "cap_multiplier": 16,
        "pattern_fan": {"long_qi_dui": 4},
        "jin_gou_diao": True,
        "hai_di": True,
    },
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules of one table. Build with ``Rules.from_dict``; never mutated."""

    preset: Preset = Preset.CHENGDU
    base_points: int = 1
    mode: Mode = Mode.XUEZHAN
    zimo_bonus: ZimoBonus = ZimoBonus.JIA_DI
    direct_kong: DirectKong = DirectKong.CHENGBAO
    added_kong_points: int = 1
    concealed_kong_points: int = 2
    dingque: bool = True
    huazhu_refunds_kongs: bool = True
    cap_multiplier: int | None = None
    pattern_fan: tuple[tuple[str, int], ...] = ()
    jin_gou_diao: bool = False
    hai_di: bool = False
    men_qing_zhong_zhang: bool = False
    tax_rate: Decimal = field(default=Decimal(0))
    dealer_rule: DealerRule = DealerRule.FIRST_WINNER
    tian_di_hu: TianDiHu = TianDiHu.REPLACE
    gen_counts_kongs: bool = True
    gen_counts_pung_plus_held: bool = True
    gang_shang_hua_fan: int = 1
    gang_shang_pao_fan: int = 1
    qiang_gang_fan: int = 1
    ting_requires_live_wait: bool = True
    huazhu_points: int | str = 16
    escape_points: int | str = 16
    multi_win: MultiWin = MultiWin.ALL
    qiang_gang_payment: QiangGangPayment = QiangGangPayment.DISCARD
    dian_gang_hua: DianGangHua = DianGangHua.ZIMO
    gang_shang_pao_transfer: GangShangPaoTransfer = GangShangPaoTransfer.LAST_KONG
    multi_winner_transfer: MultiWinnerTransfer = MultiWinnerTransfer.EACH
    huazhu_recipients: HuazhuRecipients = HuazhuRecipients.NON_HUAZHU
    huazhu_pays_chajiao: bool = False
    refund_to_won_payers: bool = True
    refund_when_nobody_ready: bool = True
    escape_penalty_to: EscapePenaltyTo = EscapePenaltyTo.DISTRIBUTE
    escaped_winner: EscapedWinner = EscapedWinner.KEEP

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None = None, *, field_name: str = "rules") -> Rules:
        """Validate a ``rules`` object: a preset (default ``chengdu``) plus option overrides."""
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise EngineError(
                field_name,
                'Rules must be an object such as {"preset": "chengdu"}.',
                '规则必须是一个对象，例如 {"preset": "chengdu"}。',
            )
        preset = _parse_preset(data.get("preset", Preset.CHENGDU.value), f"{field_name}.preset")
        values: dict[str, Any] = dict(PRESETS[preset])
        for key, raw in data.items():
            if key == "preset":
                continue
            option = OPTIONS_BY_KEY.get(key) if isinstance(key, str) else None
            if option is None:
                raise EngineError(
                    f"{field_name}.{key}", f"Unknown rule option '{key}'.", f"未知的规则选项“{key}”。"
                )
            value = _parse_option(option, raw, f"{field_name}.{key}")
            if option.kind == "pattern_fan":
                value = {**values.get(key, {}), **value}  # merged over the preset's own overrides
            values[key] = value
        if "pattern_fan" in values:
            values["pattern_fan"] = tuple(sorted(values["pattern_fan"].items()))
        return cls(preset=preset, **values)

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value, in the JSON shape ``from_dict`` takes."""
        out: dict[str, Any] = {"preset": self.preset.value}
        for option in OPTIONS:
            out[option.key] = _json_value(getattr(self, option.key))
        return out

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the preset: the smallest dict ``from_dict`` turns back into self."""
        preset_rules = Rules.from_dict({"preset": self.preset.value})
        out: dict[str, Any] = {"preset": self.preset.value}
        for option in OPTIONS:
            mine = getattr(self, option.key)
            if mine != getattr(preset_rules, option.key):
                out[option.key] = _json_value(mine)
        return out

    def with_options(self, **changes: Any) -> Rules:
        return replace(self, **changes)

    def pattern_value(self, key: str) -> int:
        """The fan a base pattern is worth under these rules."""
        for pattern_key, fan in self.pattern_fan:
            if pattern_key == key:
                return fan
        return PATTERN_DEFAULT_FAN[key]

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


def multiplier_of(fan: int) -> int:
    """平胡 is 1 fan and x1: the multiplier is 2^(fan-1)."""
    return 1 << (fan - 1) if fan >= 1 else 1


def _json_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, tuple):
        return dict(value)
    return value


def _parse_preset(raw: Any, field_name: str) -> Preset:
    try:
        return Preset(raw)
    except ValueError:
        choices = ", ".join(preset.value for preset in Preset)
        raise EngineError(
            field_name,
            f"Unknown preset {raw!r}: use one of {choices}.",
            f"未知的预设 {raw!r}，可选：{choices}。",
        ) from None


def _is_int(raw: Any) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool)


def _parse_option(option: Option, raw: Any, field_name: str) -> Any:
    parser = _PARSERS[option.kind]
    return parser(option, raw, field_name)


def _parse_enum(option: Option, raw: Any, field_name: str) -> Any:
    if isinstance(raw, str) and raw in option.choices:
        return type(option.default)(raw)
    choices = ", ".join(option.choices)
    raise EngineError(
        field_name,
        f"{option.key} must be one of {choices}; got {raw!r}.",
        f"{option.key} 只能是 {choices} 之一，收到 {raw!r}。",
    )


def _parse_bool(option: Option, raw: Any, field_name: str) -> bool:
    if isinstance(raw, bool):
        return raw
    raise EngineError(
        field_name,
        f"{option.key} must be true or false; got {raw!r}.",
        f"{option.key} 必须是 true 或 false，收到 {raw!r}。",
    )


def _parse_int(option: Option, raw: Any, field_name: str) -> int:
    if _is_int(raw) and option.minimum <= raw <= 10_000:
        return int(raw)
    raise EngineError(
        field_name,
        f"{option.key} must be a whole number from {option.minimum} to 10000; got {raw!r}.",
        f"{option.key} 必须是 {option.minimum} 到 10000 的整数，收到 {raw!r}。",
    )


def _parse_zero_or_one(option: Option, raw: Any, field_name: str) -> int:
    if _is_int(raw) and raw in (0, 1):
        return int(raw)
    raise EngineError(
        field_name,
        f"{option.key} must be 0 or 1; got {raw!r}.",
        f"{option.key} 只能是 0 或 1，收到 {raw!r}。",
    )


def _parse_cap_multiplier(option: Option, raw: Any, field_name: str) -> int | None:
    if raw is None:
        return None
    if _is_int(raw) and 2 <= raw <= 1 << 30 and raw & (raw - 1) == 0:
        return int(raw)
    raise EngineError(
        field_name,
        f"cap_multiplier must be null or a power of two such as 8, 16 or 32; got {raw!r}.",
        f"封顶倍数必须为 null 或 2 的幂（如 8、16、32），收到 {raw!r}。",
    )


def _parse_penalty(option: Option, raw: Any, field_name: str) -> int | str:
    if raw == CAP:
        return CAP
    if _is_int(raw) and 0 <= raw <= 10_000:
        return int(raw)
    raise EngineError(
        field_name,
        f'{option.key} must be a whole number of b (0 to 10000) or "cap"; got {raw!r}.',
        f'{option.key} 必须是 0 到 10000 的整数或 "cap"，收到 {raw!r}。',
    )


def _parse_rate(option: Option, raw: Any, field_name: str) -> Decimal:
    problem = (
        f"{option.key} must be a number from 0 up to (not including) 1, such as 0.1; got {raw!r}.",
        f"{option.key} 必须是 0 到 1（不含 1）之间的数，如 0.1，收到 {raw!r}。",
    )
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise EngineError(field_name, *problem)
    try:
        # str() first: a JSON 0.1 arrives as the float 0.1000000000000000055..., the table meant 0.1.
        rate = Decimal(str(raw))
    except InvalidOperation:
        raise EngineError(field_name, *problem) from None
    if not rate.is_finite() or not Decimal(0) <= rate < Decimal(1):
        raise EngineError(field_name, *problem)
    return rate


def _parse_pattern_fan(option: Option, raw: Any, field_name: str) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise EngineError(
            field_name,
            'pattern_fan must be an object of pattern keys and fan, e.g. {"long_qi_dui": 4}.',
            'pattern_fan 必须是牌型与番数的对象，如 {"long_qi_dui": 4}。',
        )
    parsed: dict[str, int] = {}
    for key, fan in raw.items():
        if key not in PATTERN_DEFAULT_FAN:
            raise EngineError(f"{field_name}.{key}", f"Unknown pattern '{key}'.", f"未知的牌型“{key}”。")
        if not _is_int(fan) or not 1 <= fan <= 16:
            raise EngineError(
                f"{field_name}.{key}",
                f"The fan of {key} must be a whole number from 1 to 16; got {fan!r}.",
                f"{key} 的番数必须是 1 到 16 的整数，收到 {fan!r}。",
            )
        parsed[key] = int(fan)
    return parsed


_PARSERS = {
    "enum": _parse_enum,
    "bool": _parse_bool,
    "int": _parse_int,
    "zero_or_one": _parse_zero_or_one,
    "cap_multiplier": _parse_cap_multiplier,
    "penalty": _parse_penalty,
    "rate": _parse_rate,
    "pattern_fan": _parse_pattern_fan,
}

DEFAULT_RULES = Rules()


def describe_rules() -> dict[str, Any]:
    """The body of ``GET /api/v1/rules/``: every option, and every preset with its full values."""
    return {
        "options": [option.describe() for option in OPTIONS],
        "presets": {preset.value: Rules.from_dict({"preset": preset.value}).to_dict() for preset in Preset},
        "patterns": [{"key": key, "fan": fan} for key, fan in PATTERN_DEFAULT_FAN.items()],
    }


assert {f.name for f in fields(Rules)} == {"preset", *OPTIONS_BY_KEY}, "Rules and OPTIONS must agree"
