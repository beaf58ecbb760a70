"""Wins: 点炮, 自摸 and its bonus, 一炮多响 / 截胡, 抢杠胡, 点杠花, the cap (RULES.md 4.1 to 4.6)."""

from __future__ import annotations

import pytest

from .rounds import by_fan, by_hand, kong, net, reasons, settle, win

A, B, C, D = 0, 1, 2, 3


def test_the_discarder_alone_pays_a_win_on_his_discard():
    # 3 fan = x4
    assert net(win(A, by_fan(B, 3))) == [-4, 4, 0, 0]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        pytest.param({}, [-3, 9, -3, -3], id="jia-di-2-plus-1-from-each"),
        pytest.param({"zimo_bonus": "none"}, [-2, 6, -2, -2], id="none-2-from-each"),
        # a fan entered by hand already holds the 自摸加番: 2 fan stays x2
        pytest.param({"zimo_bonus": "jia_fan"}, [-2, 6, -2, -2], id="jia-fan-entered-fan-taken-as-is"),
    ],
)
def test_a_self_draw_is_paid_by_every_active_opponent(options, expected):
    assert net(win(None, by_fan(B, 2)), **options) == expected


def test_jia_fan_adds_a_fan_to_a_hand_scored_from_tiles():
    # 清一色 3 + 自摸加番 1 = 4 fan = x8 from each of A, C, D, no 加底
    result = settle(win(None, by_hand(B, "11s222s333s456s99s", "9s")), zimo_bonus="jia_fan")
    assert list(result.net) == [-8, 24, -8, -8]
    assert result.events[0].scores[0].fan == 4


def test_players_who_have_won_do_not_pay_a_later_self_draw():
    # B self-draws 1 fan: 2 from each of A, C, D. C self-draws 2 fan: (2 + 1) from A and D only, not B.
    assert net(win(None, by_fan(B, 1)), win(None, by_fan(C, 2))) == [-5, 6, 4, -5]


def test_one_discard_several_winners_each_paid_by_the_discarder():
    # A pays B x1 and D x2
    result = settle(win(A, by_fan(D, 2), by_fan(B, 1)))
    assert list(result.net) == [-3, 1, 0, 2]
    assert result.winners == (B, D)  # play order after the discarder, not the request's order


def test_winners_of_one_discard_are_in_play_order_after_the_discarder():
    assert settle(win(C, by_fan(A, 1), by_fan(D, 1))).winners == (D, A)


def test_multi_win_first_lets_only_the_first_claimant_after_the_discarder_win():
    # 截胡: B is first after A; D plays on and can self-draw later (1 fan: 2 from A and C)
    result = settle(win(A, by_fan(D, 2), by_fan(B, 1)), win(None, by_fan(D, 1)), multi_win="first")
    assert list(result.net) == [-3, 1, -2, 4]
    assert result.winners == (B, D)
    assert [score.won for score in result.events[0].scores] == [True, False]


def test_a_robbed_kong_is_paid_as_a_discard_by_default():
    # 2 fan (抢杠 included) = x2, paid by the robbed B
    assert net(win(B, by_fan(C, 2), robbing_kong=True)) == [0, -2, 2, 0]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        # shares for A, B, D (everyone active but the robber): 3 x (2 + 1 加底)
        pytest.param({}, [0, -9, 9, 0], id="bao-with-jia-di"),
        pytest.param({"zimo_bonus": "none"}, [0, -6, 6, 0], id="bao-without-bonus"),
    ],
)
def test_qiang_gang_bao_makes_the_robbed_pay_every_share(options, expected):
    assert net(win(B, by_fan(C, 2), robbing_kong=True), qiang_gang_payment="bao", **options) == expected


def test_qiang_gang_bao_counts_co_robbers_among_the_shares():
    # C (2 fan): shares for A, B, D = 3 x 3 = 9; D (1 fan): shares for A, B, C = 3 x 2 = 6
    assert net(win(B, by_fan(C, 2), by_fan(D, 1), robbing_kong=True), qiang_gang_payment="bao") == [
        0,
        -15,
        9,
        6,
    ]


