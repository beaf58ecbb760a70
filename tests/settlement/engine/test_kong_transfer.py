"""杠上炮 and 呼叫转移: the kong player hands over his kong income (RULES.md 4.7)."""

from __future__ import annotations

import pytest

from .rounds import by_fan, draw, kong, net, settle, status, win

A, B, C, D = 0, 1, 2, 3


@pytest.mark.parametrize(
    ("transfer", "expected"),
    [
        # B 暗杠 (A, C, D pay 2: +6), then 弯杠 (1 each: +3), then C wins 2 fan on B's discard: B pays 2
        pytest.param("last_kong", [-3, 4, 2, -3], id="last-kong-hands-over-3"),  # B 9 - 2 - 3
        pytest.param("all_kongs", [-3, -2, 8, -3], id="all-kongs-hands-over-9"),  # B 9 - 2 - 9
        pytest.param("none", [-3, 7, -1, -3], id="none-keeps-it"),  # B 9 - 2
    ],
)
def test_gang_shang_pao_transfer_after_two_kongs_in_one_turn(transfer, expected):
    events = (kong(B, "concealed", "2p"), kong(B, "added", "8m"), win(B, by_fan(C, 2), after_kong=True))
    assert net(*events, gang_shang_pao_transfer=transfer) == expected


@pytest.mark.parametrize(
    ("how", "expected"),
    [
        # B 弯杠: +3. C (2 fan) and D (3 fan) win on B's next discard: B pays 2 + 4.
        pytest.param("each", [-1, -9, 4, 6], id="each-winner-a-full-copy"),  # B 3 - 6 - 3 - 3
        pytest.param("first", [-1, -6, 4, 3], id="only-the-first-after-the-discarder"),  # C gets 3
        pytest.param("split", [-1, -6, 3, 4], id="split-3-as-2-and-1"),  # C 2 (remainder), D 1
    ],
)
def test_multi_winner_transfer(how, expected):
    events = (kong(B, "added", "8m"), win(B, by_fan(D, 3), by_fan(C, 2), after_kong=True))
    assert net(*events, multi_winner_transfer=how) == expected


def test_transferred_kong_money_is_not_refunded_again_at_the_draw():
    # B 弯杠 +3; C wins 2 fan on B's discard: B pays 2 and hands over 3. At the draw B is not ready: he has
    # nothing left to refund; he pays A and D 1 each for 查大叫.
    result = settle(
        kong(B, "added", "8m"),
        win(B, by_fan(C, 2), after_kong=True),
        draw(status(A, "ready", 1), status(B, "not_ready"), status(D, "ready", 1)),
    )
    assert list(result.net) == [0, -4, 4, 0]
    assert {payment["state"] for payment in result.to_dict()["state"]["kong_payments"]} == {"transferred"}


def test_a_flower_on_the_kong_hands_nothing_over():
    # 暗杠 2 x 3; 杠上花 3 fan: (4 + 1) x 3
    assert net(kong(B, "concealed", "8m"), win(None, by_fan(B, 3), after_kong=True)) == [-7, 21, -7, -7]


def test_the_transfer_names_the_kongs_it_came_from():
    result = settle(kong(B, "added", "8m"), win(B, by_fan(C, 2), after_kong=True))
    handed = [transfer for transfer in result.transfers if transfer.reason.value == "kong_transfer"]
    assert [(t.payer, t.payee, t.points, t.detail["kongs"]) for t in handed] == [(B, C, 3, [0])]
