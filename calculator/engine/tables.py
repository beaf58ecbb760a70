"""Per-suit lookup tables, built once at import (RULES.md section 2, ARCHITECTURE.md "Speed").

A suit's nine counts, packed four bits a rank, are its key. Every way a suit can hold sets (pungs, runs) and
at most one pair is generated from the sets themselves, so ``SPLITS`` holds exactly the keys that split:

- ``SPLITS[key]``: a 4-bit mask of the *facts* its splits can give, bit ``2 * has_run + all_terminal``
  (``has_run``: some set is a run; ``all_terminal``: every set and the pair hold a 1 or a 9). These are the
  only facts about a split that a base pattern needs; everything else is a property of the tiles.
  Whether the split has a pair follows from the key's size (pair iff size % 3 == 2).
- ``WAYS[key << 4 | bit]``: one split of ``key`` with the fact ``bit``, coded (``way_groups``), to show it.
- ``COMPLETIONS[key]``: for a key one tile short of a split, the ranks that complete it, each packed as
  ``rank | facts_mask << 4`` (the facts of the completed key).
- ``COMBINE[a][b]``: the fact mask of two parts of a hand taken together (runs: any; terminals: all).

Counts go up to 5 so that a wait on a fifth copy can be valued when live waits are not required.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from .tiles import RANK_BITS

MAX_COUNT = 5  # the _TWOS test below assumes it
MAX_SETS = 4

# A set or pair: (ranks 0..8, is a run, holds a 1 or 9)
_Group = tuple[tuple[int, ...], bool, bool]


def fact_bit(has_run: bool, all_terminal: bool) -> int:
    return 1 << (2 * has_run + all_terminal)


def _sets() -> tuple[_Group, ...]:
    pungs = tuple(((rank,) * 3, False, rank in (0, 8)) for rank in range(9))
    runs = tuple(((rank, rank + 1, rank + 2), True, rank in (0, 6)) for rank in range(7))
    return pungs + runs


def _pairs() -> tuple[_Group, ...]:
    return tuple(((rank, rank), False, rank in (0, 8)) for rank in range(9))


SETS = _sets()
PAIRS = _pairs()
GROUPS: tuple[tuple[int, ...], ...] = tuple(group[0] for group in SETS + PAIRS)  # a way's codes index these


def key_of(ranks: tuple[int, ...]) -> int:
    return sum(1 << (RANK_BITS * rank) for rank in ranks)


_TWOS = key_of(tuple(range(9)) * 2)
_THREES = key_of(tuple(range(9)) * 3)
_EIGHTS = key_of(tuple(range(9)) * 8)


def _way_code(group_ids: tuple[int, ...]) -> int:
    """A split as an int: five bits per group, ``GROUPS`` index + 1."""
    return sum((group_id + 1) << (5 * position) for position, group_id in enumerate(group_ids))


def way_groups(code: int) -> tuple[tuple[int, ...], ...]:
    """The groups (ranks) of a split from its code."""
    groups = []
    while code:
        groups.append(GROUPS[(code & 0b11111) - 1])
        code >>= 5
    return tuple(groups)


def build_splits() -> tuple[dict[int, int], dict[int, int]]:
    """SPLITS, and WAYS: for each key and fact bit (``key << 4 | bit``), the code of one split with it."""
    splits: dict[int, int] = {}
    ways: dict[int, int] = {}
    set_keys = tuple(key_of(group[0]) for group in SETS)
    # (pair key, pair's GROUPS index or None, pair holds a terminal); the first option is no pair
    pair_options = (
        (0, None, True),
        *((key_of(pair[0]), len(SETS) + rank, pair[2]) for rank, pair in enumerate(PAIRS)),
    )
    for size in range(MAX_SETS + 1):
        for chosen in combinations_with_replacement(range(len(SETS)), size):
            sets_key = sum(set_keys[index] for index in chosen)
            has_run = any(SETS[index][1] for index in chosen)
            terminal = all(SETS[index][2] for index in chosen)
            for pair_key, pair_id, pair_terminal in pair_options:
                key = sets_key + pair_key
                if (key | (key + _TWOS)) & _EIGHTS:
                    continue  # more than MAX_COUNT copies of a rank: a count + 2 reaches 8
                bit = fact_bit(has_run, terminal and pair_terminal)
                known = splits.get(key, 0)
                if not known & bit:
                    splits[key] = known | bit
                    ways[key << 4 | bit] = _way_code(chosen if pair_id is None else (pair_id, *chosen))
    return splits, ways


def build_completions(splits: dict[int, int]) -> dict[int, tuple[int, ...]]:
    """For each key one tile short of a split: its completing ranks (in no order), ``rank | facts << 4``."""
    found: dict[int, list[int]] = {}
    for key, facts in splits.items():
        high = facts << 4
        rest, rank, one = key, 0, 1
        while rest:  # rank by rank up to the highest one held: this loop is most of the import time
            if rest & 0b1111:
                short = key - one
                if not (short + _THREES) & _EIGHTS:  # a fifth copy held: no hand holds that
                    codes = found.get(short)
                    if codes is None:
                        found[short] = [rank | high]
                    else:
                        codes.append(rank | high)
            rest >>= RANK_BITS
            rank += 1
            one <<= RANK_BITS
    return {short: tuple(codes) for short, codes in found.items()}


def build_combine() -> tuple[tuple[int, ...], ...]:
    def combined(first: int, second: int) -> int:
        mask = 0
        for a in range(4):
            for b in range(4):
                if first >> a & 1 and second >> b & 1:
                    mask |= fact_bit(bool((a | b) & 2), bool(a & b & 1))
        return mask

    return tuple(tuple(combined(first, second) for second in range(16)) for first in range(16))


SPLITS, WAYS = build_splits()
COMPLETIONS: dict[int, tuple[int, ...]] = build_completions(SPLITS)
COMBINE: tuple[tuple[int, ...], ...] = build_combine()
