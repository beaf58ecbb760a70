"""The options table: every house rule a table may set (RULES.md sections 3 to 11), one row each.

A row holds the option's kind, default and allowed values, the API's terse meaning, and what a page shows
a player: a label and an explanation in English and Chinese, and a name for each value of a closed set.
Validation (the parsers below, one per kind), ``Rules`` and its defaults, ``GET /api/v1/rules/`` and the
pages' rules forms all read this table, so an option is described in one place.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from .errors import EngineError
from .limits import MAX_FAN, MAX_OPTION_VALUE, MAX_PATTERN_FAN
from .patterns import PATTERN_BY_KEY


class Preset(enum.StrEnum):
    CHENGDU = "chengdu"
    QQ = "qq"
    CASUAL = "casual"


class Mode(enum.StrEnum):
    XUEZHAN = "xuezhan"
    NORMAL = "normal"
    XUELIU = "xueliu"


class ChajiaoValue(enum.StrEnum):
    MAX = "max"
    MIN = "min"


class ZimoBonus(enum.StrEnum):
    JIA_DI = "jia_di"
    JIA_FAN = "jia_fan"
    NONE = "none"


class DirectKong(enum.StrEnum):
    CHENGBAO = "chengbao"
    JIA_JIA_YOU = "jia_jia_you"
    FEEDER_1 = "feeder_1"
    EVERY_1 = "every_1"


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
    REFUND = "refund"


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


CAP = "cap"  # huazhu_points / escape_points may name the cap amount instead of a number


class OptionKind(enum.StrEnum):
    """How an option's value is written and checked; a page picks its input from it."""

    ENUM = "enum"
    BOOL = "bool"
    INT = "int"
    ZERO_OR_ONE = "zero_or_one"
    CAP_MULTIPLIER = "cap_multiplier"
    PENALTY = "penalty"
    RATE = "rate"
    PATTERN_FAN = "pattern_fan"


@dataclass(frozen=True, slots=True)
class ValueLabel:
    """What one allowed value of an option is called in English and in Chinese."""

    value: str | int | bool | None
    label: str
    label_zh: str

    def describe(self) -> dict[str, Any]:
        return {"value": self.value, "label": self.label, "label_zh": self.label_zh}


@dataclass(frozen=True, slots=True)
class Option:
    """One row of the options table.

    ``meaning`` is the terse developer's note of the API (kept word for word as the API has always given
    it; a value added later is described by its ``value_labels``); ``label`` and ``explanation``
    are what a page shows a player, in his words, in both languages; ``value_labels`` names each value
    of a closed set.
    """

    key: str
    kind: OptionKind
    default: Any
    meaning: str
    meaning_zh: str
    label: str
    label_zh: str
    explanation: str
    explanation_zh: str
    choices: tuple[str, ...] = ()
    value_labels: tuple[ValueLabel, ...] = ()
    minimum: int = 0
    maximum: int = MAX_OPTION_VALUE

    def describe(self) -> dict[str, Any]:
        described: dict[str, Any] = {
            "key": self.key,
            "type": OPTION_TYPES[self.kind],
            "default": json_value(self.default),
            "meaning": self.meaning,
            "meaning_zh": self.meaning_zh,
        }
        if self.choices:
            described["values"] = list(self.choices)
        if self.kind is OptionKind.INT:
            described["minimum"] = self.minimum
            described["maximum"] = self.maximum
        if self.kind is OptionKind.BOOL and self.default is None:
            described["type"] = "boolean or null"
            described["values"] = [None, True, False]
        if self.kind is OptionKind.ZERO_OR_ONE:
            described["values"] = [0, 1]
        if self.kind is OptionKind.CAP_MULTIPLIER:
            described["values"] = ["null", "a power of two: 2, 4, 8, 16, 32, ..."]
        if self.kind is OptionKind.PENALTY:
            described["values"] = ["a whole number of b (0 or more)", CAP]
        if self.kind is OptionKind.PATTERN_FAN:
            described["keys"] = list(PATTERN_BY_KEY)
        described |= {
            "label": self.label,
            "label_zh": self.label_zh,
            "explanation": self.explanation,
            "explanation_zh": self.explanation_zh,
        }
        if self.value_labels:
            described["value_labels"] = [value.describe() for value in self.value_labels]
        return described

    def value_label(self, value: str | int | bool | None, language: str) -> str:
        """The name of one value in ``language`` (a Django language code), the value itself if unnamed."""
        for named in self.value_labels:
            if named.value == value:
                return named.label_zh if language.lower().startswith("zh") else named.label
        return str(value)


OPTION_TYPES = {
    OptionKind.ENUM: "string",
    OptionKind.BOOL: "boolean",
    OptionKind.INT: "integer",
    OptionKind.ZERO_OR_ONE: "integer",
    OptionKind.CAP_MULTIPLIER: "integer or null",
    OptionKind.PENALTY: 'integer or "cap"',
    OptionKind.RATE: "number",
    OptionKind.PATTERN_FAN: "object",
}

