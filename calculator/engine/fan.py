"""Scoring one winning hand (RULES.md section 3).

The pipeline, in order:

1. Parse the concealed tiles, the melds and the winning tile from tile notation (``tiles.parse_tiles``).
2. Validate: JSON types, 14 tiles with the win (3 per meld), no fifth copy, flags, win_by, void suit
   (``hand.py``); any problem is an ``EngineError`` naming the field.
3. Check legality: at most two suits (缺门) and, with 定缺 on, no tile of the void suit; otherwise the
   result is ``win=False`` with a reason.
4. Decompose: three per-suit table lookups give every split of the concealed tiles into sets and a pair
   as a mask of fact combinations (runs or not; a 1 or 9 in every set), combined with the melds' facts;
   seven pairs is a bit test. No split and no seven pairs: ``win=False``.
5. Score each distinct reading: its facts plus the tiles' facts (one suit, all 2/5/8, a quad) pick the
   largest base pattern under the rules' values (``patterns.choices``: a table lookup).
6. Keep the best reading: the largest pattern fan net of the quad a pattern already counts.
7. Add gen: kinds held four times in the final hand (the gen options decide about declared kongs and a
   pung plus the fourth copy), one fewer for 龙七对/青龙七对; 天胡/地胡 replace or stack by the rules.
8. Add the extras of 3.3 that apply to the situation and are switched on. 夹心五 belongs to a reading: with
   it on and a winning 5, the readings that hold the run 4-5-6 around it are scored as well, with 夹心五,
   and the reading worth more fan wins (``jia_xin_wu_mask``).
9. 起胡: a hand worth less than ``min_fan_to_win`` (before the cap) does not win.
10. Cap: ``points = b x min(2^(fan-1), cap)``; ``fan`` and ``multiplier`` are reported uncapped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from . import fields
from .decompose import best_set_names, seven_pairs_facts, seven_pairs_sets, standard_facts
from .errors import EngineError
from .hand import (
    Held,
    Meld,
    MeldKind,
    WinBy,
    check_size,
    read_flag,
    read_held,
    read_melds,
    read_rules,
    read_tiles,
    read_win_by,
    read_win_tile,
)
from .limits import HAND_TILES
from .messages import MESSAGES
from .options import TianDiHu, ZimoBonus
from .patterns import (
    ALL_258,
    ALL_TERMINAL,
    BASE_PATTERN_BY_KEY,
    DI_HU,
    HAS_QUAD,
    HAS_RUN,
    HEAVENLY_PATTERNS,
    ONE_SUIT,
    SEVEN_PAIRS,
    TIAN_HU,
    Choice,
    HeavenlyPattern,
    NamedFan,
    choices,
)
from .rules import Rules, multiplier_of
from .tables import COMBINE, fact_bit
from .tiles import (
    FOUR_BITS,
    NOT_258,
    ONE,
    SUIT_FIELDS,
    SUIT_NAMES_ZH,
    SUITS,
    TERMINALS,
    TILE_NAMES,
    count_of,
    format_tiles,
)

# ---------------------------------------------------------------------------------------------------------
# Extras (RULES.md 3.3): a row per extra, its situation predicate and its fan under the rules.

SELF_DRAW = 1
DISCARD = 2
ROBBING = 4
AFTER_KONG = 8
LAST_TILE = 16
# The tiles alone decide the bits below, so only they (金钩钓, 门清, 中张) reach a ready hand's value (3.4).
ALL_MELDS = 32  # four melds: the win completes the pair on a single tile
NO_OPEN_MELD = 64
NO_TERMINAL = 128
JIA_XIN_WU = 256  # this reading holds the run 4-5-6 around the winning 5
WIN_BY_BITS = {WinBy.SELF_DRAW: SELF_DRAW, WinBy.DISCARD: DISCARD, WinBy.ROBBING_KONG: ROBBING}


@dataclass(frozen=True, slots=True)
class Extra:
    key: str
    name: str
    name_en: str
    needs: int  # situation bits that must all be set
    fan: Callable[[Rules], int]


def _one_if(flag: bool) -> int:
    return 1 if flag else 0


EXTRAS: tuple[Extra, ...] = (
    Extra(
        "gang_shang_hua",
        "杠上花",
        "Win on a kong replacement",
        SELF_DRAW | AFTER_KONG,
        lambda rules: rules.gang_shang_hua_fan,
    ),
    Extra(
        "gang_shang_pao",
        "杠上炮",
        "Win on a discard after a kong",
        DISCARD | AFTER_KONG,
        lambda rules: rules.gang_shang_pao_fan,
    ),
    Extra("qiang_gang_hu", "抢杠胡", "Robbing a kong", ROBBING, lambda rules: rules.qiang_gang_fan),
    Extra(
        "zi_mo_jia_fan",
        "自摸加番",
        "Self-draw bonus fan",
        SELF_DRAW,
        lambda rules: _one_if(rules.zimo_bonus is ZimoBonus.JIA_FAN),
    ),
    Extra(
        "jin_gou_diao",
        "金钩钓",
        "Four melds, single wait on the pair",
        ALL_MELDS,
        lambda rules: rules.jin_gou_diao_fan if rules.jin_gou_diao else 0,
    ),
    Extra(
        "hai_di_lao_yue",
        "海底捞月",
        "Self-draw on the last tile",
        SELF_DRAW | LAST_TILE,
        lambda rules: _one_if(rules.hai_di),
    ),
    Extra(
        "hai_di_pao",
        "海底炮",
        "Win on the last discard",
        DISCARD | LAST_TILE,
        lambda rules: _one_if(rules.hai_di),
    ),
    # 门清 is two rows: on any win, or (``men_qing_needs_zimo``) on a self-draw only, which makes it
    # situational, so a ready hand's value (3.4) never counts that row.
    Extra(
        "men_qing",
        "门清",
        "Concealed hand",
        NO_OPEN_MELD,
        lambda rules: _one_if(rules.counts_men_qing and not rules.men_qing_needs_zimo),
    ),
    Extra(
        "men_qing",
        "门清",
        "Concealed hand",
        NO_OPEN_MELD | SELF_DRAW,
        lambda rules: _one_if(rules.counts_men_qing and rules.men_qing_needs_zimo),
    ),
    Extra(
        "zhong_zhang",
        "中张",
        "No terminals",
        NO_TERMINAL,
        lambda rules: _one_if(rules.counts_zhong_zhang),
    ),
    Extra("jia_xin_wu", "夹心五", "Five in the middle", JIA_XIN_WU, lambda rules: _one_if(rules.jia_xin_wu)),
)


# ---------------------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The fan of one hand; ``win=False`` (with a reason) for valid tiles that do not win."""

    win: bool
    fan: int = 0
    multiplier: int = 0
    points: int = 0
    capped: bool = False
    pattern: NamedFan | None = None
    gen: int = 0
    extras: tuple[NamedFan, ...] = ()
    sets: tuple[str, ...] = ()
    reason: str | None = None
    reason_zh: str | None = None
    reason_code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "win": self.win,
            "fan": self.fan,
            "multiplier": self.multiplier,
            "points": self.points,
            "capped": self.capped,
            "pattern": self.pattern.to_dict() if self.pattern else None,
            "gen": self.gen,
            "extras": [extra.to_dict() for extra in self.extras],
            "sets": list(self.sets),
        }
        if not self.win:
            body |= {"reason": self.reason, "reason_zh": self.reason_zh, "reason_code": self.reason_code}
        return body


