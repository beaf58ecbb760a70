"""One input layer for both engines (issue 7, point 4): score, waits and settle accept or refuse a value
the same way and say so in the same words, because they call the same reader (calculator.engine.fields)."""

import pytest

from calculator.engine import EngineError, find_waits, score_hand
from settlement.engine import settle_round

HAND = ("11s333s222s456s99s", "9s")


def _three_readings(suit):
    """(score, waits, settle) on the same void suit: the value read, or the EngineError raised."""
    outcomes = []
    for call in (
        lambda: score_hand(*HAND, void_suit=suit).win,
        lambda: find_waits(HAND[0], void_suit=suit).ready,
        lambda: settle_round(dealer=0, events=[], void_suits=[suit, None, None, None]).finished,
    ):
        try:
            outcomes.append(call())
        except EngineError as error:
            outcomes.append(error)
    return outcomes


@pytest.mark.parametrize("suit", ["p", "万", "萬", " P ", "條", None])
def test_a_void_suit_is_accepted_alike(suit):
    outcomes = _three_readings(suit)
    assert not any(isinstance(outcome, EngineError) for outcome in outcomes), outcomes


@pytest.mark.parametrize("suit", ["x", 1, True, "mp", ""])
def test_a_void_suit_is_refused_alike(suit):
    errors = _three_readings(suit)
    assert all(isinstance(error, EngineError) for error in errors), errors
    assert [error.field for error in errors] == ["void_suit", "void_suit", "void_suits[0]"]
    assert len({error.message.split(" ", 1)[1] for error in errors}) == 1  # same words after the field
    assert len({error.message_zh for error in errors}) == 1


@pytest.mark.parametrize("value", ["false", 0, 1, "true"])
def test_a_flag_is_refused_alike(value):
    with pytest.raises(EngineError) as scored:
        score_hand(*HAND, after_kong=value)
    with pytest.raises(EngineError) as settled:
        settle_round(dealer=0, events=[{"type": "win", "from": 1, "after_kong": value, "winners": []}])
    assert (scored.value.field, settled.value.field) == ("after_kong", "events[0].after_kong")
    assert scored.value.message == settled.value.message
    assert scored.value.message_zh == settled.value.message_zh
