"""House rules: presets, overrides, validation and the JSON round trip (RULES.md 11)."""

from decimal import Decimal

import pytest

from calculator.engine import OPTIONS, PRESETS, EngineError, Preset, Rules, describe_rules


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        pytest.param(
            "chengdu",
            {
                "base_points": 1,
                "zimo_bonus": "jia_di",
                "direct_kong": "chengbao",
                "dingque": True,
                "cap_multiplier": None,
                "dealer_rule": "first_winner",
                "tax_rate": 0.0,
                "pattern_fan": {},
            },
            id="chengdu",
        ),
        pytest.param(
            "qq",
            {
                "base_points": 6,
                "zimo_bonus": "none",
                "direct_kong": "feeder_1",
                "dingque": False,
                "huazhu_refunds_kongs": False,
                "tax_rate": 0.1,
                "dealer_rule": "dice",
            },
            id="qq",
        ),
        pytest.param(
            "casual",
            {
                "cap_multiplier": 16,
                "pattern_fan": {"long_qi_dui": 4},
                "jin_gou_diao": True,
                "hai_di": True,
                "zimo_bonus": "jia_di",
            },
            id="casual",
        ),
    ],
)
def test_each_preset_has_the_values_of_the_rule_book_table(preset, expected):
    values = Rules.from_dict({"preset": preset}).to_dict()
    assert {key: values[key] for key in expected} == expected


def test_no_preset_means_chengdu():
    assert Rules.from_dict({}) == Rules.from_dict({"preset": "chengdu"}) == Rules.from_dict(None)


def test_an_override_changes_one_option_and_keeps_the_preset():
    rules = Rules.from_dict({"preset": "qq", "cap_multiplier": 8})
    assert rules.cap_multiplier == 8
    assert rules.base_points == 6


def test_pattern_fan_is_merged_over_the_presets_own_overrides():
    rules = Rules.from_dict({"preset": "casual", "pattern_fan": {"qi_dui": 2}})
    assert rules.pattern_value("long_qi_dui") == 4
    assert rules.pattern_value("qi_dui") == 2
    assert rules.pattern_value("ping_hu") == 1


def test_a_tax_rate_sent_as_a_json_float_is_the_exact_decimal():
    assert Rules.from_dict({"tax_rate": 0.1}).tax_rate == Decimal("0.1")


@pytest.mark.parametrize("preset", [preset.value for preset in Preset])
def test_to_dict_and_overrides_both_rebuild_the_same_rules(preset):
    rules = Rules.from_dict({"preset": preset, "escape_points": "cap", "multi_win": "first"})
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict(rules.overrides()) == rules
    assert set(rules.overrides()) == {"preset", "escape_points", "multi_win"}


@pytest.mark.parametrize(
    ("fan", "cap", "points"),
    [
        pytest.param(1, None, 1, id="ping-hu-x1"),
        pytest.param(6, None, 32, id="six-fan-x32"),
        pytest.param(6, 16, 16, id="capped-at-16"),
        pytest.param(4, 16, 8, id="under-the-cap"),
    ],
)
def test_amount_is_base_times_the_capped_multiplier(fan, cap, points):
    assert Rules.from_dict({"cap_multiplier": cap}).amount(fan) == points


def test_a_cap_penalty_is_the_cap_amount_or_sixteen_b_without_a_cap():
    assert Rules.from_dict({"base_points": 2, "cap_multiplier": 8}).penalty("cap") == 16
    assert Rules.from_dict({"base_points": 2}).penalty("cap") == 32
    assert Rules.from_dict({"base_points": 2}).penalty(16) == 32


@pytest.mark.parametrize(
    ("data", "field"),
    [
        pytest.param([], "rules", id="not-an-object"),
        pytest.param({"preset": "beijing"}, "rules.preset", id="unknown-preset"),
        pytest.param({"bogus": 1}, "rules.bogus", id="unknown-option"),
        pytest.param({"mode": "bloody"}, "rules.mode", id="unknown-enum-value"),
        pytest.param({"dingque": "yes"}, "rules.dingque", id="bool-as-string"),
        pytest.param({"dingque": 1}, "rules.dingque", id="bool-as-number"),
        pytest.param({"base_points": 0}, "rules.base_points", id="base-below-one"),
        pytest.param({"base_points": True}, "rules.base_points", id="base-as-bool"),
        pytest.param({"base_points": 1.5}, "rules.base_points", id="base-fractional"),
        pytest.param({"cap_multiplier": 12}, "rules.cap_multiplier", id="cap-not-a-power-of-two"),
        pytest.param({"cap_multiplier": 1}, "rules.cap_multiplier", id="cap-of-one"),
        pytest.param({"gang_shang_hua_fan": 2}, "rules.gang_shang_hua_fan", id="zero-or-one"),
        pytest.param({"huazhu_points": "max"}, "rules.huazhu_points", id="penalty-word"),
        pytest.param({"huazhu_points": -1}, "rules.huazhu_points", id="penalty-negative"),
        pytest.param({"tax_rate": 1}, "rules.tax_rate", id="tax-of-one"),
        pytest.param({"tax_rate": "NaN"}, "rules.tax_rate", id="tax-nan"),
        pytest.param({"tax_rate": "ten percent"}, "rules.tax_rate", id="tax-words"),
        pytest.param(
            {"pattern_fan": {"shi_san_yao": 13}}, "rules.pattern_fan.shi_san_yao", id="unknown-pattern"
        ),
        pytest.param({"pattern_fan": {"qi_dui": 0}}, "rules.pattern_fan.qi_dui", id="pattern-fan-zero"),
        pytest.param({"pattern_fan": [1]}, "rules.pattern_fan", id="pattern-fan-not-an-object"),
    ],
)
def test_it_rejects_a_bad_rules_object_naming_the_option(data, field):
    with pytest.raises(EngineError) as raised:
        Rules.from_dict(data)
    assert raised.value.field == field
    assert raised.value.message and raised.value.message_zh != raised.value.message


def test_the_rules_description_lists_every_option_and_every_preset():
    described = describe_rules()
    assert [option["key"] for option in described["options"]] == [option.key for option in OPTIONS]
    assert set(described["presets"]) == {preset.value for preset in PRESETS}
    assert all(option["meaning"] and option["meaning_zh"] for option in described["options"])
