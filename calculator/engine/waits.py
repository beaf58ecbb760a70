"""Readiness and the best possible fan of a position (RULES.md 3.4), used by 查大叫.

A 13-tile position is ready if some tile completes it. The waits come from the per-suit completion table:
a tile completes the hand only in a suit whose key is one tile short while the other two suits already
split, so a position needs at most three completion lookups, plus the one odd kind of a seven-pairs wait.
Each live wait is valued as pattern + gen (counting the waiting tile) + the switched-on extras the tiles
alone decide (金钩钓, 门清, 中张, 夹心五 on a wait some reading puts in the middle of 4-5-6), never
situational fan; a wait below 起胡 (``min_fan_to_win``) is no wait. 查叫 takes the best wait's value, or
under 查小叫 (``chajiao_value`` = min) the least one's. A 14-tile position (a drawn tile in hand) is ready
if some discard leaves a ready 13; its value is the best over those discards. That holds for a 14 that is
a flower pig as it stands too (a tile of the void suit, or all three suits): ``huazhu`` stays true, and the
discards that leave it ready are listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import fields
from .decompose import seven_pairs_facts
from .fan import (
    Scoring,
    Wait,
    gen_count,
    jia_xin_wu_mask,
    legality,
    melds_fact_bit,
    melds_situation,
    scoring_for,
    tile_facts,
    tiles_situation,
)
from .hand import Held, Meld, check_size, read_held, read_melds, read_rules, read_tiles
from .limits import HAND_TILES, READY_TILES
from .options import ChajiaoValue
from .tables import COMBINE, COMPLETIONS, SPLITS
from .tiles import FOUR_BITS, LOW_BITS, ONE, RANK_BITS, SUIT_BITS, SUIT_MASK, TILE_NAMES, count_of


@dataclass(frozen=True, slots=True)
class DiscardWaits:
    discard: str
    waits: tuple[Wait, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"discard": self.discard, "waits": [wait.to_dict() for wait in self.waits]}


@dataclass(frozen=True, slots=True)
class WaitsResult:
    """Whether a position is ready (有叫), on what, and for how much.

    ``discards`` is None for a 13-tile position; for 14 tiles it lists the discards that leave a ready hand,
    and ``waits``/``best`` are those of ``best_discard``.
    """

    ready: bool
    huazhu: bool
    waits: tuple[Wait, ...]
    best: Wait | None
    discards: tuple[DiscardWaits, ...] | None = None
    best_discard: str | None = None

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ready": self.ready,
            "huazhu": self.huazhu,
            "waits": [wait.to_dict() for wait in self.waits],
            "best": self.best.to_dict() if self.best else None,
        }
        if self.discards is not None:
            body["discards"] = [discard.to_dict() for discard in self.discards]
            body["best_discard"] = self.best_discard
        return body


def find_waits(
    concealed: object, melds: object = (), void_suit: object = None, rules: object = None
) -> WaitsResult:
    """The live waits of a 13-tile position, or of the best discard of a 14-tile one (RULES.md 3.4)."""
    table_rules = read_rules(rules)
    concealed_tiles = read_tiles(concealed, "concealed")
    meld_list = read_melds(melds)
    check_size(concealed_tiles, meld_list, (READY_TILES, HAND_TILES), 0)
    held = read_held(concealed_tiles, meld_list, None)
    void = fields.void_suit(void_suit, "void_suit")
    scoring = scoring_for(table_rules)
    drawn = len(concealed_tiles) + 3 * len(meld_list) == HAND_TILES
    huazhu = legality(table_rules, held.packed + held.meld_packed, void) is not None
    if drawn:
        return _best_discard(scoring, held, void, huazhu=huazhu)
    if huazhu:
        return WaitsResult(False, True, (), None)
    waits = live_waits(scoring, held.packed, held.meld_packed, held.melds)
    return WaitsResult(bool(waits), False, waits, CHAJIAO_WAIT[table_rules.chajiao_value](waits))


def best_wait(waits: tuple[Wait, ...]) -> Wait | None:
    """The wait worth the most fan (the lowest tile on a tie)."""
    best = None
    for wait in waits:
        if best is None or wait.fan > best.fan:
            best = wait
    return best


def least_wait(waits: tuple[Wait, ...]) -> Wait | None:
    """The wait worth the least fan (the lowest tile on a tie): 查小叫's value."""
    least = None
    for wait in waits:
        if least is None or wait.fan < least.fan:
            least = wait
    return least