def not_a_win(code: str, **params: object) -> ScoreResult:
    """A hand that does not win, its reason worded by the catalogue (``messages``)."""
    reason = MESSAGES[code]
    return ScoreResult(
        False, reason=reason.en.format_map(params), reason_zh=reason.zh.format_map(params), reason_code=code
    )


@dataclass(frozen=True, slots=True)
class Wait:
    """One live wait and the best fan the hand would have with it (查大叫 value)."""

    tile: str
    fan: int
    multiplier: int
    points: int
    pattern: str
    gen: int
    capped: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "fan": self.fan,
            "multiplier": self.multiplier,
            "points": self.points,
            "pattern": self.pattern,
            "gen": self.gen,
            "capped": self.capped,
        }


# ---------------------------------------------------------------------------------------------------------
# What scoring needs from one Rules value, computed once per Rules object.


@dataclass(slots=True, eq=False)
class Scoring:
    """The compiled view of one ``Rules`` value (its choice tables and switched-on extras, never changed)
    and two memo tables filled as hands are scored: the extras of each situation, the value of each wait.
    Not frozen, because those memos grow in place; shared by every hand scored under equal rules."""

    rules: Rules
    choices: tuple[Choice, ...]
    # the best reading for each (standard fact mask, tile facts): index mask + 16 * (tile_bits >> 3)
    standard_best: tuple[tuple[Choice, int] | None, ...]
    extras: tuple[tuple[Extra, int], ...]  # switched-on extras with their fan
    extras_by_situation: dict[int, tuple[NamedFan, ...]] = field(default_factory=dict)
    waits: dict[int, Wait | None] = field(default_factory=dict)  # immutable, so shared by every position

    def extras_for(self, situation: int) -> tuple[NamedFan, ...]:
        found = self.extras_by_situation.get(situation)
        if found is None:
            found = tuple(
                NamedFan(extra.key, extra.name, extra.name_en, fan)
                for extra, fan in self.extras
                if situation & extra.needs == extra.needs
            )
            self.extras_by_situation[situation] = found
        return found

    def wait(
        self, tile: int, mask: int, facts: int, gen: int, situation: int, middle: int = 0
    ) -> Wait | None:
        """A wait on ``tile`` valued from what decides its fan: the standard fact mask of the complete hand,
        its tile and seven-pairs facts, its raw gen, its static situation and the fact mask of the readings
        with 夹心五 (``jia_xin_wu_mask``; 0: none). None: it does not win, or wins below 起胡 (3.6)."""
        key = tile | mask << 5 | facts << 9 | gen << 15 | situation << 21 | middle << 31
        if key in self.waits:
            return self.waits[key]
        tile_bits = facts & (ONE_SUIT | ALL_258)
        readings = []
        found = best_reading(self, mask, facts & (SEVEN_PAIRS | HAS_QUAD), tile_bits)
        if found is not None:
            readings.append((found[0], situation))
        found = best_reading(self, middle, 0, tile_bits) if middle else None
        if found is not None:
            readings.append((found[0], situation | JIA_XIN_WU))
        wait = None
        best_fan = 0
        for choice, where in readings:
            net_gen = gen - choice.pattern.gen_inside
            fan = choice.fan + net_gen + sum(extra.fan for extra in self.extras_for(where))
            if fan > best_fan and fan >= self.rules.min_fan_to_win:
                best_fan = fan
                points = self.rules.amount(fan)
                multiplier = multiplier_of(fan)
                capped = points < self.rules.base_points * multiplier
                wait = Wait(TILE_NAMES[tile], fan, multiplier, points, choice.pattern.key, net_gen, capped)
        _remember(self.waits, key, wait, 1 << 16)
        return wait


