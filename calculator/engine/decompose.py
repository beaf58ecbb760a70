"""Reading a hand's concealed tiles as sets and a pair, or as seven pairs, through the per-suit tables.

``standard_facts`` answers "does it split, and with which facts" with three lookups; ``best_sets`` finds one
split with the chosen facts, for display only, once per scored hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import product

from .tables import COMBINE, SPLITS, fact_bit
from .tiles import FOUR_BITS, LOW_BITS, RANK_BITS, SUIT_BITS, SUIT_MASK

Group = tuple[int, ...]  # tile indices of one set or pair


def standard_facts(packed: int) -> int:
    """The fact mask of every split of the concealed tiles into sets and one pair (0: none)."""
    first = SPLITS.get(packed & SUIT_MASK, 0)
    second = SPLITS.get((packed >> SUIT_BITS) & SUIT_MASK, 0)
    third = SPLITS.get(packed >> (2 * SUIT_BITS), 0)
    return COMBINE[COMBINE[first][second]][third]


def is_seven_pairs(packed: int, size: int) -> bool:
    """Fourteen concealed tiles, every kind held 2 or 4 times (the caller checks there are no melds)."""
    return size == 14 and not packed & LOW_BITS


def has_quad(packed: int) -> bool:
    return bool(packed & FOUR_BITS)


def best_sets(packed: int, wanted: int) -> tuple[Group, ...]:
    """One split of the concealed tiles whose facts are the single bit ``wanted``: the pair first."""
    keys = [(packed >> (SUIT_BITS * suit)) & SUIT_MASK for suit in range(3)]
    masks = [SPLITS[key] for key in keys]
    for bits in product(*(_bits_of(mask) for mask in masks)):
        if COMBINE[COMBINE[bits[0]][bits[1]]][bits[2]] & wanted:
            groups = [
                tuple(9 * suit + rank for rank in group)
                for suit, (key, bit) in enumerate(zip(keys, bits, strict=True))
                for group in suit_split(key, bit)
            ]
            pairs = [group for group in groups if len(group) == 2]
            return (*pairs, *sorted(group for group in groups if len(group) != 2))
    raise AssertionError("best_sets called with facts the tables do not give")


def seven_pairs_sets(packed: int) -> tuple[Group, ...]:
    counts = [(packed >> (RANK_BITS * index)) & 0b1111 for index in range(27)]
    return tuple((index, index) for index, count in enumerate(counts) for _ in range(count // 2))


def _bits_of(mask: int) -> tuple[int, ...]:
    return tuple(1 << bit for bit in range(4) if mask >> bit & 1)


@lru_cache(maxsize=4096)
def suit_split(key: int, wanted: int) -> tuple[Group, ...]:
    """One split of one suit (ranks 0..8) whose facts are the bit ``wanted``, by a plain search."""
    counts = [(key >> (RANK_BITS * rank)) & 0b1111 for rank in range(9)]
    size = sum(counts)
    for groups in _splits(counts, size % 3 == 2):
        has_run = any(len(group) == 3 and group[0] != group[1] for group in groups)
        terminal = all(0 in group or 8 in group for group in groups)
        if fact_bit(has_run, terminal) == wanted:
            return tuple(groups)
    raise AssertionError("suit_split called with facts the suit does not give")


def _splits(counts: list[int], need_pair: bool) -> Iterator[list[Group]]:
    """Every split of the counts into sets (and one pair if needed), lowest rank first."""
    rank = next((rank for rank, count in enumerate(counts) if count), None)
    if rank is None:
        if not need_pair:
            yield []
        return
    shapes: list[tuple[Group, bool]] = [((rank,) * 3, need_pair)]
    if need_pair:
        shapes.append(((rank, rank), False))
    if rank <= 6:
        shapes.append(((rank, rank + 1, rank + 2), need_pair))
    for group, still_need_pair in shapes:
        if all(counts[r] >= group.count(r) for r in set(group)):
            for r in group:
                counts[r] -= 1
            for rest in _splits(counts, still_need_pair):
                yield [group, *rest]
            for r in group:
                counts[r] += 1