# What a ready position is worth at 查叫 (``chajiao_value``, RULES.md 3.4): the API's ``best``.
CHAJIAO_WAIT = {ChajiaoValue.MAX: best_wait, ChajiaoValue.MIN: least_wait}


def _best_discard(scoring: Scoring, held: Held, void: int | None, *, huazhu: bool) -> WaitsResult:
    """A 14-tile position: the discards that leave a ready 13 and the best of them (RULES.md 3.4). A 14 that
    is a flower pig as it stands (``huazhu``) may still become ready by discarding the tile that makes it
    one; a 13 left holding the void suit or all three suits cannot win, so it is no discard to list."""
    discards = []
    for tile in sorted(set(held.concealed)):
        left = held.packed - ONE[tile]
        if huazhu and legality(scoring.rules, left + held.meld_packed, void) is not None:
            continue
        waits = live_waits(scoring, left, held.meld_packed, held.melds)
        if waits:
            discards.append(DiscardWaits(TILE_NAMES[tile], waits))
    value = CHAJIAO_WAIT[scoring.rules.chajiao_value]
    best_fan = -1
    chosen = None
    for option in discards:  # under 查小叫 too, he keeps the discard that leaves him the most
        wait = value(option.waits)
        if wait is not None and wait.fan > best_fan:
            best_fan, chosen = wait.fan, option
    if chosen is None:
        return WaitsResult(False, huazhu, (), None, ())
    return WaitsResult(True, huazhu, chosen.waits, value(chosen.waits), tuple(discards), chosen.discard)


def wait_tiles(packed: int, no_melds: bool) -> dict[int, int]:
    """Every tile completing 13 (or fewer with melds) concealed tiles, with its standard fact mask (0: none).

    The void suit needs no check here: a hand holding none of a suit has no wait in it, and a hand
    holding any of it is a flower pig before this is asked.
    """
    keys = (packed & SUIT_MASK, (packed >> SUIT_BITS) & SUIT_MASK, packed >> (2 * SUIT_BITS))
    splits = (SPLITS.get(keys[0], 0), SPLITS.get(keys[1], 0), SPLITS.get(keys[2], 0))
    found: dict[int, int] = {}
    for suit, (first, second) in enumerate(((1, 2), (0, 2), (0, 1))):
        if splits[first] and splits[second]:
            others = COMBINE[splits[first]][splits[second]]
            for code in COMPLETIONS.get(keys[suit], ()):
                found[9 * suit + (code & 0b1111)] = COMBINE[others][code >> 4]
    odd = packed & LOW_BITS
    if no_melds and odd.bit_count() == 1:
        found.setdefault((odd.bit_length() - 1) // RANK_BITS, 0)
    return found


def live_waits(scoring: Scoring, packed: int, meld_packed: int, melds: tuple[Meld, ...]) -> tuple[Wait, ...]:
    """The live waits of concealed tiles ``packed`` beside ``melds``, each with its best fan (3.4)."""
    found = wait_tiles(packed, not melds)
    if not found:
        return ()
    rules = scoring.rules
    final = packed + meld_packed
    meld_bit = melds_fact_bit(melds)
    situation = melds_situation(melds)
    live = rules.ting_requires_live_wait
    plain_gen = rules.gen_counts_kongs and rules.gen_counts_pung_plus_held
    waits = []
    for tile in sorted(found):
        if live and count_of(final, tile) >= 4:
            continue  # all four copies are the player's own: a dead wait
        complete = final + ONE[tile]
        mask = found[tile]
        facts = tile_facts(complete) | (0 if melds else seven_pairs_facts(packed + ONE[tile]))
        gen = (complete & FOUR_BITS).bit_count() if plain_gen else gen_count(rules, complete, melds)
        middle = jia_xin_wu_mask(packed + ONE[tile], tile, meld_bit) if rules.jia_xin_wu and mask else 0
        wait = scoring.wait(
            tile,
            COMBINE[mask][meld_bit] if mask else 0,
            facts,
            gen,
            situation | tiles_situation(complete),
            middle,
        )
        if wait is not None:
            waits.append(wait)
    return tuple(waits)
