"""游戏币: points to coins with short losers, exact rounding and the house's tax (RULES.md 8)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from settlement.engine.coins import CoinStakes, settle_coins

from .rounds import by_fan, escape, settle, win

A, B, C, D = 0, 1, 2, 3


def test_example_17_a_short_loser_and_ten_percent_tax():
    # C owes 9000, holds 4500: pool 7800 + 4500 = 12300, shared 144 : 24 -> 10542.86 / 1757.14 -> 10543 / 1757
    # (B has the larger fraction); after tax floor(9488.7) = 9488 and floor(1581.3) = 1581; house 1231
    result = settle_coins(
        [-78, 144, -90, 24], 0, CoinStakes((100000, 100000, 4500, 100000), 100), Decimal("0.1"), A
    )
    assert (result.change, result.house, result.balances) == (
        (-7800, 9488, -4500, 1581),
        1231,
        (92200, 109488, 0, 101581),
    )
    assert (result.pool, result.shares, result.short) == (12300, (0, 10543, 0, 1757), (C,))


def test_the_qq_example_a_self_draw_against_three():
    # base 20, 平胡 self-draw under the qq preset (no bonus): 20 points each = 2000 coins; A 6000 less 10%
    result = settle(
        win(None, by_fan(A, 1)),
        preset="qq",
        base_points=20,
        coins={"balances": [10000] * 4, "room_coefficient": 100},
    )
    assert result.coins is not None
    assert (result.coins.change, result.coins.house) == ((5400, -2000, -2000, -2000), 600)


def test_tax_is_computed_exactly():
    # 0.3 of 90 leaves 63; binary floating point would give 62
    result = settle_coins([-1, 1, 0, 0], 0, CoinStakes((1000,) * 4, 90), Decimal("0.3"), A)
    assert (result.change, result.house) == ((-90, 63, 0, 0), 27)


@pytest.mark.parametrize(
    ("dealer", "expected"),
    [
        # A owes 200 but holds 101: B and D claim 100 each -> 50.5 each; the tied coin goes to whoever comes
        # first in play order from the dealer
        pytest.param(A, (-101, 51, 0, 50), id="dealer-a-b-comes-first"),
        pytest.param(C, (-101, 50, 0, 51), id="dealer-c-d-comes-first"),
    ],
)
def test_tied_leftover_coins_go_to_the_dealer_first_then_play_order(dealer, expected):
    result = settle_coins([-2, 1, 0, 1], 0, CoinStakes((101, 0, 0, 0), 100), Decimal(0), dealer)
    assert result.change == expected


def test_the_house_takes_a_tied_leftover_coin_last():
    # A owes 2 and holds 1; B and the house (1 burned point) claim 1 each: 0.5 each, the coin goes to B
    result = settle_coins([-2, 1, 0, 0], 1, CoinStakes((1, 0, 0, 0), 1), Decimal(0), A)
    assert (result.change, result.house, result.house_share) == ((-1, 1, 0, 0), 0, 0)


def test_burned_points_are_the_houses_claim():
    result = settle(
        escape(D), escape_penalty_to="burn", coins={"balances": [0, 0, 0, 1000], "room_coefficient": 10}
    )
    assert result.coins is not None
    assert (result.coins.change, result.coins.house) == ((0, 0, 0, -480), 480)


def test_a_broke_loser_pays_nothing_and_balances_never_go_below_zero():
    result = settle(win(A, by_fan(B, 3)), coins={"balances": [0, 50, 50, 50], "room_coefficient": 10})
    assert result.coins is not None
    assert (result.coins.change, result.coins.balances) == ((0, 0, 0, 0), (0, 50, 50, 50))


def test_coins_appear_only_when_asked():
    assert "coins" not in settle(win(A, by_fan(B, 1))).to_dict()
