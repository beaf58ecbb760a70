"""血流成河 (RULES.md 7.1): winners play on. Worked examples 18 and 19, then rounds worked out by hand.

Each round's comment is the hand calculation, event by event, in b (base 1, A deals, ``chengdu``).
"""

from __future__ import annotations

import pytest

from calculator.engine import EngineError

from .rounds import adjust, by_fan, by_hand, draw, escape, kong, reasons, settle, status, win

A, B, C, D = 0, 1, 2, 3
XUELIU = {"mode": "xueliu"}


def flowing(*events, **options):
    return settle(*events, **XUELIU, **options)


def test_example_18_a_winner_self_draws_again_and_pays_a_later_win():
    result = flowing(
        win(None, by_fan(B, 1)),  # A, C, D pay 1 + 1 each: B +6
        win(B, by_fan(C, 2)),  # 对对胡 on B's discard: B pays 2
        win(None, by_fan(B, 1)),  # A, C, D pay 2 each, C an earlier winner too: B +6
        draw(status(A, "not_ready"), status(D, "ready", 3)),  # A pays D 4 (清一色)
    )
    assert list(result.net) == [-8, 10, -2, 0]
    assert result.winners == (B, C, B)
    assert result.finished and result.next_dealer == B


def test_example_18_with_hands_as_tiles():
    result = flowing(
        win(None, by_hand(B, "234p456p7p345s789s", "7p")),
        win(B, by_hand(C, "111m222m444m333p9p", "9p")),
        win(None, by_hand(B, "234p456p7p345s789s", "7p")),  # the same 13 tiles shown again
        draw(status(A, "not_ready"), status(D, "ready", 3)),
    )
    assert list(result.net) == [-8, 10, -2, 0]


def test_example_19_a_winners_kong_and_gang_shang_pao_by_him_and_not_finished():
    result = flowing(
        win(A, by_fan(B, 1)),  # A pays 1
        kong(B, "concealed"),  # A, C, D pay 2 each: B +6
        win(B, by_fan(C, 2), after_kong=True),  # 杠上炮: B pays 2 and hands over the 6
    )
    assert list(result.net) == [-3, -1, 6, -2]
    assert not result.finished and result.next_dealer is None


def test_a_winners_kong_after_his_win_is_paid_by_everyone_and_never_refunded():
    result = flowing(
        win(None, by_fan(B, 1)),  # A, C, D -2; B +6
        kong(B, "concealed"),  # A, C, D -2; B +6
        draw(status(A, "not_ready"), status(C, "ready", 2), status(D, "not_ready")),  # A, D pay C 2
    )
    # B's kong money stays: 退税 is among those who have not won, and B has won
    assert list(result.net) == [-6, 12, 0, -6]
    assert "kong_refund" not in {reason for *_, reason in reasons(result)}


def test_gang_shang_pao_by_an_earlier_winner_hands_over_his_direct_kong():
    result = flowing(
        win(A, by_fan(B, 2)),  # A pays 2
        kong(B, "direct", feeder=C),  # chengbao: C pays 2
        win(B, by_fan(D, 2), after_kong=True),  # B pays D 2 and hands over 2
        draw(status(A, "ready", 1), status(C, "not_ready")),  # C pays A 1
    )
    assert list(result.net) == [-1, 0, -3, 4]
    assert (B, D, 2, "kong_transfer") in reasons(result)


def test_one_discard_won_by_an_earlier_winner_and_another():
    result = flowing(
        win(None, by_fan(C, 1)),  # A, B, D pay 2: C +6
        win(D, by_fan(C, 2), by_fan(B, 1)),  # D pays B 1 and C 2
        draw(status(A, "not_ready"), status(D, "ready", 3)),  # A pays D 4
    )
    assert list(result.net) == [-6, -1, 8, -1]
    assert result.winners == (C, B, C)  # the discard's winners in play order after D: B, then C


def test_a_round_in_which_everyone_wins_ends_with_no_checks():
    events = [
        win(None, by_fan(B, 1)),  # A, C, D -2; B +6
        win(A, by_fan(C, 1)),  # A -1; C +1
        win(None, by_fan(D, 2)),  # A, B, C pay 2 + 1: D +9
        win(B, by_fan(A, 3)),  # B pays A 4
    ]
    result = flowing(*events, draw())
    assert list(result.net) == [-2, -1, -4, 7]
    assert result.finished and result.next_dealer == B
    with pytest.raises(EngineError) as listed:
        flowing(*events, draw(status(A, "not_ready")))
    assert listed.value.code == "listed_player_won"


