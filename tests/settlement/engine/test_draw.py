"""流局: 查花猪, 查大叫 and 退税 with every option (RULES.md 5)."""

from __future__ import annotations

import pytest

from .rounds import by_fan, draw, escape, kong, net, position, settle, status, win

A, B, C, D = 0, 1, 2, 3

PIG_AND_ONE_READY = draw(
    status(A, "huazhu"), status(B, "ready", 1), status(C, "not_ready"), status(D, "not_ready")
)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        # A pays the penalty to B, C, D; C and D pay B 1 (x1)
        pytest.param({}, [-48, 18, 15, 15], id="16b-by-default"),
        pytest.param({"huazhu_points": 8}, [-24, 10, 7, 7], id="8b"),
        pytest.param({"huazhu_points": "cap", "cap_multiplier": 8}, [-24, 10, 7, 7], id="cap-is-8b-under-x8"),
        pytest.param({"huazhu_points": "cap"}, [-48, 18, 15, 15], id="cap-is-16b-with-no-cap"),
    ],
)
def test_huazhu_points(options, expected):
    assert net(PIG_AND_ONE_READY, **options) == expected


@pytest.mark.parametrize(
    ("recipients", "expected"),
    [
        # B self-draws 1 fan first (A, C, D pay 2). Draw: A pig, C ready 2 fan (x2), D not ready pays C 2.
        pytest.param("non_huazhu", [-50, 22, 16, 12], id="non-huazhu-winner-b-included"),  # A pays B, C, D 16
        pytest.param("active", [-34, 6, 16, 12], id="active-only-c-and-d"),
        pytest.param("active_ready", [-18, 6, 16, -4], id="active-ready-only-c"),
    ],
)
def test_huazhu_recipients(recipients, expected):
    events = (
        win(None, by_fan(B, 1)),
        draw(status(A, "huazhu"), status(C, "ready", 2), status(D, "not_ready")),
    )
    assert net(*events, huazhu_recipients=recipients) == expected


def test_pigs_do_not_pay_each_other():
    # A and B pigs pay C and D 16 each; nobody is ready
    assert net(
        draw(status(A, "huazhu"), status(B, "huazhu"), status(C, "not_ready"), status(D, "not_ready"))
    ) == [-32, -32, 32, 32]


@pytest.mark.parametrize(
    ("pays", "expected"),
    [
        # A pig pays 16 to B, C, D; C and D pay B 2 (x2); under true A pays B 2 as well
        pytest.param(False, [-48, 20, 14, 14], id="a-pig-does-not-also-pay-chajiao"),
        pytest.param(True, [-50, 22, 14, 14], id="a-pig-also-pays-chajiao"),
    ],
)
def test_huazhu_pays_chajiao(pays, expected):
    events = draw(status(A, "huazhu"), status(B, "ready", 2), status(C, "not_ready"), status(D, "not_ready"))
    assert net(events, huazhu_pays_chajiao=pays) == expected


@pytest.mark.parametrize(
    ("refunds", "expected"),
    [
        # A 暗杠 (+6), then pig: pays 16 x 3; C, D pay B 1; under true A also returns 2 to each
        pytest.param(True, [-48, 18, 15, 15], id="a-pig-refunds-his-kongs"),
        pytest.param(False, [-42, 16, 13, 13], id="a-pig-keeps-his-kongs"),
    ],
)
def test_huazhu_refunds_kongs(refunds, expected):
    assert net(kong(A, "concealed", "2p"), PIG_AND_ONE_READY, huazhu_refunds_kongs=refunds) == expected


@pytest.mark.parametrize(
    ("refund", "expected"),
    [
        # C 暗杠: A, B, D pay 2. B self-draws 1 fan: A, C, D pay 2. Draw: A ready 1; C, D not ready pay A 1.
        pytest.param(True, [0, 6, -3, -3], id="c-returns-2-to-a-b-and-d"),
        pytest.param(False, [0, 4, -1, -3], id="c-returns-2-to-a-and-d-not-to-winner-b"),
    ],
)
def test_refund_to_won_payers(refund, expected):
    events = (
        kong(C, "concealed", "2p"),
        win(None, by_fan(B, 1)),
        draw(status(A, "ready", 1), status(C, "not_ready"), status(D, "not_ready")),
    )
    assert net(*events, refund_to_won_payers=refund) == expected


@pytest.mark.parametrize(
    ("refund", "expected"),
    [
        pytest.param(True, [0, 0, 0, 0], id="a-returns-his-6"),
        pytest.param(False, [6, -2, -2, -2], id="nobody-ready-a-keeps-his-6"),
    ],
)
def test_refund_when_nobody_ready(refund, expected):
    nobody_ready = draw(*(status(seat, "not_ready") for seat in (A, B, C, D)))
    assert net(kong(A, "concealed", "2p"), nobody_ready, refund_when_nobody_ready=refund) == expected


def test_a_ready_player_keeps_his_kong_money():
    # A 暗杠 +6, then B, C, D not ready pay A 1 each
    events = (
        kong(A, "concealed", "2p"),
        draw(status(A, "ready", 1), status(B, "not_ready"), status(C, "not_ready"), status(D, "not_ready")),
    )
    assert net(*events) == [9, -3, -3, -3]


def test_no_refund_goes_to_a_payer_who_escaped():
    # C 暗杠 (A, B, D pay 2); B self-draws 1 fan (A, C, D pay 2); B leaves (keeps his win); at the draw C,
    # not ready, returns 2 to A and D only. A ready 1: C and D pay him 1.
    events = (
        kong(C, "concealed", "2p"),
        win(None, by_fan(B, 1)),
        escape(B),
        draw(status(A, "ready", 1), status(C, "not_ready"), status(D, "not_ready")),
    )
    assert net(*events) == [0, 4, -1, -3]


def test_void_suit_tiles_make_a_pig_only_with_dingque():
    # B's hand is ready (平胡) but holds p, his declared void suit
    hands = draw(position(A, "13579m2468p1357p"), position(B, "234m567m345p88p99p"))
    events = (win(None, by_fan(C, 1)), win(None, by_fan(D, 1)), hands)
    # C self-draws: A, B, D pay 2 (C +6); D self-draws: A, B pay 2 (D -2 + 4). Before the draw: [-4, -4, 6, 2]
    with_dingque = settle(*events, void_suits=[None, "p", None, None])
    assert [entry.status for entry in with_dingque.events[2].players] == ["not_ready", "huazhu"]
    # pig B pays every non-pig 16 (winners C and D included); A is not ready but nobody is ready to be paid
    assert list(with_dingque.net) == [-4 + 16, -4 - 48, 6 + 16, 2 + 16]
    without = settle(*events, void_suits=[None, "p", None, None], dingque=False)
    assert [entry.status for entry in without.events[2].players] == ["not_ready", "ready"]
    assert list(without.net) == [-4 - 1, -4 + 1, 6, 2]  # A, not ready, pays ready B 1


def test_a_draw_in_normal_mode_checks_all_four():
    assert net(PIG_AND_ONE_READY, mode="normal") == [-48, 18, 15, 15]


def test_a_draw_ends_the_round():
    result = settle(PIG_AND_ONE_READY)
    assert (result.finished, result.next_dealer) == (True, A)
