"""The per-suit tables, suit by suit, against a plain search (Hypothesis draws the suits)."""

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.engine.tables import COMPLETIONS, SPLITS, WAYS, fact_bit, key_of, way_groups

suits = st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda counts: sum(counts) <= 14)


def plain_splits(counts: list[int], need_pair: bool) -> Iterator[list[tuple[int, ...]]]:
    rank = next((rank for rank, count in enumerate(counts) if count), None)
    if rank is None:
        yield from ([[]] if not need_pair else [])
        return
    options = [((rank,) * 3, need_pair)] + ([((rank, rank), False)] if need_pair else [])
    options += [((rank, rank + 1, rank + 2), need_pair)] if rank <= 6 else []
    for group, still in options:
        if all(counts[r] >= group.count(r) for r in group):
            for r in group:
                counts[r] -= 1
            for rest in plain_splits(counts, still):
                yield [group, *rest]
            for r in group:
                counts[r] += 1


def plain_facts(counts: list[int]) -> int:
    mask = 0
    if sum(counts) % 3 != 1:
        for groups in plain_splits(list(counts), sum(counts) % 3 == 2):
            has_run = any(group[0] != group[-1] for group in groups)
            mask |= fact_bit(has_run, all(0 in group or 8 in group for group in groups))
    return mask


def key(counts: list[int]) -> int:
    return key_of(tuple(rank for rank, count in enumerate(counts) for _ in range(count)))


@settings(max_examples=600, deadline=None)
@given(suits)
def test_splits_hold_exactly_the_facts_of_every_split(counts):
    assert SPLITS.get(key(counts), 0) == plain_facts(counts)


@settings(max_examples=300, deadline=None)
@given(suits)
def test_each_way_is_a_split_of_its_key_with_its_fact(counts):
    mask = SPLITS.get(key(counts), 0)
    for bit in (1, 2, 4, 8):
        if mask & bit:
            groups = way_groups(WAYS[key(counts) << 4 | bit])
            assert key_of(tuple(rank for group in groups for rank in group)) == key(counts)
            has_run = any(group[0] != group[-1] for group in groups)
            assert fact_bit(has_run, all(0 in group or 8 in group for group in groups)) == bit


@settings(max_examples=300, deadline=None)
@given(suits.filter(lambda counts: sum(counts) <= 13))
def test_completions_are_the_ranks_that_make_a_split(counts):
    expected = []
    for rank in range(9):
        grown = [count + (r == rank) for r, count in enumerate(counts)]
        facts = plain_facts(grown)
        if facts:
            expected.append(rank | facts << 4)
    assert sorted(COMPLETIONS.get(key(counts), ())) == sorted(expected)
