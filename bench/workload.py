"""What the engine benches run: seeded winning hands, the bench round and the peer, as zero-argument calls.

The timing bench (``bench_engine``) and the instruction counts (``instructions``, under callgrind) build the
same calls from here, so a time and a count of the same name measure the same work. The peer is the
``mahjong`` package: ``Agari.is_agari`` on a 34-array of a hand's concealed part, and for the waits the
27-call search (each tile added in turn, ``is_agari`` asked). Only the engines' exported names are used.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mahjong.agari import Agari

from calculator.engine import Rules, find_waits, format_tiles, score_hand
from settlement.engine import settle_round

SEED = 20260
# Hands each operation runs on before it is measured: the engine's caches of values by facts fill as they
# would in a server that has scored a few hundred hands (and the interpreter specialises its code).
WARM_HANDS = 200
SUITS = 3

Call = Callable[[], object]


@dataclass(frozen=True)
class Hand:
    concealed: tuple[int, ...]  # 13 tiles (fewer with melds), sorted; 0-26 as in the 34-array
    win_tile: int
    melds: tuple[dict[str, str], ...]


def _sets(rng: random.Random, suits: list[int]) -> list[tuple[int, ...]] | None:
    counts = [0] * 27
    groups: list[tuple[int, ...]] = []
    for _ in range(4):
        suit = rng.choice(suits)
        rank = rng.randrange(9)
        group = (
            (9 * suit + rank,) * 3
            if rng.random() < 0.4 or rank > 6
            else tuple(9 * suit + rank + i for i in range(3))
        )
        groups.append(group)
    pair_tile = 9 * rng.choice(suits) + rng.randrange(9)
    groups.append((pair_tile, pair_tile))
    for group in groups:
        for tile in group:
            counts[tile] += 1
    return groups if max(counts) <= 4 else None


def _seven_pairs(rng: random.Random, suits: list[int]) -> list[tuple[int, ...]]:
    kinds = [9 * suit + rank for suit in suits for rank in range(9)]
    chosen = rng.sample(kinds, 6)
    chosen.append(rng.choice(chosen))  # sometimes a quad
    return [(tile, tile) for tile in chosen]


def make_hands(count: int, seed: int = SEED) -> list[Hand]:
    """Seeded winning hands in one or two suits: standard shapes (a third with a pung meld), seven pairs.

    The same seed gives the same hands whatever the count: a shorter list is a prefix of a longer one.
    """
    rng = random.Random(seed)
    hands: list[Hand] = []
    while len(hands) < count:
        suits = rng.sample(range(SUITS), rng.choice((1, 2, 2, 2)))
        groups = _seven_pairs(rng, suits) if rng.random() < 0.1 else _sets(rng, suits)
        if groups is None:
            continue
        melds: tuple[dict[str, str], ...] = ()
        pung = next((g for g in groups if len(g) == 3 and g[0] == g[1]), None)
        if pung is not None and rng.random() < 0.33:
            groups.remove(pung)
            melds = ({"kind": "pung", "tile": format_tiles(pung[:1])},)
        tiles = [tile for group in groups for tile in group]
        win = tiles.pop(rng.randrange(len(tiles)))
        hands.append(Hand(tuple(sorted(tiles)), win, melds))
    return hands


def array_34(tiles: tuple[int, ...]) -> list[int]:
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return counts


def search_waits(counts: list[int]) -> list[int]:
    """The peer's waits: try each of the 27 tiles with is_agari."""
    waits = []
    for tile in range(27):
        if counts[tile] < 4:
            counts[tile] += 1
            if Agari.is_agari(counts):
                waits.append(tile)
            counts[tile] -= 1
    return waits


# The bench round: four kongs, two wins scored from tiles (a discard win and a self-draw), then a 流局 that
# checks two hands given as tiles (find_waits for 花猪 / ready / best fan). The API bench posts it too.
ROUND: dict[str, Any] = {
    "dealer": 0,
    "void_suits": ["p", "s", "m", "s"],
    "events": [
        {"type": "kong", "player": 0, "kind": "concealed", "tile": "2m"},
        {"type": "kong", "player": 1, "kind": "direct", "tile": "5p", "from": 2},
        {"type": "kong", "player": 2, "kind": "added", "tile": "8s"},
        {"type": "kong", "player": 3, "kind": "concealed", "tile": "9m"},
        {
            "type": "win",
            "from": 0,
            "winners": [
                {
                    "player": 3,
                    "hand": {
                        "concealed": "123p234p678p4m",
                        "win_tile": "4m",
                        "melds": [{"kind": "kong_concealed", "tile": "9m"}],
                    },
                }
            ],
        },
        {
            "type": "win",
            "from": None,
            "winners": [
                {
                    "player": 1,
                    "hand": {
                        "concealed": "345m567m678m1m",
                        "win_tile": "1m",
                        "melds": [{"kind": "kong_direct", "tile": "5p"}],
                    },
                }
            ],
        },
        {
            "type": "draw",
            "players": [
                {
                    "player": 0,
                    "hand": {
                        "concealed": "123s456s33m77s",
                        "melds": [{"kind": "kong_concealed", "tile": "2m"}],
                    },
                },
                {
                    "player": 2,
                    "hand": {"concealed": "555s666s7s9s22p", "melds": [{"kind": "kong_added", "tile": "8s"}]},
                },
            ],
        },
    ],
}


BENCH_RULES = Rules.from_dict({"preset": "chengdu"})


def calls(hand_count: int, skip: int = 0) -> dict[str, list[Call]]:
    """Each measured operation as one zero-argument call per hand (per repeat for the round).

    ``is_agari`` and ``score_hand`` get the same 14-tile hands (the peer the concealed part, as its
    docstring allows with melds), ``search`` and ``find_waits`` the same 13-tile positions of other hands:
    none of them is a string the engine has parsed for another operation, and hands from ``skip`` on,
    so a warm-up on the first ones leaves the measured hands unseen (the parse cache helps none of them).
    ``settle_round`` settles the bench round once per hand's slot. ``empty`` is the floor: a call that
    does nothing, through the same loop.
    """
    hands = make_hands(skip + 2 * hand_count)[skip:]
    scored = [(format_tiles(h.concealed), format_tiles((h.win_tile,)), h.melds) for h in hands[:hand_count]]
    full_34 = [array_34((*h.concealed, h.win_tile)) for h in hands[:hand_count]]
    positions_34 = [array_34(h.concealed) for h in hands[hand_count:]]
    positions = [(format_tiles(h.concealed), h.melds) for h in hands[hand_count:]]
    # Each lambda binds its loop values as defaults (mypy cannot infer such a lambda: the ignores below);
    # a lambda, not a partial, so every call costs what the empty one measures (type: ignore[misc]: mypy
    # infers no type for a lambda's default arguments, the loop variables it binds).
    return {
        "empty": [lambda: None for _ in scored],
        "is_agari": [lambda c=c: Agari.is_agari(c) for c in full_34],  # type: ignore[misc]
        "score_hand": [lambda c=c, w=w, m=m: score_hand(c, w, m) for c, w, m in scored],  # type: ignore[misc]
        "search": [lambda c=c: search_waits(c) for c in positions_34],  # type: ignore[misc]
        "find_waits": [lambda c=c, m=m: find_waits(c, m) for c, m in positions],  # type: ignore[misc]
        "settle_round": [lambda: settle_round(rules=BENCH_RULES, **ROUND) for _ in scored],
    }