_READING_FACTS = tuple(
    (HAS_RUN if bit & 0b1100 else 0) | (ALL_TERMINAL if bit & 0b1010 else 0) for bit in range(16)
)


@lru_cache(maxsize=64)
def _standard_best(
    pattern_fan: tuple[tuple[str, int], ...], left_out: frozenset[str]
) -> tuple[tuple[Choice, int] | None, ...]:
    table = choices(pattern_fan, left_out)

    def best(mask: int, tile_bits: int) -> tuple[Choice, int] | None:
        readings = [
            (table[tile_bits | _READING_FACTS[1 << bit]], 1 << bit) for bit in range(4) if mask >> bit & 1
        ]
        return max(readings, key=lambda reading: reading[0].rank) if readings else None

    return tuple(
        best(mask, tile_bits)
        for tile_bits in (0, ONE_SUIT, ALL_258, ONE_SUIT | ALL_258)
        for mask in range(16)
    )


# Compiled views: by identity first (one dict lookup for the Rules object a caller keeps passing), then by
# value (a request that rebuilds equal rules each time). The identity entry keeps its Rules alive, so an
# id is never reused while it is in the dict.
_BY_IDENTITY: dict[int, tuple[Rules, Scoring]] = {}
_BY_VALUE: dict[Rules, Scoring] = {}
_CACHE_SIZE = 256


