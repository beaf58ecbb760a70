"""刮风下雨: who pays for each kind of kong under each option (RULES.md 4.4)."""

from __future__ import annotations

import pytest

from .rounds import by_fan, kong, net, settle, win

A, B, C, D = 0, 1, 2, 3


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        # C 直杠s B's discard
        pytest.param({}, [0, -2, 2, 0], id="chengbao-feeder-pays-2b"),
        pytest.param({"direct_kong": "jia_jia_you"}, [-1, -2, 4, -1], id="jia-jia-you-feeder-2b-others-1b"),
        pytest.param({"direct_kong": "feeder_1"}, [0, -1, 1, 0], id="feeder-1-pays-1b"),
        pytest.param({"base_points": 6}, [0, -12, 12, 0], id="amounts-are-in-b"),
    ],
)
def test_a_direct_kong_is_paid_by_its_feeder(options, expected):
    assert net(kong(C, "direct", "7m", feeder=B), **options) == expected


@pytest.mark.parametrize(
    ("kind", "options", "expected"),
    [
        pytest.param("added", {}, [-1, 3, -1, -1], id="added-1b-each"),
        pytest.param("added", {"added_kong_points": 2}, [-2, 6, -2, -2], id="added-2b-each"),
        pytest.param("added", {"added_kong_points": 0}, [0, 0, 0, 0], id="added-worth-nothing"),
        pytest.param("concealed", {}, [-2, 6, -2, -2], id="concealed-2b-each"),
        pytest.param("concealed", {"concealed_kong_points": 3}, [-3, 9, -3, -3], id="concealed-3b-each"),
    ],
)
def test_added_and_concealed_kongs_are_paid_by_every_opponent(kind, options, expected):
    assert net(kong(B, kind, "8m"), **options) == expected


def test_players_who_have_won_pay_for_no_kong():
    # A self-draws 平胡: (1 + 1) x 3 -> A +6. Then 家家有 直杠 by C fed by B: B 2, D 1, A nothing.
    result = settle(win(None, by_fan(A, 1)), kong(C, "direct", "7m", feeder=B), direct_kong="jia_jia_you")
    assert list(result.net) == [6, -4, 1, -3]


def test_every_kong_payment_is_kept_per_payer():
    result = settle(kong(B, "concealed", "8m"))
    assert result.to_dict()["state"]["kong_payments"] == [
        {"kong": 0, "maker": B, "payer": payer, "points": 2, "state": "paid"} for payer in (A, C, D)
    ]
    assert {transfer.reason.value for transfer in result.transfers} == {"concealed_kong"}
    assert result.transfers[0].detail["kong"] == 0
