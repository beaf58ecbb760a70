"""Extra fan (RULES.md 3.3) with its options, and 天胡/地胡 (3.1): each applies and does not."""

import pytest

from calculator.engine import score_hand

PLAIN = ("234p456p7p345s789s", "7p")  # 平胡, 1 fan, a 1 and a 9 in it, no melds
MIDDLE = ("234p456p7p345s678s", "7p")  # 平胡 with no 1 and no 9
KONG_DRAW = {"melds": ({"kind": "kong_concealed", "tile": "5s"},), "win_by": "self_draw", "after_kong": True}
AFTER_KONG = ("234p456p7p789s", "7p")  # PLAIN with its 345s made a 5s kong: 杠上花 needs one's own kong
CONCEALED_KONG_5S = ({"kind": "kong_concealed", "tile": "5s"},)
PUNG_2P = ({"kind": "pung", "tile": "2p"},)
FOUR_MELDS = (
    {"kind": "pung", "tile": "1m"},
    {"kind": "kong_direct", "tile": "3m"},
    {"kind": "pung", "tile": "5p"},
    {"kind": "kong_added", "tile": "7p"},
)


def extras(result):
    return {extra.key: extra.fan for extra in result.extras}


CASES = [
    pytest.param(AFTER_KONG, KONG_DRAW, {}, {"gang_shang_hua": 1}, id="gang-shang-hua"),
    pytest.param(AFTER_KONG, KONG_DRAW, {"gang_shang_hua_fan": 0}, {}, id="ghua-off"),
    pytest.param(PLAIN, {"win_by": "self_draw"}, {}, {}, id="self-draw-alone-is-not-gang-shang-hua"),
    pytest.param(PLAIN, {"after_kong": True}, {}, {"gang_shang_pao": 1}, id="gang-shang-pao"),
    pytest.param(PLAIN, {"after_kong": True}, {"gang_shang_pao_fan": 0}, {}, id="gang-shang-pao-off"),
    pytest.param(PLAIN, {"win_by": "robbing_kong"}, {}, {"qiang_gang_hu": 1}, id="qiang-gang-hu"),
    pytest.param(PLAIN, {"win_by": "robbing_kong"}, {"qiang_gang_fan": 0}, {}, id="qiang-gang-off"),
    pytest.param(
        PLAIN, {"win_by": "self_draw"}, {"zimo_bonus": "jia_fan"}, {"zi_mo_jia_fan": 1}, id="zimo-jia-fan"
    ),
    pytest.param(PLAIN, {"win_by": "self_draw"}, {"zimo_bonus": "jia_di"}, {}, id="jia-di-adds-no-fan"),
    pytest.param(PLAIN, {}, {"zimo_bonus": "jia_fan"}, {}, id="jia-fan-needs-a-self-draw"),
    pytest.param(
        PLAIN, {"win_by": "robbing_kong"}, {"zimo_bonus": "jia_fan"}, {"qiang_gang_hu": 1}, id="rob-no-zimo"
    ),
    pytest.param(
        PLAIN,
        {"win_by": "self_draw", "last_tile": True},
        {"hai_di": True},
        {"hai_di_lao_yue": 1},
        id="hai-di-lao-yue",
    ),
    pytest.param(PLAIN, {"win_by": "self_draw", "last_tile": True}, {}, {}, id="hai-di-off-by-default"),
    pytest.param(PLAIN, {"last_tile": True}, {"hai_di": True}, {"hai_di_pao": 1}, id="hai-di-pao"),
    pytest.param(PLAIN, {}, {"hai_di": True}, {}, id="hai-di-needs-the-last-tile"),
    pytest.param(
        PLAIN,
        {"win_by": "robbing_kong", "last_tile": True},
        {"hai_di": True},
        {"qiang_gang_hu": 1},
        id="a-robbed-kong-on-the-last-tile-is-not-hai-di",
    ),
    pytest.param(
        AFTER_KONG,
        {**KONG_DRAW, "last_tile": True},
        {"hai_di": True},
        {"gang_shang_hua": 1, "hai_di_lao_yue": 1},
        id="gang-shang-hua-and-hai-di-together",
    ),
    pytest.param(PLAIN, {}, {"men_qing_zhong_zhang": True}, {"men_qing": 1}, id="men-qing-not-zhong-zhang"),
    pytest.param(MIDDLE, {}, {"men_qing_zhong_zhang": True}, {"men_qing": 1, "zhong_zhang": 1}, id="both"),
    pytest.param(MIDDLE, {}, {}, {}, id="men-qing-zhong-zhang-off-by-default"),
]


