"""Bounds no real table reaches (issue 10 item 5): one payment at most MAX_PAYMENT_POINTS, one round's
transfers at most MAX_ROUND_POINTS; above them an EngineError naming the field that made the amount, and
below them no total can overflow SQLite, PostgreSQL or a JavaScript number."""

import pytest

from calculator.engine import MAX_PAYMENT_POINTS, MAX_ROUND_POINTS, EngineError, Rules
from settlement.engine import settle_round

from .rounds import by_fan, by_hand, draw, settle, status, win

A, B, C, D = 0, 1, 2, 3
BIG = {"base_points": 10_000}  # the largest base the options table takes
JS_SAFE = 2**53 - 1


def test_the_bounds_leave_room_below_every_sum_that_could_overflow():
    assert MAX_PAYMENT_POINTS <= MAX_ROUND_POINTS
    # A round's transfers counted on both of its ledger rows, over 100,000 such rounds, stay JavaScript-exact.
    assert 2 * MAX_ROUND_POINTS * 100_000 <= JS_SAFE < 2**63 - 1


def test_an_entered_fan_at_the_bound_is_paid_and_one_more_fan_is_refused():
    # 20 fan at base 10,000: 10,000 x 2^19 = 5,242,880,000 a payer, +10,000 加底 (a transfer of its own)
    result = settle(win(None, by_fan(B, 20)), **BIG)
    assert list(result.net) == [-5_242_890_000, 15_728_670_000, -5_242_890_000, -5_242_890_000]
    with pytest.raises(EngineError) as refused:
        settle(win(None, by_fan(B, 21)), **BIG)
    assert refused.value.field == "events[0].winners[0].fan"
    assert "10,485,760,000" in refused.value.message and "10,000,000,000" in refused.value.message
    assert "10,485,760,000" in refused.value.message_zh


def test_a_ready_players_entered_fan_past_the_bound_names_that_fan():
    with pytest.raises(EngineError) as refused:
        settle(
            draw(
                status(A, "ready", 22), status(B, "not_ready"), status(C, "not_ready"), status(D, "ready", 1)
            ),
            **BIG,
        )
    assert refused.value.field == "events[0].players[0].fan"
    assert refused.value.event == 0


def test_a_hand_scored_past_the_bound_names_the_hand():
    # 青龙七对 made worth 16, 天胡 stacked on it at 16: 32 fan, 10,000 x 2^31 a payer
    rules = {**BIG, "tian_di_hu": "stack", "pattern_fan": {"tian_hu": 16, "qing_long_qi_dui": 16}}
    with pytest.raises(EngineError) as refused:
        settle(win(None, by_hand(A, "1122444455779m", "9m", tian_hu=True)), **rules)
    assert refused.value.field == "events[0].winners[0].hand"


def test_a_round_whose_transfers_pass_the_bound_names_the_event_that_passes_it():
    # cap 2^19 at base 10,000: 5,242,880,000, the 花猪 penalty too ("cap")
    rules = {**BIG, "cap_multiplier": 2**19, "huazhu_points": "cap"}
    first_two = (win(None, by_fan(A, 20)), win(None, by_fan(B, 20)))
    # A: 3 x (5,242,880,000 + 10,000) = 15,728,670,000; B: 2 x 5,242,890,000 = 10,485,780,000
    assert sum(transfer.points for transfer in settle(*first_two, **rules).transfers) == 26_214_450_000
    # the draw: pig C pays A, B and D the cap each, 3 x 5,242,880,000: 41,943,090,000 in all
    with pytest.raises(EngineError) as refused:
        settle(*first_two, draw(status(C, "huazhu"), status(D, "not_ready")), **rules)
    assert refused.value.field == "events[2]"
    assert "41,943,090,000" in refused.value.message
    assert f"{MAX_ROUND_POINTS:,}" in refused.value.message


def test_a_cap_penalty_past_the_bound_is_refused_on_the_cap():
    with pytest.raises(EngineError) as refused:
        Rules.from_dict({**BIG, "cap_multiplier": 2**21, "escape_points": "cap"})
    assert refused.value.field == "rules.cap_multiplier"
    assert Rules.from_dict({**BIG, "cap_multiplier": 2**21}).cap_multiplier == 2**21  # no penalty uses it


def test_the_refusal_reaches_the_api_as_a_400_naming_the_field(client):
    body = {"dealer": 0, "rules": BIG, "events": [win(None, by_fan(B, 30))]}
    response = client.post("/api/v1/settle/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].winners[0].fan"


def test_settle_round_takes_the_same_bounds_with_its_rules_object():
    with pytest.raises(EngineError):
        settle_round(dealer=0, events=[win(None, by_fan(B, 64))], rules=Rules.from_dict(BIG))
