"""Base patterns (RULES.md 3.1): each applies where its definition says and not elsewhere; one counts."""

import pytest

from calculator.engine import find_waits, score_hand
from calculator.engine.patterns import ALL_TERMINAL, ONE_SUIT, PATTERNS, choices

CONCEALED_KONG_9P = ({"kind": "kong_concealed", "tile": "9p"},)

CASES = [
    pytest.param("234p456p7p345s789s", "7p", (), "ping_hu", id="ping-hu"),
    pytest.param("111m222m444m333p9p", "9p", (), "dui_dui_hu", id="dui-dui-hu"),
    pytest.param("111m234m444m333p9p", "9p", (), "ping_hu", id="a-run-is-not-dui-dui-hu"),
    pytest.param("11s333s222s456s99s", "9s", (), "qing_yi_se", id="qing-yi-se"),
    pytest.param("11m333s222s456s99s", "1m", (), "ping_hu", id="a-second-suit-is-not-qing-yi-se"),
    pytest.param("123m789m123p999p1p", "1p", (), "dai_yao_jiu", id="dai-yao-jiu"),
    pytest.param("123m456m123p999p1p", "1p", (), "ping_hu", id="a-set-without-1-or-9-is-not-dai-yao-jiu"),
    pytest.param("123m789m123p999p5p", "5p", (), "ping_hu", id="a-pair-without-1-or-9-is-not-dai-yao-jiu"),
    pytest.param("1133m5577m2244p6p", "6p", (), "qi_dui", id="qi-dui"),
    pytest.param("1111m5577m2244p6p", "6p", (), "long_qi_dui", id="a-quad-makes-long-qi-dui"),
    pytest.param("111p333p555p777p9p", "9p", (), "qing_dui", id="qing-dui"),
    pytest.param("111p333p555p789p9p", "9p", (), "qing_yi_se", id="a-run-is-not-qing-dui"),
    pytest.param("222s555s888s888m5m", "5m", (), "jiang_dui", id="jiang-dui"),
    pytest.param("222s555s888s888m3m", "3m", (), "dui_dui_hu", id="a-3-is-not-jiang-dui"),
    pytest.param("11222244p55779m", "9m", (), "long_qi_dui", id="long-qi-dui"),
    pytest.param("9988775522116p", "6p", (), "qing_qi_dui", id="qing-qi-dui"),
    pytest.param("1112377788899p", "9p", (), "qing_yao_jiu", id="qing-yao-jiu"),
    pytest.param("1114577788899p", "6p", (), "qing_yi_se", id="a-456-is-not-qing-yao-jiu"),
    pytest.param("1122444455779m", "9m", (), "qing_long_qi_dui", id="qing-long-qi-dui"),
    pytest.param("1122444455779s", "9s", (), "qing_long_qi_dui", id="qing-long-qi-dui-in-bamboo"),
]


@pytest.mark.parametrize(("concealed", "win_tile", "melds", "pattern"), CASES)
def test_the_largest_pattern_that_applies_is_reported(concealed, win_tile, melds, pattern):
    assert score_hand(concealed, win_tile, melds=melds).pattern.key == pattern


@pytest.mark.parametrize(
    ("concealed", "win_tile", "fan"),
    [
        pytest.param("1133m5577m2244p6p", "6p", 3, id="qi-dui-3"),
        pytest.param("9988775522116p", "6p", 5, id="qing-qi-dui-5-not-3-plus-3"),
        pytest.param("1122444455779m", "9m", 6, id="qing-long-qi-dui-6-with-its-quad-inside"),
    ],
)
def test_seven_pairs_fan(concealed, win_tile, fan):
    assert score_hand(concealed, win_tile).fan == fan


def test_seven_pairs_needs_no_melds_at_all_even_a_concealed_kong():
    with_kong = score_hand("1133m5577m66p", "1m", melds=CONCEALED_KONG_9P)
    assert (with_kong.win, with_kong.reason_code) == (False, "no_shape")
    assert score_hand("1133m5577m22996p", "6p").pattern.key == "qi_dui"


def test_dui_dui_hu_with_terminals_everywhere_is_dai_yao_jiu_without_compounding():
    """Two suits cannot hold it (five 1/9 kinds would be needed), so the table's choice is pinned."""
    choice = choices(())[ALL_TERMINAL]
    assert (choice.pattern.key, choice.fan) == ("dai_yao_jiu", 3)
    assert choices(())[ALL_TERMINAL | ONE_SUIT].pattern.key == "qing_yao_jiu"


def test_between_readings_of_equal_fan_the_later_row_wins():
    """RULES.md 3.1: ``112233m778899p`` + ``1p`` reads as 带幺九 (123m 123m 789p 789p 11p) or as 七对, both
    3 fan; the later row of the table, 七对, is the one reported, by score and by waits alike."""
    scored = score_hand("112233m1778899p", "1p")
    assert (scored.pattern.key, scored.fan) == ("qi_dui", 3)
    assert scored.sets == ("11m", "22m", "33m", "11p", "77p", "88p", "99p")
    waits = find_waits("112233m1778899p")
    assert [(wait.tile, wait.pattern, wait.fan) for wait in waits.waits] == [("1p", "qi_dui", 3)]
    # The standard reading is there: with 七对 worth less it is the one that counts.
    lowered = score_hand("112233m1778899p", "1p", rules={"pattern_fan": {"qi_dui": 2}})
    assert (lowered.pattern.key, lowered.fan) == ("dai_yao_jiu", 3)


def test_pattern_fan_overrides_decide_which_pattern_is_largest():
    """清幺九 normally beats 清一色; with 清一色 worth 6 it is the largest."""
    overridden = score_hand("1112377788899p", "9p", rules={"pattern_fan": {"qing_yi_se": 6}})
    assert (overridden.pattern.key, overridden.fan) == ("qing_yi_se", 6)
    assert score_hand("1112377788899p", "9p").pattern.key == "qing_yao_jiu"


def test_casual_long_qi_dui_is_four_fan():
    result = score_hand("11222244p55779m", "9m", rules={"preset": "casual"})
    assert (result.pattern.key, result.pattern.fan, result.gen, result.fan) == ("long_qi_dui", 4, 0, 4)


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda pattern: pattern.key)
def test_every_pattern_row_has_a_one_line_docstring_naming_it(pattern):
    doc = (pattern.applies.__doc__ or "").strip()
    assert doc and "\n" not in doc
    assert pattern.name in doc.split(":")[0]
