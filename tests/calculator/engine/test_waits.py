"""Readiness and the best possible fan (RULES.md 3.4), and the waits response of API.md."""

import pytest

from calculator.engine import find_waits

PUNG_1M = {"kind": "pung", "tile": "1m"}
FOUR_MELDS = (
    PUNG_1M,
    {"kind": "kong_direct", "tile": "3m"},
    {"kind": "pung", "tile": "5p"},
    {"kind": "kong_added", "tile": "7p"},
)


def waits_of(result):
    return {wait.tile: (wait.pattern, wait.fan) for wait in result.waits}


def test_api_example_position():
    result = find_waits("1122334455667m")
    assert waits_of(result) == {"1m": ("qing_yi_se", 3), "4m": ("qing_yi_se", 3), "7m": ("qing_qi_dui", 5)}
    assert result.to_dict()["best"] == {
        "tile": "7m",
        "fan": 5,
        "multiplier": 16,
        "points": 16,
        "pattern": "qing_qi_dui",
        "gen": 0,
        "capped": False,
    }
    assert result.ready and not result.huazhu
    assert "discards" not in result.to_dict()


def test_a_position_with_no_wait_is_not_ready():
    result = find_waits("1379m1379p2468p5m")
    assert (result.ready, result.waits, result.best) == (False, (), None)
    assert result.to_dict()["best"] is None


def test_the_waiting_tile_counts_as_a_gen():
    """333p + a wait on 3p inside a run: the fourth copy makes a gen."""
    result = find_waits("33345p678p11m456m")
    assert waits_of(result)["3p"] == ("ping_hu", 2)
    assert waits_of(result)["6p"] == ("ping_hu", 1)


@pytest.mark.parametrize(
    ("rules", "ready", "waits"),
    [
        pytest.param({}, False, {}, id="live-waits-only-by-default"),
        pytest.param(
            {"ting_requires_live_wait": False}, True, {"1m": ("ping_hu", 2)}, id="fifth-copy-once-a-gen"
        ),
    ],
)
def test_a_wait_on_a_kind_all_four_held_is_dead(rules, ready, waits):
    result = find_waits("1111m234p567p999p", rules=rules)
    assert (result.ready, waits_of(result)) == (ready, waits)


def test_a_pung_and_the_fourth_held_make_the_wait_dead():
    result = find_waits("1m234p567p999p", melds=[PUNG_1M])
    assert waits_of(result) == {}


@pytest.mark.parametrize(
    ("concealed", "void_suit", "rules", "huazhu"),
    [
        pytest.param("123m456p789s1122m", None, {}, True, id="three-suits"),
        pytest.param("123m456m789m55p67p", "p", {}, True, id="a-void-suit-tile"),
        pytest.param(
            "123m456m789m55p67p", "p", {"dingque": False}, False, id="void-suit-ignored-without-dingque"
        ),
        pytest.param("123m456m789m55p67p", "s", {}, False, id="another-void-suit"),
    ],
)
def test_a_flower_pig_is_not_ready(concealed, void_suit, rules, huazhu):
    result = find_waits(concealed, void_suit=void_suit, rules=rules)
    assert result.huazhu is huazhu
    assert result.ready is not huazhu
    assert bool(result.waits) is not huazhu


def test_static_extras_count_and_situational_never_do():
    plain = find_waits("234p456p77p345s67s")
    assert waits_of(plain) == {"2s": ("ping_hu", 1), "5s": ("ping_hu", 1), "8s": ("ping_hu", 1)}
    with_extras = find_waits(
        "234p456p77p345s67s", rules={"men_qing_zhong_zhang": True, "zimo_bonus": "jia_fan"}
    )
    assert waits_of(with_extras) == {"2s": ("ping_hu", 3), "5s": ("ping_hu", 3), "8s": ("ping_hu", 3)}


def test_jin_gou_diao_counts_in_a_ready_hand():
    result = find_waits("9m", melds=FOUR_MELDS, rules={"jin_gou_diao": True})
    assert waits_of(result) == {"9m": ("dui_dui_hu", 5)}  # 2 + gen 2 (3m, 7p kongs) + 金钩钓


def test_the_best_fan_is_capped_in_points():
    result = find_waits("1122444455779m", rules={"cap_multiplier": 8})
    assert (result.best.fan, result.best.multiplier, result.best.points, result.best.capped) == (
        6,
        32,
        8,
        True,
    )


def test_a_fourteen_tile_position_lists_the_discards_that_leave_it_ready():
    result = find_waits("11223344556678m")
    body = result.to_dict()
    assert body["best_discard"] in ("7m", "8m")
    assert result.best.pattern == "qing_qi_dui"
    assert {entry["discard"] for entry in body["discards"]} == {
        "1m",
        "2m",
        "3m",
        "4m",
        "5m",
        "6m",
        "7m",
        "8m",
    }
    assert body["waits"] == next(
        entry["waits"] for entry in body["discards"] if entry["discard"] == body["best_discard"]
    )


def test_a_fourteen_tile_position_with_no_ready_discard():
    result = find_waits("1379m1379p2468p5m9p")
    assert (result.ready, result.discards, result.best_discard) == (False, (), None)


def test_a_fourteen_tile_flower_pig_whatever_he_discards():
    result = find_waits("123m456p789s11223m")
    assert (result.huazhu, result.ready, result.to_dict()["discards"]) == (True, False, [])