def test_robbing_never_gets_the_self_draw_fan():
    # 平胡 1 + 抢杠 1 = 2 fan even under jia_fan
    result = settle(win(B, by_hand(C, "234m567m789m11p55p", "5p"), robbing_kong=True), zimo_bonus="jia_fan")
    assert list(result.net) == [0, -2, 2, 0]


@pytest.mark.parametrize(
    ("dian_gang_hua", "expected"),
    [
        # B feeds C's 直杠 (B pays 2), C self-draws on the replacement with 3 fan (x4)
        pytest.param("zimo", [-5, -7, 17, -5], id="zimo-everyone-pays-4-plus-1"),
        pytest.param("dianpao", [0, -6, 6, 0], id="dianpao-the-feeder-pays-one-share-no-bonus"),
        pytest.param("bao", [0, -17, 17, 0], id="bao-the-feeder-pays-three-shares-of-5"),
    ],
)
def test_dian_gang_hua(dian_gang_hua, expected):
    events = (kong(C, "direct", "7m", feeder=B), win(None, by_fan(C, 3), after_kong=True))
    assert net(*events, dian_gang_hua=dian_gang_hua) == expected


def test_dian_gang_hua_dianpao_scores_a_hand_without_the_self_draw_fan():
    # 平胡 1 + gen 1 (the kong) + 杠上花 1 = 3 fan = x4: no 自摸加番 even under jia_fan. B: -2 kong, -4.
    hand = by_hand(C, "123p456p789p5p", "5p", [{"kind": "kong_direct", "tile": "7m"}])
    events = (kong(C, "direct", "7m", feeder=B), win(None, hand, after_kong=True))
    result = settle(*events, dian_gang_hua="dianpao", zimo_bonus="jia_fan")
    assert list(result.net) == [0, -6, 6, 0]
    # the same under zimo: 4 fan = x8 from each of A, B, D
    assert net(*events, zimo_bonus="jia_fan") == [-8, -10, 26, -8]


def test_flower_on_a_concealed_kong_is_an_ordinary_self_draw_whatever_dian_gang_hua_says():
    events = (kong(C, "concealed", "7m"), win(None, by_fan(C, 3), after_kong=True))
    # 暗杠 2 x 3, then (4 + 1) x 3
    assert net(*events, dian_gang_hua="bao") == [-7, -7, 21, -7]


@pytest.mark.parametrize(
    ("fan", "expected_points", "capped"),
    [
        pytest.param(4, 8, False, id="x8-under-the-cap"),
        pytest.param(5, 8, True, id="x16-capped-at-8"),
    ],
)
def test_the_cap_limits_what_a_win_pays(fan, expected_points, capped):
    result = settle(win(A, by_fan(B, fan)), cap_multiplier=8)
    assert reasons(result) == [(A, B, expected_points, "win")]
    score = result.events[0].scores[0].to_dict()
    assert (score["fan"], score["multiplier"], score["capped"]) == (fan, 2 ** (fan - 1), capped)


def test_jia_di_is_added_after_the_cap():
    # 6 fan capped at x8, + 1 加底 from each
    assert net(win(None, by_fan(B, 6)), cap_multiplier=8) == [-9, 27, -9, -9]


def test_each_win_transfer_explains_itself():
    result = settle(win(None, by_hand(B, "11s222s333s456s99s", "9s")))
    detail = result.transfers[0].detail
    assert (detail["fan"], detail["multiplier"], detail["pattern"], detail["gen"]) == (3, 4, "qing_yi_se", 0)
    assert [transfer.reason.value for transfer in result.transfers[:2]] == ["win", "self_draw_bonus"]


def test_dian_gang_hua_dianpao_takes_an_entered_fan_as_final():
    # 4 fan entered (the table already left out 自摸加番): the feeder B pays x8 once, plus his 2 for the kong
    events = (kong(C, "direct", "7m", feeder=B), win(None, by_fan(C, 4), after_kong=True))
    assert net(*events, dian_gang_hua="dianpao", zimo_bonus="jia_fan") == [0, -10, 10, 0]