def scoring_for(rules: Rules) -> Scoring:
    """The compiled view of ``rules`` (Rules values are immutable, so it is computed once per value)."""
    entry = _BY_IDENTITY.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    scoring = _BY_VALUE.get(rules)
    if scoring is None:
        switched_on = tuple((extra, extra.fan(rules)) for extra in EXTRAS)
        scoring = Scoring(
            rules,
            choices(rules.pattern_fan, rules.left_out_patterns),
            _standard_best(rules.pattern_fan, rules.left_out_patterns),
            tuple((extra, fan) for extra, fan in switched_on if fan),
        )
        _remember(_BY_VALUE, rules, scoring)
    _remember(_BY_IDENTITY, id(rules), (rules, scoring))
    return scoring


def _remember[K, V](cache: dict[K, V], key: K, value: V, size: int = _CACHE_SIZE) -> None:
    """Store in a bounded cache: starting afresh when full keeps memory flat in a long-lived process."""
    if len(cache) >= size:
        cache.clear()
    cache[key] = value


# ---------------------------------------------------------------------------------------------------------
# The core: the best reading of a complete hand, shared with the waits.


_MANZU, _PINZU, _SOUZU = SUIT_FIELDS
PAIR_NAMES = tuple(name[0] + name for name in TILE_NAMES)


def tile_facts(final: int) -> int:
    """The pattern facts the final tiles decide: one suit, all 2/5/8."""
    suits = (1 if final & _MANZU else 0) + (1 if final & _PINZU else 0) + (1 if final & _SOUZU else 0)
    return (ONE_SUIT if suits == 1 else 0) | (0 if final & NOT_258 else ALL_258)


def best_reading(scoring: Scoring, mask: int, seven: int, tile_bits: int) -> tuple[Choice, int] | None:
    """The best (pattern choice, reading) of a complete hand; reading: a standard fact bit, 0 for seven pairs.

    ``mask`` is the fact mask of the standard splits, melds included, and ``seven`` the seven-pairs fact
    bits (``decompose.seven_pairs_facts``); 0 when the hand cannot be read that way.
    """
    best = scoring.standard_best[mask + 16 * (tile_bits >> 3)] if mask else None
    if seven:
        choice = scoring.choices[tile_bits | seven]
        if best is None or choice.rank > best[0].rank:
            return choice, 0
    return best


def heavenly_reading(
    scoring: Scoring, mask: int, seven: int, tile_bits: int, heavenly: HeavenlyPattern
) -> tuple[Choice, int] | None:
    """The reading that scores most once 天胡/地胡 is applied (see docs/scoring.md, "天胡 over two readings").

    ``replace`` lifts every pattern to at least 6, which can reverse the order of a seven-pairs reading and
    a standard one: ``1111222233334m`` is 青龙七对 (6, one quad inside) or four runs of 清一色 (3), and
    after replace the runs keep all three gen. The player is paid for the better final hand.
    """
    rules = scoring.rules
    readings = []
    if mask:
        standard = scoring.standard_best[mask + 16 * (tile_bits >> 3)]
        if standard is not None:
            readings.append(standard)
    if seven:
        readings.append((scoring.choices[tile_bits | seven], 0))

    def worth(found: tuple[Choice, int]) -> int:
        pattern, extras = HEAVENLY[rules.tian_di_hu](rules, heavenly, found[0])
        return pattern.fan + sum(extra.fan for extra in extras) - found[0].pattern.gen_inside

    return max(readings, key=worth, default=None)


def gen_count(rules: Rules, final: int, melds: tuple[Meld, ...]) -> int:
    """Kinds whose four copies are all in the final hand, less what the gen options leave out."""
    gen = (final & FOUR_BITS).bit_count()
    if not rules.gen_counts_kongs:
        gen -= sum(1 for meld in melds if meld.kind is not MeldKind.PUNG)
    if not rules.gen_counts_pung_plus_held:
        gen -= sum(1 for meld in melds if meld.kind is MeldKind.PUNG and count_of(final, meld.tile) >= 4)
    return gen


_NO_MELDS_FACTS = fact_bit(False, True)  # no run, and vacuously a 1 or 9 in every meld


