"""The per-suit tables against a plain recursive search on 10,000 seeded random hands.

The search here knows nothing of the tables: it splits the whole hand tile by tile and scores each split
straight from RULES.md's definitions. Hands are 14 tiles (a win) and 13 tiles (waits), with and without
melds, half built to win and half drawn at random from one or two suits, a few from three.
"""

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from calculator.engine import find_waits, format_tiles, score_hand
from calculator.engine.tiles import TILE_INDEX

SEED = 1_234_567
HANDS = 10_000
TERMINAL_RANKS = (0, 8)


def splits(counts: list[int], need_pair: bool) -> Iterator[list[tuple[int, ...]]]:
    """Every split of the counts (27 kinds) into pungs, runs and one pair, lowest kind first."""
    tile = next((tile for tile, count in enumerate(counts) if count), None)
    if tile is None:
        if not need_pair:
            yield []
        return
    shapes = [((tile,) * 3, need_pair)]
    if need_pair:
        shapes.append(((tile, tile), False))
    if tile % 9 <= 6:
        shapes.append(((tile, tile + 1, tile + 2), need_pair))
    for group, still_need_pair in shapes:
        needed = Counter(group)
        if all(counts[kind] >= number for kind, number in needed.items()):
            for kind in group:
                counts[kind] -= 1
            for rest in splits(counts, still_need_pair):
                yield [group, *rest]
            for kind in group:
                counts[kind] += 1


