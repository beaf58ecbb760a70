"""Reading a hand's concealed tiles as sets and a pair, or as seven pairs, through the per-suit tables.

``standard_facts`` answers "does it split, and with which facts" with three lookups; ``best_set_names``
names one split with the chosen facts, for display only, once per scored hand.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import product

from .patterns import HAS_QUAD, SEVEN_PAIRS
from .tables import COMBINE, GROUPS, SPLITS, WAYS, way_groups
from .tiles import FOUR_BITS, LOW_BITS, RANK_BITS, SUIT_BITS, SUIT_MASK, format_tiles

SetName = tuple[int, str]  # (suit, compact name such as "123m"): sorts in tile order within a suit


def standard_facts(packed: int) -> int:
    """The fact mask of every split of the concealed tiles into sets and one pair (0: none)."""
    first = SPLITS.get(packed & SUIT_MASK, 0)
    second = SPLITS.get((packed >> SUIT_BITS) & SUIT_MASK, 0)
    third = SPLITS.get(packed >> (2 * SUIT_BITS), 0)
    return COMBINE[COMBINE[first][second]][third]


def seven_pairs_facts(packed: int) -> int:
    """The seven-pairs fact bits of fourteen concealed tiles (the caller checks there are no melds):
    every kind held 2 or 4 times; 0 when they are not seven pairs."""
    if packed & LOW_BITS:
        return 0
    return SEVEN_PAIRS | (HAS_QUAD if packed & FOUR_BITS else 0)


def best_set_names(packed: int, wanted: int, melds: tuple[SetName, ...], melds_facts: int) -> tuple[str, ...]:
    """One split of the concealed tiles whose facts are the single bit ``wanted``, named with the melds:
    the pair first, then the sets in tile order (suits m, p, s; a suit's names sort as its tiles do)."""
    keys = (packed & SUIT_MASK, (packed >> SUIT_BITS) & SUIT_MASK, packed >> (2 * SUIT_BITS))
    bits = _suit_bits(SPLITS[keys[0]], SPLITS[keys[1]], SPLITS[keys[2]], melds_facts, wanted)
    pair_m, sets_m = _suit_names(keys[0], bits[0], 0)
    pair_p, sets_p = _suit_names(keys[1], bits[1], 1)
    pair_s, sets_s = _suit_names(keys[2], bits[2], 2)
    if not melds:
        return (*pair_m, *pair_p, *pair_s, *sets_m, *sets_p, *sets_s)
    # list comprehensions, not generators: they run inline (PEP 709), a generator needs its own frame
    named = sorted([*melds, *[(0, n) for n in sets_m], *[(1, n) for n in sets_p], *[(2, n) for n in sets_s]])
    return (*pair_m, *pair_p, *pair_s, *[name for _, name in named])


@cache  # at most 16 ** 3 x 4 x 4 entries
def _suit_bits(first: int, second: int, third: int, melds_facts: int, wanted: int) -> tuple[int, int, int]:
    """Which fact bit each suit's split must have for the hand to have the facts ``wanted``."""
    for bits in product(_bits_of(first), _bits_of(second), _bits_of(third)):
        if COMBINE[COMBINE[COMBINE[bits[0]][bits[1]]][bits[2]]][melds_facts] & wanted:
            return bits
    raise AssertionError("best_set_names called with facts the tables do not give")


# Each group's name in each suit ((0, 1, 2) is "123m" in 万), so naming a split is lookups, not formatting.
_GROUP_NAMES = tuple(
    {group: format_tiles(9 * suit + rank for rank in group) for group in GROUPS} for suit in range(3)
)
_PAIR_NAME_LENGTH = 3  # two digits and the suit letter; a set's name has three digits


@lru_cache(maxsize=65536)
def _suit_names(key: int, wanted: int, suit: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The pair (if any) and the sorted sets of one suit's split with the fact ``wanted``, as names."""
    names = _GROUP_NAMES[suit]
    named = [names[group] for group in way_groups(WAYS[key << 4 | wanted])]
    return (
        tuple([name for name in named if len(name) == _PAIR_NAME_LENGTH]),
        tuple(sorted([name for name in named if len(name) != _PAIR_NAME_LENGTH])),
    )


def seven_pairs_sets(packed: int) -> tuple[int, ...]:
    """The tile of each pair, a quad giving two."""
    return tuple(index for index in range(27) for _ in range(((packed >> (RANK_BITS * index)) & 0b1111) // 2))


def _bits_of(mask: int) -> tuple[int, ...]:
    return tuple(1 << bit for bit in range(4) if mask >> bit & 1)


def is_win(packed: int, no_melds: bool) -> bool:
    """Whether the concealed tiles (with the winning tile) form sets and a pair, or seven pairs."""
    return bool(standard_facts(packed)) or (no_melds and not packed & LOW_BITS)
