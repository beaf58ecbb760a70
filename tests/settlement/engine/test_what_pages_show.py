"""What a page shows about a hand or a round comes from the engine's result (issue 7, point 3): the tile
count in the API's own words, the per-payer amount of a self-draw, a robbed kong voiding the kong just
entered, and each event's net and who paid whom."""

import pytest

from calculator.engine import EngineError, Rules, score_hand, tile_count_problem
from settlement.engine import Paid, robbed_kong_voided

from .rounds import by_fan, by_hand, kong, settle, win

A, B, C, D = 0, 1, 2, 3


def test_the_tile_count_message_is_the_apis():
    with pytest.raises(EngineError) as refused:
        score_hand("11s333s222s456s999s", "9s")
    problem = tile_count_problem(14, 0, winning=True)
    assert problem is not None
    assert (problem.field, problem.message, problem.message_zh) == (
        refused.value.field,
        refused.value.message,
        refused.value.message_zh,
    )
    assert problem.message == "The concealed tiles must be 13; got 14."
    assert tile_count_problem(13, 0, winning=True) is None
    assert tile_count_problem(14, 0, winning=False) is None  # a drawn tile in hand: waits take 14
    assert (
        tile_count_problem(8, 1, winning=False).message
        == "The concealed tiles must be 10 or 11 with 1 meld(s); got 8."
    )


@pytest.mark.parametrize(
    ("rules", "per_payer"),
    [
        pytest.param({}, 4 + 1, id="jia-di"),  # 清一色 x4, +1 加底
        pytest.param({"base_points": 6}, 24 + 6, id="jia-di-is-one-base"),
        pytest.param({"zimo_bonus": "none"}, 4, id="no-bonus"),
        pytest.param({"zimo_bonus": "jia_fan"}, 8, id="jia-fan-is-in-the-points"),  # 4 fan x8
    ],
)
def test_what_each_payer_pays_for_a_self_draw_is_the_settlements(rules, per_payer):
    table = Rules.from_dict(rules)
    scored = score_hand("11s333s222s456s99s", "9s", win_by="self_draw", rules=table)
    assert scored.points + table.self_draw_bonus == per_payer
    settled = settle(win(None, by_hand(B, "11s333s222s456s99s", "9s")), **rules)
    assert settled.event_money(0).paid[0] == Paid(A, B, per_payer)


def test_a_robbing_win_voids_the_added_kong_entered_just_before_it():
    added = kong(B, "added", "5p")
    robbing = win(B, by_hand(C, "234m567m789m11p55p", "5p"), robbing_kong=True)
    assert robbed_kong_voided(added, robbing) is True
    assert robbed_kong_voided(kong(B, "added", "8m"), robbing) is False  # an earlier kong of another tile
    assert robbed_kong_voided(kong(A, "added", "5p"), robbing) is False  # someone else's kong
    assert robbed_kong_voided(added, win(B, by_fan(C, 2))) is False  # not a robbing win
    assert robbed_kong_voided(added, {"type": "win", "from": 9}) is False  # unreadable: the engine says why


def test_each_events_net_and_who_paid_whom():
    # B's 弯杠 (A, C, D pay 1), then C wins 2 fan on B's discard with 呼叫转移: B pays 2 and hands over 3
    result = settle(kong(B, "added", "8m"), win(B, by_fan(C, 2), after_kong=True))
    first, second = result.event_money(0), result.event_money(1)
    assert (first.net, first.house) == ((-1, 3, -1, -1), 0)
    assert first.paid == (Paid(A, B, 1), Paid(C, B, 1), Paid(D, B, 1))
    assert second.net == (0, -5, 5, 0)
    assert second.paid == (Paid(B, C, 5),)  # the win and the hand-over, together
    assert tuple(a + b for a, b in zip(first.net, second.net, strict=True)) == result.net


def test_a_burned_penalty_is_paid_to_the_house():
    result = settle({"type": "escape", "player": A, "tiles_left": 20}, escape_penalty_to="burn")
    money = result.event_money(0)
    assert (money.net, money.house) == ((-48, 0, 0, 0), 48)
    assert money.paid == (Paid(A, None, 48),)


def test_the_result_keeps_the_round_as_each_event_found_it():
    """改 offers the choices an event had when it happened (web/entry/page.py): who had won or left then."""
    escape = {"type": "escape", "player": D, "tiles_left": 20}
    result = settle(win(B, by_fan(C, 2)), kong(A, "concealed"), escape)
    met = [(state.winners, state.escaped, state.active) for state in result.before]
    assert met == [((), (), (A, B, C, D)), ((C,), (), (A, B, D)), ((C,), (), (A, B, D))]
    assert (result.state.winners, result.state.escaped) == ((C,), (D,))  # after the last, not before it
    assert result.before[0] == settle().state  # the first event meets the round as it begins
