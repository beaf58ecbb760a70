"""The base patterns of RULES.md 3.1 as data: one row per pattern, each with a small pure predicate.

A predicate reads only ``Facts``, the few things a pattern needs to know about one way of reading a hand
(computed once per reading, never per pattern). Exactly one pattern counts, the largest under the table's
own values (``pattern_fan``), so the choice for each of the 64 possible fact combinations is computed once
per set of values and scoring is a tuple lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# Fact bits: one reading of a hand (a split into sets and a pair, or seven pairs) plus its tiles.
SEVEN_PAIRS = 1
HAS_RUN = 2
ALL_TERMINAL = 4  # every set and the pair holds a 1 or a 9
ONE_SUIT = 8  # melds included
ALL_258 = 16  # every tile, melds included, has rank 2, 5 or 8
HAS_QUAD = 32  # seven pairs with a kind held four times
FACT_COMBINATIONS = 64


@dataclass(frozen=True, slots=True)
class Facts:
    seven_pairs: bool
    has_run: bool
    all_terminal: bool
    one_suit: bool
    all_258: bool
    has_quad: bool

    @classmethod
    def from_bits(cls, bits: int) -> Facts:
        return cls(
            *(bool(bits & flag) for flag in (SEVEN_PAIRS, HAS_RUN, ALL_TERMINAL, ONE_SUIT, ALL_258, HAS_QUAD))
        )


@dataclass(frozen=True, slots=True)
class NamedFan:
    """A base pattern or an extra that counted, with its fan under the table's values, as the API reports
    it (the result's ``pattern`` and each of its ``extras``)."""

    key: str
    name: str
    name_en: str
    fan: int

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "name_en": self.name_en, "fan": self.fan}


@dataclass(frozen=True, slots=True)
class PatternRow:
    """A row of RULES.md 3.1: key, Chinese and English name, default fan (``pattern_fan`` may change it)."""

    key: str
    name: str
    name_en: str
    fan: int

    def score(self, fan: int) -> NamedFan:
        return NamedFan(self.key, self.name, self.name_en, fan)


@dataclass(frozen=True, slots=True)
class Pattern(PatternRow):
    """A base pattern, read from the tiles by its predicate."""

    applies: Callable[[Facts], bool]
    gen_inside: int = 0  # quads the pattern already counts, taken off the gen


@dataclass(frozen=True, slots=True)
class HeavenlyPattern(PatternRow):
    """天胡/地胡: a pattern of the situation, not of the tiles. The request says the win was one; the rules'
    ``tian_di_hu`` say how it meets the hand's own pattern (``fan.HEAVENLY``)."""

    when: str  # what the request vouches for, for the docs and the pages


def ping_hu(facts: Facts) -> bool:
    """平胡: any standard hand (four sets and a pair)."""
    return not facts.seven_pairs


def dui_dui_hu(facts: Facts) -> bool:
    """对对胡: a standard hand without runs."""
    return not facts.seven_pairs and not facts.has_run


def qing_yi_se(facts: Facts) -> bool:
    """清一色: a standard hand in one suit."""
    return not facts.seven_pairs and facts.one_suit


def dai_yao_jiu(facts: Facts) -> bool:
    """带幺九: a standard hand whose every set and pair holds a 1 or a 9."""
    return not facts.seven_pairs and facts.all_terminal


def qi_dui(facts: Facts) -> bool:
    """七对: seven pairs, no kind held four times."""
    return facts.seven_pairs and not facts.has_quad


def qing_dui(facts: Facts) -> bool:
    """清对: 清一色 and 对对胡."""
    return dui_dui_hu(facts) and facts.one_suit


def jiang_dui(facts: Facts) -> bool:
    """将对: 对对胡 with every tile of rank 2, 5 or 8."""
    return dui_dui_hu(facts) and facts.all_258


def long_qi_dui(facts: Facts) -> bool:
    """龙七对: seven pairs with a kind held four times."""
    return facts.seven_pairs and facts.has_quad


def qing_qi_dui(facts: Facts) -> bool:
    """清七对: 七对 in one suit."""
    return qi_dui(facts) and facts.one_suit


def qing_yao_jiu(facts: Facts) -> bool:
    """清幺九: 清一色 and 带幺九."""
    return dai_yao_jiu(facts) and facts.one_suit


def qing_long_qi_dui(facts: Facts) -> bool:
    """青龙七对: 龙七对 in one suit."""
    return long_qi_dui(facts) and facts.one_suit