def melds_fact_bit(melds: tuple[Meld, ...]) -> int:
    if not melds:
        return _NO_MELDS_FACTS
    return fact_bit(False, all(meld.tile % 9 in (0, 8) for meld in melds))


def melds_situation(melds: tuple[Meld, ...]) -> int:
    """The situation bits the melds decide (金钩钓, 门清)."""
    if not melds:
        return NO_OPEN_MELD
    return (ALL_MELDS if len(melds) == 4 else 0) | (
        0 if any(meld.is_open for meld in melds) else NO_OPEN_MELD
    )


def tiles_situation(final: int) -> int:
    """The situation bits the tiles decide (中张)."""
    return 0 if final & TERMINALS else NO_TERMINAL


_RUN_BIT = fact_bit(True, False)  # a run of 4-5-6: a run, and no 1 or 9 in it
_MIDDLE_RANK = 4  # the rank index of a 5


def jia_xin_wu_mask(packed: int, tile: int, meld_bit: int) -> int:
    """夹心五 (3.3): the standard fact mask, melds included, of the readings of ``packed`` (concealed tiles
    with the winning ``tile``) that hold a run 4-5-6 with ``tile`` as its middle; 0 when ``tile`` is not a
    5 or no reading does. Copies of a kind are alike, so any such run can hold the winning 5: the run is
    taken out and the rest looked up as any hand is."""
    if tile % 9 != _MIDDLE_RANK or not count_of(packed, tile - 1) or not count_of(packed, tile + 1):
        return 0
    rest = standard_facts(packed - ONE[tile - 1] - ONE[tile] - ONE[tile + 1])
    return COMBINE[COMBINE[rest][_RUN_BIT]][meld_bit] if rest else 0


# ---------------------------------------------------------------------------------------------------------
# 天胡/地胡 (3.1): situations the request vouches for, meeting the hand's own pattern by ``tian_di_hu``.

_Heavenly = Callable[[Rules, HeavenlyPattern, Choice], tuple[NamedFan, tuple[NamedFan, ...]]]


def _replace(rules: Rules, heavenly: HeavenlyPattern, hand: Choice) -> tuple[NamedFan, tuple[NamedFan, ...]]:
    return heavenly.score(max(rules.pattern_value(heavenly.key), hand.fan)), ()


def _stack(rules: Rules, heavenly: HeavenlyPattern, hand: Choice) -> tuple[NamedFan, tuple[NamedFan, ...]]:
    fan = rules.pattern_value(heavenly.key)
    return hand.score, (NamedFan(heavenly.key, heavenly.name, heavenly.name_en, fan),)


def _off(rules: Rules, heavenly: HeavenlyPattern, hand: Choice) -> tuple[NamedFan, tuple[NamedFan, ...]]:
    return hand.score, ()


HEAVENLY: Mapping[TianDiHu, _Heavenly] = {
    TianDiHu.REPLACE: _replace,
    TianDiHu.STACK: _stack,
    TianDiHu.OFF: _off,
}
HEAVENLY_BY_KEY: Mapping[str, HeavenlyPattern] = {pattern.key: pattern for pattern in HEAVENLY_PATTERNS}


def reported(
    rules: Rules, heavenly: HeavenlyPattern | None, hand: Choice
) -> tuple[NamedFan, tuple[NamedFan, ...]]:
    """The pattern a win reports and the extras 天胡/地胡 adds: the hand's own on an ordinary win."""
    return (hand.score, ()) if heavenly is None else HEAVENLY[rules.tian_di_hu](rules, heavenly, hand)


def fan_of_pattern(
    rules: Rules, pattern_key: str, *, gen: int, situation: int, heavenly_key: str | None = None
) -> tuple[NamedFan, tuple[NamedFan, ...], int]:
    """The final fan of a win known only by its pattern, gen and situation (a quick entry without tiles).

    The same pattern values, 天胡/地胡 handling and situational extras as ``score_hand``, so a page's quick
    picker never keeps rules of its own; extras that depend on the tiles (金钩钓, 门清, 中张) cannot apply.
    Returns the pattern as reported, the extras, and the fan.
    """
    if pattern_key in rules.left_out_patterns:
        raise EngineError("pattern_left_out", field="pattern", key=pattern_key)
    value = rules.pattern_value(pattern_key)
    pattern = BASE_PATTERN_BY_KEY[pattern_key]
    choice = Choice((value - pattern.gen_inside, value, 0), pattern, value, pattern.score(value))
    shown, heavenly_extras = reported(rules, HEAVENLY_BY_KEY[heavenly_key] if heavenly_key else None, choice)
    extras = heavenly_extras + scoring_for(rules).extras_for(situation)
    return shown, extras, shown.fan + gen + sum(extra.fan for extra in extras)


