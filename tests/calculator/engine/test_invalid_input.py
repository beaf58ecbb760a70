"""Malformed input to score_hand / find_waits is an EngineError naming the field, never a crash."""

import re

import pytest

from calculator.engine import EngineError, find_waits, score_hand

# English words that are no field name, value or JSON literal: none may appear in a Chinese message.
ENGLISH = re.compile(r"\b(or|and|with|got|must|be|the|of|is|not|int|str|float|list|dict|NoneType)\b")
GOOD = {"concealed": "234p456p7p345s789s", "win_tile": "7p"}
PUNG = {"kind": "pung", "tile": "5p"}

SCORE_CASES = [
    pytest.param(
        {"concealed": "234p456p7p34x5s789s"}, "concealed", "'x' at position 13", id="unknown-character"
    ),
    pytest.param(
        {"concealed": "234p456p7p345s789"}, "concealed", "'789' have no suit", id="digits-without-suit"
    ),
    pytest.param(
        {"concealed": "204p456p7p345s789s"}, "concealed", "0 is not a rank (at position 2)", id="zero-rank"
    ),
    pytest.param(
        {"concealed": "m23p456p7p345s789s"}, "concealed", "no digits before it", id="suit-without-digits"
    ),
    pytest.param({"concealed": "234p456p345s789s"}, "concealed", "must be 13", id="too-few-tiles"),
    pytest.param({"concealed": "234p456p77p345s789s"}, "concealed", "must be 13", id="too-many-tiles"),
    pytest.param({"concealed": "22222p456p345s78s"}, "concealed", "fifth 2p", id="fifth-copy-concealed"),
    pytest.param(
        {"concealed": "7777p456p345s789s", "win_tile": "7p"}, "win_tile", "fifth 7p", id="fifth-by-win"
    ),
    pytest.param(
        {"concealed": "55p456p345s78s", "melds": [PUNG]}, "melds[0].tile", "fifth 5p", id="fifth-by-meld"
    ),
    pytest.param({"concealed": 123}, "concealed", "must be tiles", id="concealed-a-number"),
    pytest.param({"concealed": None}, "concealed", "required", id="concealed-missing"),
    pytest.param({"concealed": ["2p", "3p", "44p"]}, "concealed", "Entry 2", id="list-entry-not-one-tile"),
    pytest.param({"win_tile": None}, "win_tile", "required", id="win-tile-missing"),
    pytest.param({"win_tile": ""}, "win_tile", "exactly one tile", id="win-tile-empty"),
    pytest.param({"win_tile": "7p8p"}, "win_tile", "exactly one tile", id="two-win-tiles"),
    pytest.param(
        {"melds": [{"kind": "chow", "tile": "5p"}]}, "melds[0].kind", "chow", id="unknown-meld-kind"
    ),
    pytest.param({"melds": [{"kind": "pung"}]}, "melds[0].tile", "required", id="meld-without-tile"),
    pytest.param(
        {"melds": [{"kind": "pung", "tile": "56p"}]}, "melds[0].tile", "one tile kind", id="meld-two-kinds"
    ),
    pytest.param(
        {"melds": [{"kind": "kong_direct", "tile": "555p"}]}, "melds[0].tile", "all 4", id="kong-of-three"
    ),
    pytest.param({"melds": "5p"}, "melds", "must be a list", id="melds-not-a-list"),
    pytest.param({"melds": [["pung", "5p"]]}, "melds[0]", "must be an object", id="meld-not-an-object"),
    pytest.param({"melds": [PUNG] * 5}, "melds", "at most 4", id="five-melds"),
    pytest.param({"win_by": "tsumo"}, "win_by", "tsumo", id="unknown-win-by"),
    pytest.param({"after_kong": "yes"}, "after_kong", "true or false", id="after-kong-not-bool"),
    pytest.param({"last_tile": 1}, "last_tile", "true or false", id="last-tile-an-int"),
    pytest.param({"tian_hu": None}, "tian_hu", "true or false", id="tian-hu-null"),
    pytest.param(
        {"tian_hu": True, "di_hu": True, "win_by": "self_draw"}, "di_hu", "not both", id="tian-and-di"
    ),
    pytest.param({"tian_hu": True}, "tian_hu", "self_draw", id="tian-hu-on-a-discard"),
    pytest.param(
        {"win_by": "robbing_kong", "after_kong": True}, "after_kong", "robbing", id="robbing-after-kong"
    ),
    pytest.param(
        {"win_by": "self_draw", "after_kong": True},
        "after_kong",
        "no kong",
        id="gang-shang-hua-without-a-kong",
    ),
    pytest.param(
        {"win_by": "self_draw", "after_kong": True, "concealed": "234p456p7p789s", "melds": [PUNG]},
        "after_kong",
        "no kong",
        id="gang-shang-hua-with-only-a-pung",
    ),
    pytest.param({"void_suit": "z"}, "void_suit", "m, p, s", id="unknown-void-suit"),
    pytest.param({"void_suit": 1}, "void_suit", "m, p, s", id="void-suit-a-number"),
    pytest.param({"rules": {"preset": "tokyo"}}, "rules.preset", "tokyo", id="unknown-preset"),
    pytest.param({"rules": {"cap_multiplier": 10}}, "rules.cap_multiplier", "power of two", id="bad-cap"),
    pytest.param({"rules": ["chengdu"]}, "rules", "object", id="rules-not-an-object"),
]


