"""Adjustments (RULES.md 4.8): 罚分, 诈胡, side bets; worked example 20 and the rules around it."""

from __future__ import annotations

import pytest

from calculator.engine import EngineError

from .rounds import adjust, by_fan, draw, escape, kong, reasons, settle, status, win

A, B, C, D = 0, 1, 2, 3


def test_example_20_a_false_win_fined_from_each_then_a_self_draw():
    result = settle(adjust(D, "each", 2, "诈胡"), win(None, by_fan(A, 1)))
    assert list(result.net) == [8, 0, 0, -8]
    assert result.to_dict()["transfers"][0] == {
        "event": 0,
        "from": D,
        "to": A,
        "points": 2,
        "reason": "adjust",
        "detail": {"note": "诈胡", "to": "each", "amount": 2},
        "note": "诈胡",
    }


@pytest.mark.parametrize(
    ("to", "expected", "house"),
    [
        pytest.param(B, [0, 3, 0, -3], 0, id="to-one-player"),
        pytest.param("each", [3, 3, 3, -9], 0, id="to-each"),
        pytest.param("house", [0, 0, 0, -3], 3, id="to-the-house"),
    ],
)
def test_an_adjustment_pays_one_player_each_or_the_house(to, expected, house):
    result = settle(
        adjust(D, to, 3), win(None, by_fan(A, 1)), draw(*[status(s, "not_ready") for s in (B, C, D)])
    )
    # the self-draw (A +6, others -2) is the same in each; the adjustment moves the rest
    assert [n - w for n, w in zip(result.net, [6, -2, -2, -2], strict=True)] == expected
    assert result.house == house
    assert sum(result.net) + result.house == 0


def test_the_amount_is_in_base_points():
    assert list(settle(adjust(A, C, 2), base_points=6).net) == [-12, 0, 12, 0]


def test_an_adjustment_alone_is_a_round_that_keeps_its_dealer_even_under_dice():
    for rule in ("first_winner", "dice"):
        result = settle(adjust(A, "house", 5, "迟到"), dealer=C, dealer_rule=rule)
        assert result.finished and result.next_dealer == C and result.adjustment_round
        assert result.winners == ()


def test_a_hand_with_an_adjustment_is_not_an_adjustment_round():
    result = settle(adjust(A, B, 1), win(None, by_fan(B, 1)))
    assert not result.adjustment_round and not result.finished


def test_after_kong_looks_past_an_adjustment():
    result = settle(
        kong(B, "concealed"),  # A, C, D pay 2: B +6
        adjust(A, B, 1, "side bet"),
        win(None, by_fan(B, 3), after_kong=True),  # 杠上花 entered as 3 fan: 4 + 1 from each
    )
    assert list(result.net) == [-8, 22, -7, -7]


def test_the_kong_money_handed_over_leaves_the_adjustment_alone():
    result = settle(
        kong(B, "concealed"),  # A, C, D pay 2: B +6
        adjust(D, B, 4, "罚分"),  # B +4
        win(B, by_fan(C, 2), after_kong=True),  # B pays 2 and hands over the 6, keeping the 4
    )
    assert list(result.net) == [-2, 2, 6, -6]


def test_a_robbed_kong_entered_before_an_adjustment_is_still_caught():
    with pytest.raises(EngineError) as refused:
        settle(kong(B, "added"), adjust(A, C, 1), win(B, by_fan(C, 2), robbing_kong=True))
    assert refused.value.code == "robbed_kong_recorded"


def test_an_adjustment_changes_nobodys_status_and_plays_no_part_in_the_draw():
    result = settle(
        adjust(C, A, 1),
        draw(status(A, "ready", 1), status(B, "not_ready"), status(C, "not_ready"), status(D, "ready", 1)),
    )
    # C pays A 1; 查大叫: B and C each pay A 1 and D 1
    assert list(result.net) == [3, -2, -3, 2]


def test_a_winner_who_left_may_still_pay_an_adjustment():
    result = settle(win(None, by_fan(B, 1)), escape(B, tiles_left=10), adjust(B, A, 1, "诈胡"))
    assert list(result.net) == [-1, 5, -2, -2]


def test_an_adjustment_may_follow_a_win_on_the_last_tile():
    result = settle(win(None, by_fan(B, 1), last_tile=True), adjust(A, B, 1))
    assert list(result.net) == [-3, 7, -2, -2]


def test_nothing_follows_the_end_of_the_round():
    with pytest.raises(EngineError) as refused:
        settle(win(None, by_fan(B, 1)), win(None, by_fan(C, 1)), win(None, by_fan(D, 1)), adjust(A, B, 1))
    assert refused.value.code == "round_over"


@pytest.mark.parametrize(
    ("event", "code", "field"),
    [
        pytest.param(adjust(A, A, 1), "adjust_to_self", "events[0].to", id="to-himself"),
        pytest.param(adjust(A, "all", 1), "adjust_to", "events[0].to", id="to-an-unknown-payee"),
        pytest.param(adjust(A, 4, 1), "adjust_to", "events[0].to", id="to-a-fifth-seat"),
        pytest.param(adjust(A, B, 0), "adjust_amount", "events[0].amount", id="nothing"),
        pytest.param(adjust(A, B, True), "adjust_amount", "events[0].amount", id="a-boolean-amount"),
        pytest.param(adjust(A, B, 1.5), "adjust_amount", "events[0].amount", id="half-a-point"),
        pytest.param(adjust(A, B, 10_001), "adjust_amount", "events[0].amount", id="beyond-the-bound"),
        pytest.param(adjust(A, B, 1, "  "), "adjust_reason", "events[0].reason", id="a-blank-reason"),
        pytest.param(adjust(A, B, 1, "x" * 81), "adjust_reason", "events[0].reason", id="a-long-reason"),
        pytest.param(
            {"type": "adjust", "from": A, "to": B, "amount": 1},
            "field_required",
            "events[0].reason",
            id="no-reason",
        ),
    ],
)
def test_a_bad_adjustment_is_refused_naming_its_field(event, code, field):
    with pytest.raises(EngineError) as refused:
        settle(event)
    assert (refused.value.code, refused.value.field) == (code, field)


def test_the_reason_is_kept_as_written_and_80_characters_are_enough():
    result = settle(adjust(A, B, 1, "诈" * 80))
    assert reasons(result) == [(A, B, 1, "adjust")]
    assert result.events[0].reason == "诈" * 80