# ---------------------------------------------------------------------------------------------------------
# The public function


def score_hand(
    concealed: object,
    win_tile: object,
    melds: object = (),
    win_by: object = "discard",
    after_kong: object = False,
    last_tile: object = False,
    tian_hu: object = False,
    di_hu: object = False,
    void_suit: object = None,
    rules: object = None,
) -> ScoreResult:
    """The fan of one hand (RULES.md 3): ``win=False`` for valid tiles that do not win."""
    table_rules = read_rules(rules)
    concealed_tiles = read_tiles(concealed, "concealed")
    meld_list = read_melds(melds)
    win = read_win_tile(win_tile)
    check_size(concealed_tiles, meld_list, (HAND_TILES,), 1)
    held = read_held(concealed_tiles, meld_list, win)
    how = read_win_by(win_by)
    situation = WIN_BY_BITS[how] | _situation_flags(after_kong, last_tile)
    heavenly = (
        None
        if tian_hu is False and di_hu is False
        else _heavenly(read_flag(tian_hu, "tian_hu"), read_flag(di_hu, "di_hu"), how)
    )
    if situation & AFTER_KONG and how is WinBy.ROBBING_KONG:
        raise EngineError("robbed_kong_after_kong", field="after_kong")
    if situation & AFTER_KONG and how is WinBy.SELF_DRAW and all(meld.size == 3 for meld in meld_list):
        # 杠上花 is the replacement tile of one's own kong, which then stands among the melds; on a discard
        # (杠上炮) the kong is the discarder's, so the winner's melds say nothing.
        raise EngineError("after_kong_without_kong", field="after_kong")
    void = fields.void_suit(void_suit, "void_suit")
    return score_held(scoring_for(table_rules), held, situation, heavenly, void, win)


def _situation_flags(after_kong: object, last_tile: object) -> int:
    if after_kong is False and last_tile is False:
        return 0
    return (AFTER_KONG if read_flag(after_kong, "after_kong") else 0) | (
        LAST_TILE if read_flag(last_tile, "last_tile") else 0
    )


def _heavenly(tian_hu: bool, di_hu: bool, how: WinBy) -> HeavenlyPattern | None:
    if tian_hu and di_hu:
        raise EngineError("tian_and_di_hu", field="di_hu")
    if tian_hu and how is not WinBy.SELF_DRAW:
        raise EngineError("tian_hu_not_self_draw", field="tian_hu")
    if tian_hu:
        return TIAN_HU
    return DI_HU if di_hu else None


def legality(rules: Rules, final: int, void: int | None) -> ScoreResult | None:
    """A reason the tiles cannot win whatever their shape (缺门, 定缺), or None."""
    if final & _MANZU and final & _PINZU and final & _SOUZU:
        return THREE_SUITS
    if rules.dingque and void is not None and final & SUIT_FIELDS[void]:
        return VOID_SUIT[void]
    return None


# The few results of a hand that does not win, made once: waits ask legality for every candidate tile.
THREE_SUITS = not_a_win("three_suits")
VOID_SUIT = tuple(not_a_win("void_suit", suit=suit, suit_zh=SUIT_NAMES_ZH[suit]) for suit in SUITS)
NO_SHAPE = not_a_win("no_shape")
BELOW_MIN_FAN = "below_min_fan"  # the reason code of a hand worth less than 起胡 (3.6)
# ScoreResult.reason_code's closed set, for the API's schema.
REASON_CODES = (
    *dict.fromkeys(str(result.reason_code) for result in (THREE_SUITS, *VOID_SUIT, NO_SHAPE)),
    BELOW_MIN_FAN,
)


