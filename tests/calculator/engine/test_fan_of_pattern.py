"""A win known only by its pattern, gen and situation (the round page's quick picker) is valued by the same
rules as a hand given as tiles."""

import pytest

from calculator.engine import AFTER_KONG, DISCARD, LAST_TILE, SELF_DRAW, Rules, fan_of_pattern


@pytest.mark.parametrize(
    ("rules", "pattern", "gen", "situation", "heavenly", "reported", "extras", "fan"),
    [
        pytest.param({}, "qing_yi_se", 1, DISCARD, None, "qing_yi_se", [], 4, id="flush-with-a-gen"),
        pytest.param(
            {},
            "ping_hu",
            1,
            SELF_DRAW | AFTER_KONG,
            None,
            "ping_hu",
            ["gang_shang_hua"],
            3,
            id="gang-shang-hua-as-example-12",
        ),
        pytest.param(
            {"zimo_bonus": "jia_fan"},
            "ping_hu",
            0,
            SELF_DRAW,
            None,
            "ping_hu",
            ["zi_mo_jia_fan"],
            2,
            id="zi-mo-jia-fan",
        ),
        pytest.param({}, "ping_hu", 0, SELF_DRAW | LAST_TILE, None, "ping_hu", [], 1, id="hai-di-off"),
        pytest.param(
            {"hai_di": True},
            "ping_hu",
            0,
            SELF_DRAW | LAST_TILE,
            None,
            "ping_hu",
            ["hai_di_lao_yue"],
            2,
            id="hai-di-on",
        ),
        pytest.param(
            {"preset": "casual"},
            "long_qi_dui",
            1,
            DISCARD,
            None,
            "long_qi_dui",
            [],
            5,
            id="casual-long-qi-dui-is-four",
        ),
        pytest.param({}, "ping_hu", 1, SELF_DRAW, "tian_hu", "tian_hu", [], 7, id="tian-hu-replace"),
        pytest.param(
            {"tian_di_hu": "stack"},
            "qing_yi_se",
            0,
            SELF_DRAW,
            "tian_hu",
            "qing_yi_se",
            ["tian_hu"],
            9,
            id="tian-hu-stack",
        ),
        pytest.param({"tian_di_hu": "off"}, "ping_hu", 0, DISCARD, "di_hu", "ping_hu", [], 1, id="di-hu-off"),
    ],
)
def test_a_pattern_with_its_situation_gets_the_fan_score_hand_would_give(
    rules, pattern, gen, situation, heavenly, reported, extras, fan
):
    pattern_score, extra_scores, total = fan_of_pattern(
        Rules.from_dict(rules), pattern, gen=gen, situation=situation, heavenly_key=heavenly
    )
    assert (pattern_score.key, [extra.key for extra in extra_scores], total) == (reported, extras, fan)
