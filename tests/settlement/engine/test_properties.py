"""Properties over random valid rounds dealt from a real 108-tile set (see random_rounds.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from settlement.engine import settle_round, settle_up

from .random_rounds import random_round, rotate_round

ROUNDS = settings(max_examples=150, deadline=None)


@ROUNDS
@given(st.randoms(use_true_random=False))
def test_every_round_balances(rng: random.Random):
    result = settle_round(**random_round(rng))
    assert sum(result.net) + result.house == 0
    net = [0, 0, 0, 0]
    for transfer in result.transfers:
        assert transfer.points > 0 and transfer.payer != transfer.payee
        net[transfer.payer] -= transfer.points
        if transfer.payee is not None:
            net[transfer.payee] += transfer.points
    assert net == list(result.net)


@ROUNDS
@given(st.randoms(use_true_random=False), st.integers(1, 3))
def test_rotating_the_seats_rotates_the_result(rng: random.Random, by: int):
    body = random_round(rng)
    plain = settle_round(**body)
    turned = settle_round(**rotate_round(body, by))
    assert [turned.net[(seat + by) % 4] for seat in range(4)] == list(plain.net)
    assert turned.house == plain.house
    assert turned.winners == tuple((seat + by) % 4 for seat in plain.winners)
    assert turned.finished == plain.finished
    assert turned.next_dealer == (None if plain.next_dealer is None else (plain.next_dealer + by) % 4)
    if plain.coins is not None:
        assert turned.coins is not None
        assert [turned.coins.change[(seat + by) % 4] for seat in range(4)] == list(plain.coins.change)
        assert turned.coins.house == plain.coins.house


@ROUNDS
@given(st.randoms(use_true_random=False))
def test_coins_balance_and_never_go_below_zero(rng: random.Random):
    body = random_round(rng)
    body["coins"] = {
        "balances": [rng.choice((0, 7, 100, 5000, 10**6)) for _ in range(4)],
        "room_coefficient": rng.randint(1, 100),
    }
    result = settle_round(**body)
    coins = result.coins
    assert coins is not None
    paid = sum(-change for change in coins.change if change < 0)
    received = sum(change for change in coins.change if change > 0)
    assert paid == received + coins.house
    assert coins.house >= 0
    assert all(balance >= 0 for balance in coins.balances)
    assert all(change <= 0 for change, points in zip(coins.change, result.net, strict=True) if points < 0)
    assert all(change >= 0 for change, points in zip(coins.change, result.net, strict=True) if points > 0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-500, 500), min_size=1, max_size=12))
def test_settle_up_zeroes_every_balance_in_at_most_n_minus_1(values: list[int]):
    balances = [*values, -sum(values)]
    payments = settle_up(balances)
    left = list(balances)
    for payment in payments:
        assert payment.amount > 0
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    assert left == [0] * len(balances)
    assert len(payments) <= len(balances) - 1