Words = tuple[str, str]  # (English, Chinese)


def _option(
    key: str,
    kind: OptionKind,
    default: Any,
    meaning: Words,
    label: Words,
    explanation: Words,
    *,
    values: tuple[ValueLabel, ...] = (),
    minimum: int = 0,
    maximum: int = MAX_OPTION_VALUE,
) -> Option:
    return Option(
        key,
        kind,
        default,
        *meaning,
        *label,
        *explanation,
        value_labels=values,
        minimum=minimum,
        maximum=maximum,
    )


def _enum_option(
    key: str,
    default: enum.StrEnum,
    meaning: Words,
    label: Words,
    explanation: Words,
    values: Mapping[str, Words],
) -> Option:
    """An option whose values are the members of ``default``'s enum, each named in both languages."""
    members = tuple(member.value for member in type(default))
    assert tuple(values) == members, f"{key}: name every value, in the enum's order"  # noqa: S101 - an invariant of the option table, checked at import
    return Option(
        key,
        OptionKind.ENUM,
        default,
        *meaning,
        *label,
        *explanation,
        choices=members,
        value_labels=tuple(ValueLabel(value, *words) for value, words in values.items()),
    )


# The two values of an extra fan that is either counted or not (杠上花, 杠上炮, 抢杠胡).
_EXTRA_FAN_VALUES = (ValueLabel(0, "No extra fan", "不加番"), ValueLabel(1, "+1 fan", "加1番"))


def _extra_fan_option(key: str, name: str, label: Words, explanation: Words) -> Option:
    return _option(
        key,
        OptionKind.ZERO_OR_ONE,
        1,
        (f"{name} extra fan (0 or 1).", f"{name}加番（0或1）。"),
        label,
        explanation,
        values=_EXTRA_FAN_VALUES,
    )


