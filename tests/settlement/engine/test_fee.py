"""The table fee's shares (settlement/engine/fee.py): whole numbers that always sum to the fee."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from settlement.engine import FeeSplit, fee_shares


@pytest.mark.parametrize(
    ("nets", "amount", "split", "shares"),
    [
        pytest.param([-5, 15, -5, -5], 40, FeeSplit.AA, (10, 10, 10, 10), id="aa-even"),
        pytest.param(
            [-5, 15, -6, -4], 42, FeeSplit.AA, (10, 11, 10, 11), id="aa-the-two-left-to-the-best-placed"
        ),
        pytest.param([-5, 15, -5, -5], 30, FeeSplit.TOP_WINNER, (0, 30, 0, 0), id="top-winner"),
        pytest.param(
            [10, 10, -5, -15], 31, FeeSplit.TOP_WINNER, (16, 15, 0, 0), id="top-winners-tied-share-it"
        ),
        pytest.param([30, 10, -15, -25], 20, FeeSplit.WINNERS, (15, 5, 0, 0), id="winners-in-proportion"),
        pytest.param([20, 10, -15, -15], 10, FeeSplit.WINNERS, (7, 3, 0, 0), id="winners-largest-remainder"),
        pytest.param([0, 0, 0, 0], 10, FeeSplit.WINNERS, (3, 3, 2, 2), id="nobody-ahead-is-aa"),
        pytest.param([-5, 15, -5, -5], 0, FeeSplit.WINNERS, (0, 0, 0, 0), id="no-fee"),
    ],
)
def test_the_shares_of_a_fee(nets, amount, split, shares):
    assert fee_shares(nets, amount, split) == shares


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a loaded CI box
@given(
    st.lists(st.integers(-(10**6), 10**6), min_size=2, max_size=6),
    st.integers(0, 10**6),
    st.sampled_from(FeeSplit),
)
def test_the_shares_are_whole_never_negative_and_sum_to_the_fee(nets, amount, split):
    shares = fee_shares(nets, amount, split)
    assert sum(shares) == amount and all(share >= 0 for share in shares)
    if split is FeeSplit.WINNERS and any(net > 0 for net in nets):
        assert all(share == 0 for share, net in zip(shares, nets, strict=True) if net <= 0)