def test_gang_shang_pao_needs_no_kong_of_the_winner():
    """杠上炮: the kong was the discarder's, so the winner's melds need not hold one."""
    assert score_hand(**GOOD, after_kong=True).extras[0].key == "gang_shang_pao"


@pytest.mark.parametrize(("changes", "field", "words"), SCORE_CASES)
def test_score_hand_names_the_bad_field(changes, field, words):
    with pytest.raises(EngineError) as caught:
        score_hand(**{**GOOD, **changes})
    assert caught.value.field == field
    assert words in caught.value.message
    assert caught.value.message_zh and caught.value.message_zh != caught.value.message
    assert not ENGLISH.search(caught.value.message_zh), caught.value.message_zh


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        pytest.param({"concealed": "123m456m789m11m"}, "concealed", "13 or 14", id="twelve-tiles"),
        pytest.param({"concealed": "123m456m789m11m2345m"}, "concealed", "13 or 14", id="fifteen-tiles"),
        pytest.param({"concealed": "11111m456m789m23m"}, "concealed", "fifth 1m", id="fifth-copy"),
        pytest.param({"concealed": {"tiles": "1m"}}, "concealed", "must be tiles", id="concealed-an-object"),
        pytest.param({"concealed": 5}, "concealed", "got a number", id="concealed-a-number"),
        pytest.param({"melds": [{"kind": "pung", "tile": "x"}]}, "melds[0].tile", "'x'", id="meld-tile-bad"),
        pytest.param({"void_suit": "mp"}, "void_suit", "m, p, s", id="void-suit-two-letters"),
        pytest.param(
            {"rules": {"ting_requires_live_wait": "no"}}, "rules.ting_requires_live_wait", "true", id="rule"
        ),
    ],
)
def test_find_waits_names_the_bad_field(changes, field, words):
    with pytest.raises(EngineError) as caught:
        find_waits(**{"concealed": "1122334455667m", **changes})
    assert caught.value.field == field
    assert words in caught.value.message
    assert not ENGLISH.search(caught.value.message_zh), caught.value.message_zh


def test_an_error_becomes_the_api_body():
    with pytest.raises(EngineError) as caught:
        score_hand(**{**GOOD, "win_by": "tsumo"})
    assert caught.value.to_dict()["field"] == "win_by"


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: score_hand(**{**GOOD, "concealed": "12\ud800m"}), id="surrogate-in-tiles"),
        pytest.param(lambda: score_hand(**{**GOOD, "win_by": "\udfff"}), id="surrogate-in-a-choice"),
    ],
)
def test_an_error_echoing_a_lone_surrogate_can_always_be_encoded(call):
    with pytest.raises(EngineError) as caught:
        call()
    for text in (caught.value.field, caught.value.message, caught.value.message_zh, str(caught.value)):
        text.encode("utf-8")
    assert "\\ud" in caught.value.message