OPTIONS: tuple[Option, ...] = (
    _option(
        "base_points",
        OptionKind.INT,
        1,
        ("The base unit b (底分) in points.", "底分（每番基数）。"),
        ("Base points", "底分"),
        (
            "How many points one base is worth: every payment is counted in bases.",
            "一底算多少分：所有输赢都按底数计算。",
        ),
        minimum=1,
    ),
    _enum_option(
        "mode",
        Mode.XUEZHAN,
        (
            "xuezhan: blood battle, play on until three have won; normal: the first win ends the round.",
            "血战到底，或普通模式（一人胡牌即结束）。",
        ),
        ("Game", "玩法"),
        (
            "Blood battle: after a win the others play on, until three players have won or the wall is "
            "empty. Normal: the first win ends the hand.",
            "血战到底：有人胡牌后其余玩家继续打，直到三家胡牌或牌墙摸完；普通：一人胡牌本局即结束。",
        ),
        {
            "xuezhan": ("Blood battle", "血战到底"),
            "normal": ("First win ends the hand", "一人胡牌即结束"),
            "xueliu": ("Winners play on (血流成河)", "血流成河"),
        },
    ),
    _enum_option(
        "zimo_bonus",
        ZimoBonus.JIA_DI,
        (
            "Self-draw bonus: each payer adds 1b (jia_di), +1 fan (jia_fan), or none.",
            "自摸加底（每家多付1底）、自摸加番或不加。",
        ),
        ("Self-draw bonus", "自摸奖励"),
        (
            "What a win on one's own drawn tile earns on top of the hand: each payer pays one base more, "
            "or the hand counts one fan more, or nothing.",
            "自摸胡牌在牌型之外多得什么：每家多付一底，或多算一番，或不加。",
        ),
        {
            "jia_di": ("+1 base per payer", "自摸加底"),
            "jia_fan": ("+1 fan", "自摸加番"),
            "none": ("No bonus", "不加"),
        },
    ),
    _enum_option(
        "direct_kong",
        DirectKong.CHENGBAO,
        (
            "直杠: the feeder pays 2b (chengbao), the "
            "feeder 2b and every other active player 1b (jia_jia_you), or the feeder 1b (feeder_1).",
            "直杠：点杠者付2底（承包）、点杠者2底其余每家1底（家家有），或点杠者付1底。",
        ),
        ("Kong on a discard (直杠)", "直杠（点杠）"),
        (
            "Who pays when a player makes a kong with the tile another player discarded.",
            "用别人打出的牌开杠时，谁付、付多少。",
        ),
        {
            "chengbao": ("The discarder pays 2 bases", "点杠者付2底（承包）"),
            "jia_jia_you": ("The discarder 2, everyone else 1", "点杠者2底，其余每家1底（家家有）"),
            "feeder_1": ("The discarder pays 1 base", "点杠者付1底"),
            "every_1": ("Everyone pays 1, the discarder too", "每家各付1底（含点杠者）"),
        },
    ),
    _option(
        "added_kong_points",
        OptionKind.INT,
        1,
        ("弯杠: what each active opponent pays, in b.", "弯杠（面下杠）每家付的底数。"),
        ("Added kong (弯杠), bases each", "弯杠（面下杠）每家底数"),
        (
            "When a player adds the fourth tile to his own pung, each player still in play pays him this "
            "many bases.",
            "自己碰的牌又摸到第四张补杠时，每位仍在牌局中的玩家付给他的底数。",
        ),
    ),
    _option(
        "concealed_kong_points",
        OptionKind.INT,
        2,
        ("暗杠: what each active opponent pays, in b.", "暗杠每家付的底数。"),
        ("Concealed kong (暗杠), bases each", "暗杠每家底数"),
        (
            "When a player makes a kong of four tiles he drew himself, each player still in play pays him "
            "this many bases.",
            "自己摸齐四张开暗杠时，每位仍在牌局中的玩家付给他的底数。",
        ),
    ),
    _option(
        "dingque",
        OptionKind.BOOL,
        True,
        (
            "定缺: each player declares a void suit; holding it at a draw makes a "
            "flower pig and a win may not contain it.",
            "定缺：胡牌不得有缺门的牌，流局时持有缺门牌算花猪。",
        ),
        ("Declare a void suit (定缺)", "定缺"),
        (
            "Each player names at the start one suit he will give up. A win may hold none of it, and a "
            "player still holding it when the wall is empty is a flower pig.",
            "每人开局选定一门不要的花色：胡牌时不能有这门牌，流局时手里还有这门牌就是花猪。",
        ),
    ),
    _option(
        "huazhu_refunds_kongs",
        OptionKind.BOOL,
        True,
        ("A flower pig also returns his kong income at 退税.", "花猪也要退税（退还杠钱）。"),
        ("A flower pig returns his kong money", "花猪退杠钱"),
        (
            "When the wall is empty, a flower pig gives back the kong money he collected in the hand.",
            "流局时，花猪要退还本局收到的杠钱。",
        ),
    ),
    _option(
        "cap_multiplier",
        OptionKind.CAP_MULTIPLIER,
        None,
        ("封顶: the largest multiplier paid (null: no cap).", "封顶倍数（null 为不封顶）。"),
        ("Cap (封顶)", "封顶"),
        (
            "The most a win is multiplied by: with a cap of 8, no payer pays more than 8 bases for a "
            "hand, however many fan it has. Empty: no cap.",
            "胡牌最多按几倍付：如 8 倍封顶，无论多少番，每家最多付 8 底。不填为不封顶。",
        ),
        # Named as Chengdu tables say it, counting 平胡 as 0 fan: "N番封顶" is x 2^N (RULES.md 3.5).
        values=(
            ValueLabel(None, "No cap", "不封顶"),
            *(
                ValueLabel(1 << fan, f"Capped at {fan} fan (×{1 << fan})", f"{fan}番封顶 (×{1 << fan})")
                for fan in range(1, 9)
            ),
        ),
    ),
    _option(
        "pattern_fan",
        OptionKind.PATTERN_FAN,
        {},
        ('Fan of any base pattern, e.g. {"long_qi_dui": 4}.', '改写任何牌型的番数，如 {"long_qi_dui": 4}。'),
        ("Pattern values", "牌型番数"),
        (
            "Change how many fan a hand pattern is worth, for example seven pairs with four of a kind "
            "(龙七对) at 4 instead of 5.",
            "改写某个牌型值几番，例如龙七对算 4 番而不是 5 番。",
        ),
    ),
    _option(
        "jin_gou_diao",
        OptionKind.BOOL,
        False,
        (
            "金钩钓: +1 fan when all four sets are melds and the win completes the pair.",
            "金钩钓：四组都已碰杠、单钓将牌胡牌，加1番。",
        ),
        ("Golden hook (金钩钓)", "金钩钓"),
        (
            "Extra fan when all four sets are shown pungs or kongs and the win is on the single tile "
            "that makes the pair.",
            "四组牌都已碰或杠出、单钓一张将牌胡牌时加番。",
        ),
    ),
    _option(
        "jin_gou_diao_fan",
        OptionKind.INT,
        1,
        ("金钩钓: its fan when on (1 or 2).", "金钩钓的番数（1或2）。"),
        ("Golden hook (金钩钓) worth", "金钩钓番数"),
        (
            "How many fan the golden hook adds when it counts: one, or two as some tables play it.",
            "金钩钓计番时加几番：1番，或有些牌桌算2番。",
        ),
        values=(ValueLabel(1, "+1 fan", "加1番"), ValueLabel(2, "+2 fan", "加2番")),
        minimum=1,
        maximum=2,
    ),
    _option(
        "hai_di",
        OptionKind.BOOL,
        False,
        ("海底捞月 / 海底炮: +1 fan for a win on the last tile.", "海底捞月、海底炮：最后一张牌胡牌加1番。"),
        ("Last tile (海底)", "海底捞月、海底炮"),
        (
            "+1 fan for a win on the very last tile of the wall, or on the tile discarded after it.",
            "摸最后一张牌自摸，或胡最后一张牌之后打出的牌，加1番。",
        ),
    ),
    _option(
        "men_qing_zhong_zhang",
        OptionKind.BOOL,
        False,
        ("门清 and 中张 (断幺九): +1 fan each.", "门清、中张（断幺九）各加1番。"),
        ("Concealed hand and no 1s or 9s", "门清、中张"),
        (
            "+1 fan for a hand with no pung and no kong on another's tile (a concealed kong is allowed), "
            "and +1 fan for a hand without any 1 or 9. Either can also be switched on or off alone.",
            "没有碰、没有明杠（暗杠可以）加1番；整手牌没有1和9也加1番。两者也可以单独开关。",
        ),
    ),
    _option(
        "men_qing",
        OptionKind.BOOL,
        None,
        (
            "门清 alone: +1 fan with no pung, 直杠 or 弯杠 (null: as men_qing_zhong_zhang).",
            "单独设置门清加1番（null 为跟随“门清、中张”）。",
        ),
        ("Concealed hand (门清)", "门清"),
        (
            "+1 fan for a hand with no pung and no kong on another's tile (a concealed kong is allowed). "
            "Left unset, it follows the concealed-hand-and-no-1s-or-9s option.",
            "没有碰、没有明杠（暗杠可以）加1番。不设置时跟随“门清、中张”。",
        ),
        values=(
            ValueLabel(None, "As the combined option", "跟随“门清、中张”"),
            ValueLabel(True, "+1 fan", "加1番"),
            ValueLabel(False, "Not counted", "不算"),
        ),
    ),
    _option(
        "zhong_zhang",
        OptionKind.BOOL,
        None,
        (
            "中张 (断幺九) alone: +1 fan with no 1 or 9 (null: as men_qing_zhong_zhang).",
            "单独设置中张（断幺九）加1番（null 为跟随“门清、中张”）。",
        ),
        ("No 1s or 9s (中张)", "中张（断幺九）"),
        (
            "+1 fan for a hand without any 1 or 9. Left unset, it follows the "
            "concealed-hand-and-no-1s-or-9s option.",
            "整手牌没有1和9加1番。不设置时跟随“门清、中张”。",
        ),
        values=(
            ValueLabel(None, "As the combined option", "跟随“门清、中张”"),
            ValueLabel(True, "+1 fan", "加1番"),
            ValueLabel(False, "Not counted", "不算"),
        ),
    ),
    _option(
        "tax_rate",
        OptionKind.RATE,
        Decimal(0),
        (
            "Coins: the share of each winner's coins the house keeps (0 to below 1).",
            "游戏币：赢家所得中房间抽取的比例（0 至小于 1）。",
        ),
        ("House share of coins", "游戏币抽成"),
        (
            "For games played for coins: the part of each winner's coins the room keeps, from 0 up to "
            "but not including 1 (0.1 is 10%).",
            "游戏币场：房间从每位赢家所得中抽取的比例，从 0 到小于 1（0.1 即 10%）。",
        ),
    ),
    _enum_option(
        "dealer_rule",
        DealerRule.FIRST_WINNER,
        ("Who deals next.", "下一手的庄家。"),
        ("Next dealer", "下一局庄家"),
        ("Who deals the next hand.", "下一局由谁坐庄。"),
        {
            "first_winner": ("The first to win", "第一个胡牌的人"),
            "discarder": ("Who dealt into the first win", "第一个点炮的人"),
            "first_winner_multi_discarder": (
                "The first to win; the discarder when several won on one tile",
                "第一个胡牌的人；一炮多响时为点炮的人",
            ),
            "dice": ("Roll the dice", "掷骰子决定"),
        },
    ),
    _enum_option(
        "tian_di_hu",
        TianDiHu.REPLACE,
        (
            "天胡/地胡: replace the pattern (at least 6 fan), stack 6 fan on it, or off.",
            "天胡/地胡：取代牌型（至少6番）、叠加6番，或不计。",
        ),
        ("Heavenly and earthly hands (天胡, 地胡)", "天胡、地胡"),
        (
            "How it counts when the dealer wins on his first fourteen tiles (天胡), or another player wins "
            "in the first go-around (地胡).",
            "庄家起手十四张就胡（天胡），或闲家第一轮就胡（地胡）时怎么算。",
        ),
        {
            "replace": ("Worth at least 6 fan", "至少算6番"),
            "stack": ("6 fan on top of the hand", "在牌型上再加6番"),
            "off": ("Not counted", "不算"),
        },
    ),
    _option(
        "gen_counts_kongs",
        OptionKind.BOOL,
        True,
        ("Declared kongs count as gen (根).", "已开的杠算根。"),
        ("A kong counts as a gen (根)", "杠算根"),
        (
            "A kong the player has made counts as a gen (+1 fan), like four of a kind kept in hand.",
            "已经开出的杠也算一根（加1番），和手里藏着的四张一样。",
        ),
    ),
    _option(
        "gen_counts_pung_plus_held",
        OptionKind.BOOL,
        True,
        ("A pung plus the fourth copy held counts as a gen.", "碰牌加手里第四张算根。"),
        ("A pung with its fourth tile in hand is a gen", "碰牌加第四张算根"),
        (
            "A pung whose fourth tile the player holds in his hand counts as a gen (+1 fan).",
            "碰了的牌，手里还有第四张，也算一根（加1番）。",
        ),
    ),
    _extra_fan_option(
        "gang_shang_hua_fan",
        "杠上花",
        ("Win on a kong's replacement tile (杠上花)", "杠上花"),
        (
            "Whether a self-drawn win on the replacement tile after one's own kong earns one more fan.",
            "自己开杠后补牌自摸胡牌，是否多算一番。",
        ),
    ),
    _extra_fan_option(
        "gang_shang_pao_fan",
        "杠上炮",
        ("Win on a discard after a kong (杠上炮)", "杠上炮"),
        (
            "Whether winning on the tile a player discards right after his kong earns one more fan.",
            "胡别人开杠后打出的那张牌，是否多算一番。",
        ),
    ),
    _extra_fan_option(
        "qiang_gang_fan",
        "抢杠胡",
        ("Robbing a kong (抢杠胡)", "抢杠胡"),
        (
            "Whether winning on the tile a player adds to his pung earns one more fan.",
            "抢别人补杠的那张牌胡牌，是否多算一番。",
        ),
    ),
    _option(
        "ting_requires_live_wait",
        OptionKind.BOOL,
        True,
        (
            "A wait on a kind the player holds all four of does not count as ready.",
            "自己手中已有四张的牌不算叫。",
        ),
        ("A wait on one's own four tiles is not ready", "听自己已有四张的牌不算叫"),
        (
            "When the wall is empty, a player who waits only on a tile he already holds all four of "
            "counts as not ready.",
            "流局时，只听自己手里已有四张的牌，算没叫。",
        ),
    ),
    _option(
        "huazhu_points",
        OptionKind.PENALTY,
        16,
        (
            '查花猪: what a flower pig pays each recipient, in b, or "cap".',
            '查花猪：花猪赔每家的底数，或 "cap"（封顶数）。',
        ),
        ("Flower pig penalty (查花猪)", "查花猪赔付"),
        (
            "When the wall is empty, what a flower pig pays each player he owes, in bases, or the cap "
            "amount.",
            "流局时花猪赔给每家的底数，或按封顶数赔。",
        ),
    ),
    _option(
        "escape_points",
        OptionKind.PENALTY,
        16,
        (
            '逃跑: what an escaping player pays each active player, in b, or "cap".',
            '逃跑：逃跑者赔每家的底数，或 "cap"（封顶数）。',
        ),
        ("Escape penalty (逃跑)", "逃跑赔付"),
        (
            "What a player who leaves in the middle of a hand pays each player still in play, in bases, "
            "or the cap amount.",
            "中途离开的玩家赔给每位仍在牌局中的玩家的底数，或按封顶数赔。",
        ),
    ),
    _enum_option(
        "multi_win",
        MultiWin.ALL,
        (
            "一炮多响: every claimant wins (all), or only the first after the discarder (first, 截胡).",
            "一炮多响都算胡，或截胡（只算下家起第一个）。",
        ),
        ("Several players win on one tile (一炮多响)", "一炮多响"),
        (
            "When more than one player can win on the same discarded tile.",
            "多人都能胡同一张打出的牌时怎么算。",
        ),
        {
            "all": ("Everyone wins", "都算胡"),
            "first": ("Only the next in turn wins (截胡)", "只算下家起第一个（截胡）"),
        },
    ),
    _enum_option(
        "qiang_gang_payment",
        QiangGangPayment.DISCARD,
        (
            "抢杠胡: the robbed player pays as a discarder, or pays every opponent's self-draw share (bao).",
            "抢杠胡：被抢者按点炮付，或包赔自摸（包）。",
        ),
        ("Who pays for a robbed kong", "抢杠胡谁付"),
        (
            "When a player wins on the tile another adds to his pung, the robbed player pays as for a "
            "discard, or pays for everyone as if the winner had drawn it himself.",
            "抢杠胡时，被抢杠的人按点炮付，或按自摸替每家包赔。",
        ),
        {
            "discard": ("As for a discard", "按点炮付"),
            "bao": ("Pays everyone's self-draw share", "按自摸包赔"),
        },
    ),
    _enum_option(
        "dian_gang_hua",
        DianGangHua.ZIMO,
        (
            "点杠花 (杠上花 after a direct kong): an "
            "ordinary self-draw, only the feeder pays one share, or the feeder pays every share.",
            "点杠花：按自摸算、按点炮算（点杠者付一份），或点杠者包赔。",
        ),
        ("Win on the replacement of a kong on a discard (点杠花)", "点杠花"),
        (
            "When a player wins on the replacement tile of a kong he made with another's discard: an "
            "ordinary self-draw, or the discarder pays alone.",
            "用别人点的杠开杠后杠上开花：按自摸算，或由点杠的人一个人付。",
        ),
        {
            "zimo": ("An ordinary self-draw", "按自摸算"),
            "dianpao": ("The discarder pays one share", "点杠者付一份（按点炮）"),
            "bao": ("The discarder pays every share", "点杠者包赔"),
        },
    ),
    _enum_option(
        "gang_shang_pao_transfer",
        GangShangPaoTransfer.LAST_KONG,
        (
            "呼叫转移: the kong player hands the winner his income from the last kong, from all his "
            "kongs, or nothing.",
            "呼叫转移：杠上炮时转移最后一杠、全部杠钱，或不转移。",
        ),
        ("Kong money after 杠上炮 (呼叫转移)", "呼叫转移"),
        (
            "When the tile a player discards right after his kong is won, what becomes of the kong money "
            "he collected.",
            "开杠后打出的牌被人胡（杠上炮）时，他收的杠钱怎么办。",
        ),
        {
            "last_kong": ("The last kong's money goes to the winner", "最后一杠的钱转给胡牌的人"),
            "all_kongs": ("All his kong money goes to the winner", "全部杠钱转给胡牌的人"),
            "none": ("He keeps it", "不转移"),
            "refund": ("The last kong's money goes back to who paid it", "退杠：最后一杠的钱退还给付钱的人"),
        },
    ),
    _enum_option(
        "multi_winner_transfer",
        MultiWinnerTransfer.EACH,
        (
            "呼叫转移 with several winners: a full copy each, only the first winner, or split.",
            "一炮多响时的呼叫转移：每家一份、只给第一家，或平分。",
        ),
        ("Kong money to several winners", "多人胡时的呼叫转移"),
        (
            "When several players win on that discard, how the kong money handed over is shared.",
            "杠上炮被几家同时胡时，转移的杠钱怎么分。",
        ),
        {
            "each": ("A full amount each", "每家一份"),
            "first": ("Only the first winner", "只给第一个胡牌的人"),
            "split": ("Shared equally", "平分"),
        },
    ),
    _enum_option(
        "huazhu_recipients",
        HuazhuRecipients.NON_HUAZHU,
        (
            "查花猪: who a pig "
            "pays: every non-pig who has not escaped, only non-pigs still in play, or only ready ones.",
            "查花猪赔给谁：所有非花猪（含已胡）、未胡的非花猪，或未胡且有叫的。",
        ),
        ("Who a flower pig pays", "花猪赔给谁"),
        ("When the wall is empty, which players a flower pig pays.", "流局时花猪赔给哪些玩家。"),
        {
            "non_huazhu": ("Everyone who is not a pig, winners too", "所有不是花猪的人（含已胡）"),
            "active": ("Players still in play who are not pigs", "仍在牌局中、不是花猪的人"),
            "active_ready": ("Ready players still in play", "仍在牌局中且有叫的人"),
        },
    ),
    _option(
        "huazhu_pays_chajiao",
        OptionKind.BOOL,
        False,
        ("A flower pig also pays 查大叫.", "花猪也要赔查大叫。"),
        ("A flower pig also pays the ready players (查大叫)", "花猪也赔查大叫"),
        (
            "Besides his penalty, a flower pig also pays every ready player as a player who is not ready "
            "does.",
            "花猪除了赔花猪，还要像没叫的人一样赔给有叫的人。",
        ),
    ),
    _option(
        "tui_shui",
        OptionKind.BOOL,
        True,
        (
            "退税 at a 流局: players not ready return their kong income (false: no 退税 at all).",
            "流局时没叫的人退还杠钱（false 为流局不退税）。",
        ),
        ("Kong money back at the end (退税)", "退税"),
        (
            "When the wall is empty, a player who is not ready gives back the kong money he collected. "
            "Off: nobody gives any back then (a player who leaves still does).",
            "流局时，没叫的人要退还收到的杠钱。关闭则流局不退（中途逃跑的人仍要退）。",
        ),
    ),
    _option(
        "refund_to_won_payers",
        OptionKind.BOOL,
        True,
        ("退税 also returns kong money to payers who have won.", "退税也退给已胡的人。"),
        ("Kong money back to players who won too", "退税也退给已胡的人"),
        (
            "When kong money is given back at the end of the wall, players who have already won get "
            "back what they paid too.",
            "流局退杠钱时，已经胡牌的人付过的杠钱也退给他。",
        ),
    ),
    _option(
        "refund_when_nobody_ready",
        OptionKind.BOOL,
        True,
        ("退税 happens even when no opponent is ready.", "无人有叫时也退税。"),
        ("Kong money back even when nobody is ready", "无人有叫也退税"),
        (
            "A player who is not ready at the end of the wall gives back his kong money even when no "
            "other player is ready.",
            "流局时即使没有人有叫，没叫的人也要退还杠钱。",
        ),
    ),
    _enum_option(
        "escape_penalty_to",
        EscapePenaltyTo.DISTRIBUTE,
        (
            "逃跑: the penalty goes to the other active players, or is burned (paid to the house).",
            "逃跑罚分给其他玩家，或交给房间（烧掉）。",
        ),
        ("Who gets the escape penalty", "逃跑罚分归谁"),
        (
            "The penalty of a player who leaves goes to the players still in play, or leaves the table.",
            "逃跑者的罚分给仍在牌局中的玩家，或交给房间。",
        ),
        {
            "distribute": ("The other players", "其他玩家"),
            "burn": ("The house (burned)", "交给房间（烧掉）"),
        },
    ),
    _enum_option(
        "escaped_winner",
        EscapedWinner.KEEP,
        ("A winner who leaves keeps his winnings, or forfeits them.", "已胡玩家离开：保留所得，或退回。"),
        ("A winner who leaves", "已胡玩家离开"),
        (
            "A player who has already won and then leaves keeps what he won, or gives it back.",
            "已经胡牌的玩家中途离开时，保留所得，或退回。",
        ),
        {
            "keep": ("Keeps his winnings", "保留所得"),
            "forfeit": ("Gives them back", "退回所得"),
        },
    ),
    _option(
        "yao_jiu_jiang_dui",
        OptionKind.BOOL,
        True,
        (
            "幺九将对: false takes 带幺九, 清幺九 and 将对 out of the pattern table.",
            "幺九将对：关闭则不算带幺九、清幺九和将对。",
        ),
        ("Terminals and 2-5-8 pungs (幺九将对)", "幺九将对"),
        (
            "Whether a hand with a 1 or 9 in every set (带幺九, 清幺九) and all pungs of 2, 5 and 8 "
            "(将对) count as patterns. Off: such a hand scores as the plain pattern it also is (平胡, "
            "对对胡, 清一色 or 清对).",
            "带幺九、清幺九（每组都带1或9）和将对（全是2、5、8的对对胡）算不算番型。关闭时这样的牌按它本来的"
            "牌型算（平胡、对对胡、清一色或清对）。",
        ),
    ),
    _option(
        "jia_xin_wu",
        OptionKind.BOOL,
        False,
        (
            "夹心五: +1 fan when the winning tile is a 5 completing a concealed 4-5-6 as its middle tile.",
            "夹心五：胡的是5、且夹在手里的4和6中间成顺子，加1番。",
        ),
        ("Five in the middle (夹心五)", "夹心五"),
        (
            "+1 fan when a player wins on a 5 that sits between his own 4 and 6 of the same suit (a run "
            "4-5-6 in his hand). Never for seven pairs.",
            "胡的那张是5，正好夹在自己手里同花色的4和6中间成顺子时加1番。七对不算。",
        ),
    ),
    _option(
        "men_qing_needs_zimo",
        OptionKind.BOOL,
        False,
        (
            "门清 counts only on a self-draw (杠上花 included).",
            "门清只在自摸（含杠上花）时才算。",
        ),
        ("Concealed hand (门清) only on a self-draw", "门清须自摸"),
        (
            "When the concealed-hand fan is on, it counts only if the player drew the winning tile "
            "himself, not on another's discard or a robbed kong.",
            "门清开启时，只有自己摸到胡牌才算门清，点炮或抢杠胡不算。",
        ),
    ),
    _enum_option(
        "chajiao_value",
        ChajiaoValue.MAX,
        (
            "查叫 at a 流局: a ready player is paid his best possible fan (max, 查大叫) or his smallest "
            "(min, 查小叫).",
            "流局查叫：按最大可能番数（查大叫）或最小番数（查小叫）赔。",
        ),
        ("Paying the ready players at the end (查叫)", "查大叫 / 查小叫"),
        (
            "When the wall is empty, a player who is not ready pays each ready player as if that player "
            "had won: on his best waiting tile, or on his smallest.",
            "流局时没叫的人赔有叫的人，按有叫的人听的牌里最大的番（查大叫）或最小的番（查小叫）算。",
        ),
        {
            "max": ("His best waiting tile (查大叫)", "按最大番（查大叫）"),
            "min": ("His smallest waiting tile (查小叫)", "按最小番（查小叫）"),
        },
    ),
    _option(
        "min_fan_to_win",
        OptionKind.INT,
        1,
        (
            "N番起胡: the least fan (平胡 = 1) a win must have; waits below it do not count as ready.",
            "N番起胡：胡牌至少要有的番数（平胡算1番）；不够的叫不算有叫。",
        ),
        ("Least a win must be worth (起胡)", "起胡"),
        (
            "The smallest hand a player may win with, counting a plain hand (平胡) as 1 fan. A hand worth "
            "less may not win, and a player waiting only for such a hand is not ready.",
            "胡牌最少要多大（平胡算1番）：不够的牌不能胡，只听这种牌也不算有叫。",
        ),
        values=(
            ValueLabel(1, "Any hand wins", "平胡就能胡"),
            ValueLabel(2, "A plain hand (平胡) cannot win", "平胡不能胡"),
            ValueLabel(3, "A plain hand needs two more fan", "平胡至少再加两番"),
        ),
        minimum=1,
        maximum=MAX_FAN,
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


def json_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, tuple):
        return dict(value)
    return value


def parse_preset(raw: Any, field_name: str) -> Preset:
    try:
        return Preset(raw)
    except ValueError:
        choices = ", ".join(preset.value for preset in Preset)
        raise EngineError("preset_unknown", field=field_name, value=raw, choices=choices) from None


def _is_int(raw: Any) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool)


