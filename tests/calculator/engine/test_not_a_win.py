"""Valid tiles that do not win are a result, not an error: win=False with a reason (API.md)."""

import pytest

from calculator.engine import score_hand

CASES = [
    pytest.param("123m456p789s11m23m", "4m", None, {}, "three_suits", id="three-suits-break-que-men"),
    pytest.param("123m456m789m11m23p", "4p", "p", {}, "void_suit", id="holds-the-void-suit"),
    pytest.param("123m456m789m11m23m", "4m", "p", {}, None, id="void-suit-not-held-wins"),
    pytest.param(
        "123m456m789m11m23p", "4p", "p", {"dingque": False}, None, id="void-suit-ignored-without-dingque"
    ),
    pytest.param("123m456m789m11m23p", "4p", "p", {"preset": "qq"}, None, id="qq-has-no-dingque"),
    pytest.param("123m456m789m11m24p", "5p", None, {}, "no_shape", id="no-shape"),
    pytest.param("1133m5577m22p66p8p", "9p", None, {}, "no_shape", id="six-pairs-and-a-stray"),
]


@pytest.mark.parametrize(("concealed", "win_tile", "void_suit", "rules", "reason_code"), CASES)
def test_a_hand_that_cannot_win_says_why(concealed, win_tile, void_suit, rules, reason_code):
    result = score_hand(concealed, win_tile, void_suit=void_suit, rules=rules)
    assert (result.win, result.reason_code) == (reason_code is None, reason_code)


def test_a_void_suit_meld_is_also_holding_the_void_suit():
    result = score_hand("123m456m789m1m", "1m", melds=[{"kind": "pung", "tile": "5p"}], void_suit="p")
    assert (result.win, result.reason_code) == (False, "void_suit")


def test_a_non_win_body_has_zeros_and_reasons_in_both_languages():
    body = score_hand("123m456p789s11m23m", "4m").to_dict()
    assert {
        key: body[key] for key in ("win", "fan", "multiplier", "points", "pattern", "gen", "extras", "sets")
    } == {
        "win": False,
        "fan": 0,
        "multiplier": 0,
        "points": 0,
        "pattern": None,
        "gen": 0,
        "extras": [],
        "sets": [],
    }
    assert body["reason_code"] == "three_suits"
    assert "three suits" in body["reason"]
    assert "三门" in body["reason_zh"]
