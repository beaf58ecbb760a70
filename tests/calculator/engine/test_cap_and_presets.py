"""The cap (RULES.md 3.5) and the presets (section 11): fan and multiplier uncapped, points capped."""

import pytest

from calculator.engine import Rules, score_hand

QING_LONG_QI_DUI = ("1122444455779m", "9m")  # 6 fan, x32
QING_YI_SE = ("11s333s222s456s99s", "9s")  # 3 fan, x4


@pytest.mark.parametrize(
    ("hand", "rules", "fan", "multiplier", "points", "capped"),
    [
        pytest.param(QING_LONG_QI_DUI, {}, 6, 32, 32, False, id="no-cap-by-default"),
        pytest.param(QING_LONG_QI_DUI, {"cap_multiplier": 8}, 6, 32, 8, True, id="three-fan-cap"),
        pytest.param(
            QING_LONG_QI_DUI, {"cap_multiplier": 32}, 6, 32, 32, False, id="at-the-cap-is-not-capped"
        ),
        pytest.param(QING_YI_SE, {"cap_multiplier": 8}, 3, 4, 4, False, id="under-the-cap"),
        pytest.param(
            QING_LONG_QI_DUI, {"cap_multiplier": 8, "base_points": 5}, 6, 32, 40, True, id="b-times-cap"
        ),
    ],
)
def test_points_carry_the_cap_and_fan_does_not(hand, rules, fan, multiplier, points, capped):
    result = score_hand(*hand, rules=rules)
    assert (result.fan, result.multiplier, result.points, result.capped) == (fan, multiplier, points, capped)


@pytest.mark.parametrize(
    ("preset", "hand", "fan", "points"),
    [
        pytest.param("chengdu", QING_YI_SE, 3, 4, id="chengdu"),
        pytest.param("qq", QING_YI_SE, 3, 24, id="qq-base-6"),
        pytest.param("casual", QING_LONG_QI_DUI, 6, 16, id="casual-cap-16"),
    ],
)
def test_each_preset_scores(preset, hand, fan, points):
    result = score_hand(*hand, rules={"preset": preset})
    assert (result.fan, result.points) == (fan, points)


def test_rules_may_be_a_rules_value_or_a_mapping_or_none():
    as_value = score_hand(*QING_YI_SE, rules=Rules.from_dict({"preset": "qq"}))
    as_mapping = score_hand(*QING_YI_SE, rules={"preset": "qq"})
    assert as_value == as_mapping
    assert score_hand(*QING_YI_SE, rules=None) == score_hand(*QING_YI_SE, rules={"preset": "chengdu"})


def test_settlement_can_switch_zimo_jia_fan_off_with_with_options():
    from calculator.engine import ZimoBonus

    jia_fan = Rules.from_dict({"zimo_bonus": "jia_fan"})
    assert score_hand(*QING_YI_SE, win_by="self_draw", rules=jia_fan).fan == 4
    assert (
        score_hand(*QING_YI_SE, win_by="self_draw", rules=jia_fan.with_options(zimo_bonus=ZimoBonus.NONE)).fan
        == 3
    )
