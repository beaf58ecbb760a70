"""Settling up a session: the fewest transfers that zero every balance (RULES.md 10)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from settlement.engine import EngineError, settle_up


def _apply(balances, payments):
    left = list(balances)
    for payment in payments:
        assert payment.amount > 0
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    return left


@pytest.mark.parametrize(
    ("balances", "fewest"),
    [
        pytest.param([0, 0, 0, 0], 0, id="nothing-to-settle"),
        pytest.param([-78, 144, -90, 24], 3, id="no-zero-sum-pair-needs-n-minus-1"),
        pytest.param([5, -5, 3, -3], 2, id="two-pairs"),
        pytest.param([7, 3, -5, -5, 6, -6], 4, id="a-group-of-four-and-a-pair"),
        pytest.param([10, -4, -6, 0, 0], 2, id="zeros-take-no-part"),
        pytest.param([1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6], 6, id="six-pairs-among-twelve"),
    ],
)
def test_settle_up_finds_the_fewest_transfers(balances, fewest):
    payments = settle_up(balances)
    assert _apply(balances, payments) == [0] * len(balances)
    assert len(payments) == fewest


def test_beyond_the_exact_limit_a_greedy_settles_in_at_most_n_minus_1():
    balances = [(-1) ** i * (i + 1) for i in range(20)] + [10]  # 1 - 2 + 3 ... - 20 = -10, evened by +10
    assert sum(balances) == 0
    payments = settle_up(balances)
    assert _apply(balances, payments) == [0] * len(balances)
    assert len(payments) <= len(balances) - 1


def test_payments_serialise_with_from_and_to():
    assert [payment.to_dict() for payment in settle_up([-3, 3])] == [{"from": 0, "to": 1, "amount": 3}]


@pytest.mark.parametrize(
    ("balances", "field"),
    [
        pytest.param([1, 2, -2], "balances", id="not-summing-to-zero"),
        pytest.param([1, -1.0], "balances[1]", id="a-float"),
        pytest.param([True, -1], "balances[0]", id="a-boolean"),
    ],
)
def test_settle_up_rejects_balances_it_cannot_settle(balances, field):
    with pytest.raises(EngineError) as caught:
        settle_up(balances)
    assert caught.value.field == field


def _most_zero_sum_groups(values: list[int]) -> int:
    """Brute force over every set partition: the most blocks that each sum to zero."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    for mask in range(1 << len(rest)):
        block = [first] + [value for bit, value in enumerate(rest) if mask >> bit & 1]
        if sum(block) == 0:
            others = [value for bit, value in enumerate(rest) if not mask >> bit & 1]
            best = max(best, 1 + _most_zero_sum_groups(others))
    return best


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-6, 6).filter(bool), min_size=1, max_size=7))
def test_settle_up_is_exactly_the_fewest_for_small_sessions(values: list[int]):
    balances = [*values, -sum(values)] if sum(values) else values
    owing = [balance for balance in balances if balance]
    assert len(settle_up(balances)) == len(owing) - _most_zero_sum_groups(owing)
