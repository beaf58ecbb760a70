"""RULES.md section 12, hand examples 1 to 10, exactly as written (chengdu preset)."""

import pytest

from calculator.engine import score_hand

KONG_5P_AND_PUNG_7P = ({"kind": "kong_direct", "tile": "5p"}, {"kind": "pung", "tile": "7p"})

EXAMPLES = [
    pytest.param("234p456p7p345s789s", "7p", (), "ping_hu", 0, 1, 1, id="1-ping-hu"),
    pytest.param("111m222m444m333p9p", "9p", (), "dui_dui_hu", 0, 2, 2, id="2-dui-dui-hu"),
    pytest.param("11s333s222s456s99s", "9s", (), "qing_yi_se", 0, 3, 4, id="3-qing-yi-se"),
    pytest.param("111222333m789p9p", "9p", (), "dai_yao_jiu", 0, 3, 4, id="4-dai-yao-jiu-through-runs"),
    pytest.param("2244552299m119p", "9p", (), "long_qi_dui", 0, 5, 16, id="5-qq-qi-dui-is-long-qi-dui"),
    pytest.param("11222244p55779m", "9m", (), "long_qi_dui", 0, 5, 16, id="6-long-qi-dui"),
    pytest.param("1122444455779m", "9m", (), "qing_long_qi_dui", 0, 6, 32, id="6-qing-long-qi-dui"),
    pytest.param("9988775522116p", "6p", (), "qing_qi_dui", 0, 5, 16, id="7-qq-qing-dui-is-qing-qi-dui"),
    pytest.param("111p333p555p777p9p", "9p", (), "qing_dui", 0, 4, 8, id="7-qing-dui"),
    pytest.param("222s555s888s888m5m", "5m", (), "jiang_dui", 0, 4, 8, id="8-jiang-dui"),
    pytest.param("222s555s888s888m3m", "3m", (), "dui_dui_hu", 0, 2, 2, id="8-with-33m-dui-dui-hu"),
    pytest.param("1112377788899p", "9p", (), "qing_yao_jiu", 0, 5, 16, id="9-qing-yao-jiu"),
    pytest.param("111m333m9m", "9m", KONG_5P_AND_PUNG_7P, "dui_dui_hu", 1, 3, 4, id="10-melds-and-a-gen"),
]


@pytest.mark.parametrize(("concealed", "win_tile", "melds", "pattern", "gen", "fan", "multiplier"), EXAMPLES)
def test_rule_book_example_scores_as_written(concealed, win_tile, melds, pattern, gen, fan, multiplier):
    result = score_hand(concealed, win_tile, melds=melds, rules={"preset": "chengdu"})
    assert (result.win, result.pattern.key, result.gen, result.fan, result.multiplier) == (
        True,
        pattern,
        gen,
        fan,
        multiplier,
    )
    assert result.points == multiplier  # b = 1 in chengdu


def test_example_4_shows_the_runs_that_gave_the_best_fan():
    assert score_hand("111222333m789p9p", "9p").sets == ("99p", "123m", "123m", "123m", "789p")


def test_example_10_lists_the_melds_among_the_sets():
    assert score_hand("111m333m9m", "9m", melds=KONG_5P_AND_PUNG_7P).sets == (
        "99m",
        "111m",
        "333m",
        "5555p",
        "777p",
    )


def test_example_5_lists_its_quad_as_two_pairs():
    assert score_hand("2244552299m119p", "9p").sets == ("22m", "22m", "44m", "55m", "99m", "11p", "99p")


def test_api_example_response_shape():
    """API.md's score example: the response body, key for key."""
    body = score_hand("11s333s222s456s99s", "9s").to_dict()
    assert {
        key: body[key] for key in ("win", "fan", "multiplier", "points", "capped", "gen", "extras", "sets")
    } == {
        "win": True,
        "fan": 3,
        "multiplier": 4,
        "points": 4,
        "capped": False,
        "gen": 0,
        "extras": [],
        "sets": ["11s", "222s", "333s", "456s", "999s"],
    }
    assert {key: body["pattern"][key] for key in ("key", "name", "fan")} == {
        "key": "qing_yi_se",
        "name": "清一色",
        "fan": 3,
    }


def test_melds_take_their_place_among_the_concealed_sets():
    result = score_hand("123p789p456m1m", "1m", melds=[{"kind": "pung", "tile": "5p"}])
    assert result.sets == ("11m", "456m", "123p", "555p", "789p")