def parse_option(option: Option, raw: Any, field_name: str) -> Any:
    parser = _PARSERS[option.kind]
    return parser(option, raw, field_name)


def _parse_enum(option: Option, raw: Any, field_name: str) -> Any:
    if isinstance(raw, str) and raw in option.choices:
        return type(option.default)(raw)
    choices = ", ".join(option.choices)
    raise EngineError("option_choice", field=field_name, key=option.key, choices=choices, value=raw)


def _parse_bool(option: Option, raw: Any, field_name: str) -> bool | None:
    if isinstance(raw, bool):
        return raw
    if raw is None and option.default is None:  # "as another option says" (men_qing, zhong_zhang)
        return None
    raise EngineError("not_a_boolean", field=field_name, name=option.key, value=raw)


def _parse_int(option: Option, raw: Any, field_name: str) -> int:
    if _is_int(raw) and option.minimum <= raw <= option.maximum:
        return int(raw)
    raise EngineError(
        "option_whole_number",
        field=field_name,
        key=option.key,
        minimum=option.minimum,
        maximum=option.maximum,
        value=raw,
    )


def _parse_zero_or_one(option: Option, raw: Any, field_name: str) -> int:
    if _is_int(raw) and raw in (0, 1):
        return int(raw)
    raise EngineError("option_zero_or_one", field=field_name, key=option.key, value=raw)