def standard_value(groups: list[tuple[int, ...]], tiles: list[int]) -> int:
    """The largest base pattern of one split, from RULES.md 3.1's table."""
    one_suit = len({tile // 9 for tile in tiles}) == 1
    no_runs = all(group[0] == group[-1] for group in groups)
    terminals = all(any(tile % 9 in TERMINAL_RANKS for tile in group) for group in groups)
    values = [1]
    values += [2] if no_runs else []
    values += [3] if one_suit else []
    values += [3] if terminals else []
    values += [4] if one_suit and no_runs else []
    values += [4] if no_runs and all(tile % 9 in (1, 4, 7) for tile in tiles) else []
    values += [5] if one_suit and terminals else []
    return max(values)


def seven_pairs_value(counts: list[int], tiles: list[int]) -> int | None:
    """(value - the quad a pattern counts itself) of seven pairs, or None."""
    if len(tiles) != 14 or any(count % 2 for count in counts):
        return None
    one_suit = len({tile // 9 for tile in tiles}) == 1
    quad = any(count == 4 for count in counts)
    return {(False, False): 3, (True, False): 5, (False, True): 5 - 1, (True, True): 6 - 1}[(one_suit, quad)]


def searched_fan(
    concealed: list[int], meld_tiles: list[int], meld_groups: list[tuple[int, ...]]
) -> int | None:
    """The best fan (pattern + gen, chengdu, no situation) of a complete hand, or None if it does not win."""
    tiles = concealed + meld_tiles
    if len({tile // 9 for tile in tiles}) == 3:
        return None
    counts = [concealed.count(kind) for kind in range(27)]
    values = [standard_value(groups + meld_groups, tiles) for groups in splits(counts, True)]
    if not meld_groups:
        seven = seven_pairs_value(counts, tiles)
        values += [] if seven is None else [seven]
    if not values:
        return None
    gen = sum(1 for kind in range(27) if tiles.count(kind) >= 4)
    return max(values) + gen


def random_hand(
    rng: random.Random, size: int
) -> tuple[list[int], list[dict[str, str]], list[int], list[tuple]]:
    """Concealed tiles (``size`` with no melds) and 0-2 melds; half built as sets and a pair."""
    suits = rng.sample(range(3), rng.choice((1, 2, 2, 2, 3)))
    kinds = [9 * suit + rank for suit in suits for rank in range(9)]
    counts = Counter()
    melds, meld_tiles, meld_groups = [], [], []
    for _ in range(rng.choice((0, 0, 1, 2))):
        tile = rng.choice(kinds)
        kind = rng.choice(("pung", "pung", "kong_direct", "kong_concealed"))
        width = 3 if kind == "pung" else 4
        if counts[tile]:
            continue
        counts[tile] = width
        melds.append({"kind": kind, "tile": format_tiles((tile,))})
        meld_tiles += [tile] * width
        meld_groups.append((tile,) * 3)
    concealed: list[int] = []
    want = size - 3 * len(melds)
    if rng.random() < 0.5:
        for _ in range(40):  # sets while there is room for them and a pair, then the pair
            start = rng.choice(kinds)
            shapes = ([start] * 3, [start, start + 1, start + 2], [start] * 2)
            group = (
                shapes[2] if len(concealed) + 3 > want - 2 else shapes[rng.random() < 0.6 and start % 9 <= 6]
            )
            if len(concealed) + len(group) <= want and all(counts[t] + group.count(t) <= 4 for t in group):
                concealed += group
                counts.update(group)
            if len(concealed) >= want - 1:
                break
    while len(concealed) < want:
        tile = rng.choice(kinds)
        if counts[tile] < 4:
            concealed.append(tile)
            counts[tile] += 1
    return concealed, melds, meld_tiles, meld_groups


def hands(size: int, count: int, seed: int):
    rng = random.Random(seed)
    return [random_hand(rng, size) for _ in range(count)]


WINS = hands(14, HANDS // 2, SEED)
POSITIONS = hands(13, HANDS // 2, SEED + 1)


@pytest.mark.parametrize("chunk", range(10))
def test_win_check_and_best_fan_agree_with_the_search(chunk):
    for concealed, melds, meld_tiles, meld_groups in WINS[chunk::10]:
        *held, win_tile = concealed
        result = score_hand(
            format_tiles(held), format_tiles((win_tile,)), melds=melds, rules={"dingque": False}
        )
        expected = searched_fan(concealed, meld_tiles, meld_groups)
        assert (result.win, result.fan if result.win else None) == (expected is not None, expected), (
            format_tiles(sorted(concealed)),
            melds,
        )


def searched_waits(concealed: list[int], meld_tiles: list[int], meld_groups: list[tuple], live: bool) -> dict:
    """Every tile that completes the position, with the completed hand's fan, by trying all 27."""
    waits = {}
    if len({tile // 9 for tile in concealed + meld_tiles}) < 3:
        for tile in range(27):
            if (concealed + meld_tiles).count(tile) < (4 if live else 5):
                fan = searched_fan([*concealed, tile], meld_tiles, meld_groups)
                if fan is not None:
                    waits[format_tiles((tile,))] = fan
    return waits


@pytest.mark.parametrize("chunk", range(10))
def test_waits_and_their_fan_agree_with_the_search(chunk):
    for concealed, melds, meld_tiles, meld_groups in POSITIONS[chunk::10]:
        result = find_waits(format_tiles(concealed), melds=melds)
        expected = searched_waits(concealed, meld_tiles, meld_groups, live=True)
        assert {wait.tile: wait.fan for wait in result.waits} == expected, (
            format_tiles(sorted(concealed)),
            melds,
        )
        assert result.ready is bool(expected)


def test_waits_on_a_fifth_copy_agree_with_the_search_when_they_count():
    """ting_requires_live_wait off: a wait on a kind held four times counts, its quad once as a gen."""
    rules = {"ting_requires_live_wait": False}
    fifth_copy_waits = 0
    for concealed, melds, meld_tiles, meld_groups in POSITIONS[:2000]:
        result = find_waits(format_tiles(concealed), melds=melds, rules=rules)
        expected = searched_waits(concealed, meld_tiles, meld_groups, live=False)
        assert {wait.tile: wait.fan for wait in result.waits} == expected, (
            format_tiles(sorted(concealed)),
            melds,
        )
        fifth_copy_waits += sum(
            1 for tile in expected if (concealed + meld_tiles).count(TILE_INDEX[tile]) == 4
        )
    assert fifth_copy_waits > 0


def test_the_random_hands_cover_wins_waits_and_melds():
    """The comparison is only worth something if the samples hold every case."""
    wins = sum(
        1 for concealed, _, tiles, groups in WINS if searched_fan(concealed, tiles, groups) is not None
    )
    with_melds = sum(1 for _, melds, _, _ in WINS + POSITIONS if melds)
    assert len(WINS) + len(POSITIONS) >= 10_000
    assert wins > 1000
    assert with_melds > 2000