def score_held(
    scoring: Scoring,
    held: Held,
    situation: int,
    heavenly: HeavenlyPattern | None,
    void: int | None,
    win_tile: int | None = None,
) -> ScoreResult:
    """Steps 3 to 10 of the pipeline for a validated hand (``win_tile``: the tile won on, for 夹心五)."""
    rules = scoring.rules
    final = held.packed + held.meld_packed
    illegal = legality(rules, final, void)
    if illegal is not None:
        return illegal
    tile_bits = tile_facts(final)
    meld_bit = melds_fact_bit(held.melds)
    mask = standard_facts(held.packed)
    if mask:
        mask = COMBINE[mask][meld_bit]
    seven = 0 if held.melds else seven_pairs_facts(held.packed)
    situation |= melds_situation(held.melds) | tiles_situation(final)
    found = _reading(scoring, mask, seven, tile_bits, heavenly)
    result = _scored(scoring, held, final, found, heavenly, situation)
    if rules.jia_xin_wu and win_tile is not None:
        middle = jia_xin_wu_mask(held.packed, win_tile, meld_bit)
        if middle:
            found = _reading(scoring, middle, 0, tile_bits, heavenly)
            run = (win_tile - 1, win_tile, win_tile + 1)
            with_it = _scored(scoring, held, final, found, heavenly, situation | JIA_XIN_WU, run)
            if result is NO_SHAPE or with_it.fan > result.fan:
                result = with_it
    if result.win and result.fan < rules.min_fan_to_win:
        return below_min_fan(result, rules.min_fan_to_win)
    return result


def _reading(
    scoring: Scoring, mask: int, seven: int, tile_bits: int, heavenly: HeavenlyPattern | None
) -> tuple[Choice, int] | None:
    if heavenly:
        return heavenly_reading(scoring, mask, seven, tile_bits, heavenly)
    return best_reading(scoring, mask, seven, tile_bits)


def _scored(
    scoring: Scoring,
    held: Held,
    final: int,
    found: tuple[Choice, int] | None,
    heavenly: HeavenlyPattern | None,
    situation: int,
    run: tuple[int, int, int] | None = None,
) -> ScoreResult:
    """Steps 7 to 10 for one reading (``run``: the 4-5-6 of 夹心五 it holds, set apart from the lookup)."""
    if found is None:
        return NO_SHAPE
    rules = scoring.rules
    choice, reading = found
    gen = gen_count(rules, final, held.melds) - choice.pattern.gen_inside
    # ``reported`` inline: this runs for every hand scored
    pattern, heavenly_extras = (
        (choice.score, ()) if heavenly is None else HEAVENLY[rules.tian_di_hu](rules, heavenly, choice)
    )
    extras = heavenly_extras + scoring.extras_for(situation)
    fan = pattern.fan + gen + sum(extra.fan for extra in extras)
    multiplier = multiplier_of(fan)
    points = rules.amount(fan)
    return ScoreResult(
        True,
        fan,
        multiplier,
        points,
        points < rules.base_points * multiplier,
        pattern,
        gen,
        extras,
        _set_names(held, reading, run),
    )


def below_min_fan(result: ScoreResult, minimum: int) -> ScoreResult:
    """A hand that would win but is worth less than 起胡: not a win, its fan still shown (3.6)."""
    refusal = not_a_win("below_min_fan", fan=result.fan, minimum=minimum)
    return replace(
        result, win=False, reason=refusal.reason, reason_zh=refusal.reason_zh, reason_code=refusal.reason_code
    )


def _set_names(held: Held, reading: int, run: tuple[int, int, int] | None = None) -> tuple[str, ...]:
    if not reading:
        return tuple(PAIR_NAMES[tile] for tile in seven_pairs_sets(held.packed))
    melds = tuple((meld.tile // 9, meld.name) for meld in held.melds)
    if run is None:
        return best_set_names(held.packed, reading, melds, melds_fact_bit(held.melds))
    # 夹心五's run is named beside the melds, the rest of the concealed tiles split as usual
    rest = held.packed - sum(ONE[tile] for tile in run)
    named_run = (run[0] // 9, format_tiles(run))
    return best_set_names(rest, reading, (*melds, named_run), COMBINE[melds_fact_bit(held.melds)][_RUN_BIT])
