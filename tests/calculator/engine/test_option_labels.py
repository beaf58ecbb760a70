"""Every option of the rules table speaks to players: a label and an explanation in English and Chinese,
in players' words, and a name in both languages for each value of a closed set."""

import re

import pytest

from calculator.engine import OPTIONS, OptionKind, describe_rules

# What a player must never read: the table's own keys and values, JSON, and words of code.
CODE_WORDS = re.compile(r"\b(null|true|false|json|xuezhan|chengbao|zimo|dianpao|bao|jia)\b|[_{}\"\[\]]")
CHINESE = re.compile(r"[\u4e00-\u9fff]")
WORDS = ("label", "label_zh", "explanation", "explanation_zh")


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.key)
def test_each_option_has_a_label_and_an_explanation_in_both_languages(option):
    for attribute in WORDS:
        text = getattr(option, attribute)
        assert text.strip(), attribute
        assert not CODE_WORDS.search(text.lower()), f"{attribute}: {text}"
    assert CHINESE.search(option.label_zh) and CHINESE.search(option.explanation_zh)
    assert option.key not in option.explanation and option.key not in option.label


@pytest.mark.parametrize(
    "option", [option for option in OPTIONS if option.kind is OptionKind.ENUM], ids=lambda option: option.key
)
def test_each_value_of_a_closed_set_is_named_in_both_languages(option):
    assert [value.value for value in option.value_labels] == list(option.choices)
    for value in option.value_labels:
        assert value.label.strip() and CHINESE.search(value.label_zh), value
        assert not CODE_WORDS.search(value.label.lower()) and not CODE_WORDS.search(value.label_zh.lower())
    assert len({value.label for value in option.value_labels}) == len(option.value_labels)
    assert len({value.label_zh for value in option.value_labels}) == len(option.value_labels)


def test_an_extra_fan_of_zero_or_one_names_both_values():
    option = next(option for option in OPTIONS if option.key == "gang_shang_hua_fan")
    assert [(value.value, value.label_zh) for value in option.value_labels] == [(0, "不加番"), (1, "加1番")]


def test_self_draw_bonus_reads_as_players_say_it():
    option = next(option for option in OPTIONS if option.key == "zimo_bonus")
    assert option.value_label("jia_di", "zh-hans") == "自摸加底"
    assert option.value_label("jia_di", "en") == "+1 base per payer"


def test_the_rules_endpoint_body_carries_the_labels_beside_the_meaning():
    described = {option["key"]: option for option in describe_rules()["options"]}
    zimo = described["zimo_bonus"]
    assert zimo["meaning"].startswith("Self-draw bonus")  # the API's terse meaning stays as it was
    assert zimo["label_zh"] == "自摸奖励"
    assert {"value": "jia_fan", "label": "+1 fan", "label_zh": "自摸加番"} in zimo["value_labels"]
    assert described["cap_multiplier"]["explanation_zh"].startswith("胡牌最多")
    assert "value_labels" not in described["dingque"]


def test_the_pattern_table_names_each_pattern_with_its_fan():
    patterns = describe_rules()["patterns"]
    assert patterns[0] == {"key": "ping_hu", "fan": 1, "name": "平胡", "name_en": "Plain hand"}
    assert {"key": "qi_dui", "fan": 3, "name": "七对", "name_en": "Seven pairs"} in patterns