@pytest.mark.parametrize(("hand", "situation", "rules", "expected"), CASES)
def test_extra_fan_applies_where_its_situation_and_option_say(hand, situation, rules, expected):
    result = score_hand(*hand, **situation, rules=rules)
    assert extras(result) == expected
    assert result.fan == 1 + result.gen + sum(expected.values())


def test_rule_book_example_12_gang_shang_hua_with_a_concealed_kong():
    result = score_hand("123s678s234m2m", "2m", melds=CONCEALED_KONG_5S, win_by="self_draw", after_kong=True)
    assert (result.pattern.key, result.gen, extras(result), result.fan) == (
        "ping_hu",
        1,
        {"gang_shang_hua": 1},
        3,
    )


@pytest.mark.parametrize(
    ("concealed", "win_tile", "melds", "expected"),
    [
        pytest.param(
            "123s678s234m2m", "2m", CONCEALED_KONG_5S, {"men_qing": 1}, id="a-concealed-kong-keeps-it"
        ),
        pytest.param("345p678p456m9m", "9m", PUNG_2P, {}, id="a-pung-breaks-men-qing"),
    ],
)
def test_men_qing_allows_only_concealed_kongs(concealed, win_tile, melds, expected):
    result = score_hand(concealed, win_tile, melds=melds, rules={"men_qing_zhong_zhang": True})
    assert {key: fan for key, fan in extras(result).items() if key == "men_qing"} == expected


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        pytest.param({"jin_gou_diao": True}, {"jin_gou_diao": 1}, id="on"),
        pytest.param({}, {}, id="off-by-default"),
        pytest.param({"preset": "casual"}, {"jin_gou_diao": 1}, id="casual-preset"),
    ],
)
def test_jin_gou_diao_four_melds_and_a_single_wait_on_the_pair(rules, expected):
    result = score_hand("9m", "9m", melds=FOUR_MELDS, rules=rules)
    assert extras(result) == expected
    assert (result.pattern.key, result.gen) == ("dui_dui_hu", 2)


def test_jin_gou_diao_needs_all_four_sets_melded():
    result = score_hand("789p9m", "9m", melds=FOUR_MELDS[:3], rules={"jin_gou_diao": True})
    assert result.win
    assert extras(result) == {}


@pytest.mark.parametrize(
    ("hand", "flag", "rules", "pattern", "pattern_fan", "extra", "fan"),
    [
        pytest.param(PLAIN, "tian_hu", {}, "tian_hu", 6, {}, 6, id="tian-hu-replaces-ping-hu"),
        pytest.param(PLAIN, "di_hu", {}, "di_hu", 6, {}, 6, id="di-hu-replaces-ping-hu"),
        pytest.param(
            ("1122444455779m", "9m"), "tian_hu", {}, "tian_hu", 6, {}, 6, id="replace-keeps-max-of-6"
        ),
        pytest.param(
            PLAIN, "tian_hu", {"pattern_fan": {"tian_hu": 8}}, "tian_hu", 8, {}, 8, id="its-own-value"
        ),
        pytest.param(PLAIN, "tian_hu", {"tian_di_hu": "stack"}, "ping_hu", 1, {"tian_hu": 6}, 7, id="stack"),
        pytest.param(
            PLAIN, "di_hu", {"tian_di_hu": "stack"}, "ping_hu", 1, {"di_hu": 6}, 7, id="stack-di-hu"
        ),
        pytest.param(PLAIN, "tian_hu", {"tian_di_hu": "off"}, "ping_hu", 1, {}, 1, id="off"),
    ],
)
def test_tian_hu_and_di_hu(hand, flag, rules, pattern, pattern_fan, extra, fan):
    result = score_hand(*hand, win_by="self_draw", **{flag: True}, rules={"zimo_bonus": "none", **rules})
    assert (result.pattern.key, result.pattern.fan, extras(result), result.fan) == (
        pattern,
        pattern_fan,
        extra,
        fan,
    )


def test_di_hu_is_accepted_on_a_discard():
    result = score_hand(*PLAIN, di_hu=True)
    assert (result.pattern.key, result.fan) == ("di_hu", 6)


def test_situational_extras_add_to_tian_hu():
    result = score_hand(*AFTER_KONG, **KONG_DRAW, tian_hu=True)
    assert (result.pattern.key, extras(result), result.fan) == ("tian_hu", {"gang_shang_hua": 1}, 8)