def test_a_winner_who_escapes_returns_his_kong_money_pays_those_who_have_not_won_and_ends_the_round():
    result = flowing(
        win(None, by_fan(B, 1)),  # A, C, D -2; B +6
        kong(B, "added"),  # A, C, D -1; B +3
        escape(B, tiles_left=10),  # the 3 back, 16 to each of A, C, D
    )
    assert list(result.net) == [14, -42, 14, 14]
    assert result.finished and result.next_dealer == B


def test_an_escape_pays_only_those_who_have_not_won():
    result = flowing(
        win(None, by_fan(B, 1)),  # A, C, D -2; B +6
        escape(C, tiles_left=10),  # C pays A and D 16, not the winner B
    )
    assert list(result.net) == [14, 6, -34, 14]


def test_the_refund_at_a_draw_returns_kong_money_to_a_winner_who_paid_it():
    result = flowing(
        win(A, by_fan(B, 1)),  # A -1; B +1
        kong(C, "concealed"),  # A, B (a winner), D pay 2: C +6
        draw(status(A, "ready", 1), status(C, "not_ready"), status(D, "not_ready")),
        # 查大叫: C and D pay A 1 each; 退税: C returns 2 to each of A, B, D
    )
    assert list(result.net) == [1, 1, -1, -1]


@pytest.mark.parametrize(
    ("recipients", "expected"),
    [
        pytest.param("non_huazhu", [-50, 22, 15, 13], id="the-winner-is-paid-by-the-pig"),
        pytest.param("active", [-34, 6, 15, 13], id="only-those-who-have-not-won"),
    ],
)
def test_a_flower_pig_pays_a_winner_only_under_non_huazhu(recipients, expected):
    result = flowing(
        win(None, by_fan(B, 1)),  # A, C, D -2; B +6
        draw(
            status(A, "huazhu"), status(C, "ready", 1), status(D, "not_ready")
        ),  # A pays 16 each; D pays C 1
        huazhu_recipients=recipients,
    )
    assert list(result.net) == expected


def test_a_winner_robs_a_kong_and_wins_again():
    result = flowing(
        win(A, by_fan(B, 1)),  # A -1
        win(C, by_fan(B, 2), robbing_kong=True),  # C's 弯杠 robbed: C pays 2, no kong money
        draw(status(A, "not_ready"), status(C, "not_ready"), status(D, "not_ready")),
    )
    assert list(result.net) == [-1, 3, -2, 0]


@pytest.mark.parametrize(
    ("balance", "change"),
    [
        pytest.param(300, [100, -300, 100, 100], id="shared-exactly"),
        pytest.param(200, [67, -200, 67, 66], id="leftover-to-the-dealer-then-play-order"),
    ],
)
def test_coins_with_a_short_balance_after_a_winner_escapes(balance, change):
    # nets [14, -42, 14, 14] x N 10 = [140, -420, 140, 140]: B pays what he has; A, C, D share it evenly
    result = flowing(
        win(None, by_fan(B, 1)),
        kong(B, "added"),
        escape(B, tiles_left=10),
        coins={"balances": [1000, balance, 1000, 1000], "room_coefficient": 10},
    )
    assert result.coins is not None
    assert list(result.coins.change) == change


def test_adjustments_from_each_reach_earlier_winners_under_xueliu_only():
    events = (win(None, by_fan(B, 1)), adjust(D, "each", 2, "诈胡"))
    assert list(flowing(*events).net) == [0, 8, 0, -8]  # A, B, C each +2
    assert list(settle(*events).net) == [0, 6, 0, -6]  # blood battle: B has left play


def test_blood_battle_still_refuses_a_winner_who_acts_again():
    with pytest.raises(EngineError) as refused:
        settle(win(None, by_fan(B, 1)), kong(B, "concealed"))
    assert refused.value.code == "player_has_won"


def test_three_wins_do_not_end_a_xueliu_round():
    result = flowing(win(None, by_fan(B, 1)), win(None, by_fan(C, 1)), win(None, by_fan(D, 1)))
    assert not result.finished
    assert list(result.net) == [-6, 2, 2, 2]  # each self-draw: 1 + 1 from each of the other three