PATTERNS: tuple[Pattern, ...] = (
    Pattern("ping_hu", "平胡", "Plain hand", 1, ping_hu),
    Pattern("dui_dui_hu", "对对胡", "All pungs", 2, dui_dui_hu),
    Pattern("qing_yi_se", "清一色", "Full flush", 3, qing_yi_se),
    Pattern("dai_yao_jiu", "带幺九", "Terminals in every set", 3, dai_yao_jiu),
    Pattern("qi_dui", "七对", "Seven pairs", 3, qi_dui),
    Pattern("qing_dui", "清对", "Full flush all pungs", 4, qing_dui),
    Pattern("jiang_dui", "将对", "All pungs of 2, 5 and 8", 4, jiang_dui),
    Pattern("long_qi_dui", "龙七对", "Seven pairs with a quad", 5, long_qi_dui, gen_inside=1),
    Pattern("qing_qi_dui", "清七对", "Full flush seven pairs", 5, qing_qi_dui),
    Pattern("qing_yao_jiu", "清幺九", "Full flush with terminals in every set", 5, qing_yao_jiu),
    Pattern(
        "qing_long_qi_dui",
        "青龙七对",
        "Full flush seven pairs with a quad",
        6,
        qing_long_qi_dui,
        gen_inside=1,
    ),
)
TIAN_HU = HeavenlyPattern(
    "tian_hu", "天胡", "Heavenly hand", 6, "the dealer's first 14 tiles win, before any discard or kong"
)
DI_HU = HeavenlyPattern(
    "di_hu",
    "地胡",
    "Earthly hand",
    6,
    "a non-dealer wins in the first go-around, before his own first discard and anyone's pung or kong",
)
HEAVENLY_PATTERNS: tuple[HeavenlyPattern, ...] = (TIAN_HU, DI_HU)


@dataclass(frozen=True, slots=True)
class Composition:
    """A name players give a composition, not a pattern of its own (RULES.md 3.1): a page shows it beside
    the breakdown; the API's ``pattern`` stays the table's key. It names a hand of four melds (金钩钓's
    shape) reported as one of ``patterns`` with at least ``kongs`` of the melds kongs."""

    key: str
    name: str
    name_en: str
    patterns: frozenset[str]
    kongs: int


# The most particular first: four kongs is also a golden hook.
COMPOSITIONS: tuple[Composition, ...] = (
    Composition("shi_ba_luo_han", "十八罗汉", "Eighteen arhats", frozenset({"dui_dui_hu", "jiang_dui"}), 4),
    Composition(
        "qing_shi_ba_luo_han", "清十八罗汉", "Full flush eighteen arhats", frozenset({"qing_dui"}), 4
    ),
    Composition("jiang_jin_gou", "将金钩", "Golden hook of 2, 5 and 8", frozenset({"jiang_dui"}), 0),
    Composition("qing_jin_gou", "清金钩", "Full flush golden hook", frozenset({"qing_dui"}), 0),
)
COMPOSITION_BY_KEY: Mapping[str, Composition] = {composition.key: composition for composition in COMPOSITIONS}
MELDS_OF_A_HOOK = 4


def composition_of(pattern_key: str, meld_kinds: Sequence[str]) -> Composition | None:
    """The players' name for a hand of this pattern and these melds (kinds as the API writes them), if any."""
    if len(meld_kinds) != MELDS_OF_A_HOOK:
        return None
    kongs = sum(1 for kind in meld_kinds if kind != "pung")
    return next((c for c in COMPOSITIONS if pattern_key in c.patterns and kongs >= c.kongs), None)


# The patterns the one room switch 幺九将对 takes out of the table when off (``yao_jiu_jiang_dui``).
YAO_JIU_JIANG_DUI = frozenset({"dai_yao_jiu", "qing_yao_jiu", "jiang_dui"})
# Every row of RULES.md 3.1 in its order: what ``pattern_fan`` may change and the rules table lists.
PATTERN_ROWS: tuple[PatternRow, ...] = (*PATTERNS, *HEAVENLY_PATTERNS)
PATTERN_BY_KEY: Mapping[str, PatternRow] = {pattern.key: pattern for pattern in PATTERN_ROWS}
BASE_PATTERN_BY_KEY: Mapping[str, Pattern] = {pattern.key: pattern for pattern in PATTERNS}


@dataclass(frozen=True, slots=True)
class Choice:
    """The pattern that counts for one combination of facts, under one set of values."""

    rank: tuple[int, int, int]  # what the reading is worth beside another: (fan - gen_inside, fan, row)
    pattern: Pattern
    fan: int
    score: NamedFan


@lru_cache(maxsize=64)
def choices(
    pattern_fan: tuple[tuple[str, int], ...], left_out: frozenset[str] = frozenset()
) -> tuple[Choice, ...]:
    """For each fact combination (by its bits), the largest pattern that applies under these values,
    among the patterns the table plays (``left_out``: those it does not; 平胡 and 七对 always stay, so
    every standard or seven-pairs reading keeps a pattern)."""
    values = {**{pattern.key: pattern.fan for pattern in PATTERNS}, **dict(pattern_fan)}

    def best(facts: Facts) -> Choice:
        ranked = (
            Choice(
                (values[p.key] - p.gen_inside, values[p.key], row), p, values[p.key], p.score(values[p.key])
            )
            for row, p in enumerate(PATTERNS)
            if p.applies(facts) and p.key not in left_out
        )
        return max(ranked, key=lambda choice: choice.rank)

    return tuple(best(Facts.from_bits(bits)) for bits in range(FACT_COMBINATIONS))