def _parse_cap_multiplier(option: Option, raw: Any, field_name: str) -> int | None:
    if raw is None:
        return None
    if _is_int(raw) and 2 <= raw <= 1 << 30 and raw & (raw - 1) == 0:
        return int(raw)
    raise EngineError("cap_multiplier", field=field_name, value=raw)


def _parse_penalty(option: Option, raw: Any, field_name: str) -> int | str:
    if raw == CAP:
        return CAP
    if _is_int(raw) and 0 <= raw <= MAX_OPTION_VALUE:
        return int(raw)
    raise EngineError("option_penalty", field=field_name, key=option.key, maximum=MAX_OPTION_VALUE, value=raw)


def _parse_rate(option: Option, raw: Any, field_name: str) -> Decimal:
    rate = _rate(raw)
    if rate is None:
        raise EngineError("option_rate", field=field_name, key=option.key, value=raw)
    return rate


def _rate(raw: Any) -> Decimal | None:
    """``raw`` as a rate from 0 up to (not including) 1, or None."""
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        return None
    try:
        # str() first: a JSON 0.1 arrives as the float 0.1000000000000000055..., the table meant 0.1.
        rate = Decimal(str(raw))
    except InvalidOperation:
        return None
    return rate if rate.is_finite() and Decimal(0) <= rate < Decimal(1) else None


def _parse_pattern_fan(option: Option, raw: Any, field_name: str) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise EngineError("pattern_fan_not_an_object", field=field_name)
    parsed: dict[str, int] = {}
    for key, fan in raw.items():
        if key not in PATTERN_BY_KEY:
            raise EngineError("pattern_unknown", field=f"{field_name}.{key}", key=key)
        if not _is_int(fan) or not 1 <= fan <= MAX_PATTERN_FAN:
            raise EngineError(
                "pattern_fan_value", field=f"{field_name}.{key}", key=key, maximum=MAX_PATTERN_FAN, value=fan
            )
        parsed[key] = int(fan)
    return parsed


_PARSERS = {
    OptionKind.ENUM: _parse_enum,
    OptionKind.BOOL: _parse_bool,
    OptionKind.INT: _parse_int,
    OptionKind.ZERO_OR_ONE: _parse_zero_or_one,
    OptionKind.CAP_MULTIPLIER: _parse_cap_multiplier,
    OptionKind.PENALTY: _parse_penalty,
    OptionKind.RATE: _parse_rate,
    OptionKind.PATTERN_FAN: _parse_pattern_fan,
}
