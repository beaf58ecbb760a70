"""The room options of issue 17 (RULES.md 3.1, 3.3, 3.4, 3.6), each on, off and beside its neighbours,
and worked examples 21 to 23 exactly as written."""

from __future__ import annotations

import pytest

from calculator.engine import EngineError, fan_of_pattern, find_waits, score_hand
from calculator.engine.rules import Rules


def scored(concealed: str, win_tile: str, **options):
    return score_hand(concealed, win_tile, rules={"preset": "chengdu", **options})


def extras(result) -> list[str]:
    return [extra.key for extra in result.extras]


# ---- 幺九将对 (yao_jiu_jiang_dui, 3.1)


@pytest.mark.parametrize(
    ("concealed", "win_tile", "on", "off"),
    [
        pytest.param(
            "111222333m789p9p", "9p", ("dai_yao_jiu", 3), ("ping_hu", 1), id="example-21-dai-yao-jiu"
        ),
        pytest.param(
            "222s555s888s888m5m", "5m", ("jiang_dui", 4), ("dui_dui_hu", 2), id="example-21-jiang-dui"
        ),
        pytest.param("1112377788899p", "9p", ("qing_yao_jiu", 5), ("qing_yi_se", 3), id="qing-yao-jiu"),
        pytest.param("111p333p555p777p9p", "9p", ("qing_dui", 4), ("qing_dui", 4), id="qing-dui-stays"),
        pytest.param("234p456p7p345s789s", "7p", ("ping_hu", 1), ("ping_hu", 1), id="ping-hu-stays"),
    ],
)
def test_yao_jiu_jiang_dui_off_scores_the_best_remaining_pattern(concealed, win_tile, on, off):
    for value, (key, fan) in ((True, on), (False, off)):
        result = scored(concealed, win_tile, yao_jiu_jiang_dui=value)
        assert (result.pattern.key, result.fan) == (key, fan), value


def test_a_left_out_pattern_stays_out_whatever_its_value():
    result = scored("222s555s888s888m5m", "5m", yao_jiu_jiang_dui=False, pattern_fan={"jiang_dui": 6})
    assert (result.pattern.key, result.fan) == ("dui_dui_hu", 2)


def test_the_quick_picker_cannot_name_a_left_out_pattern():
    rules = Rules.from_dict({"yao_jiu_jiang_dui": False})
    with pytest.raises(EngineError) as refused:
        fan_of_pattern(rules, "jiang_dui", gen=0, situation=0)
    assert refused.value.code == "pattern_left_out"
    assert fan_of_pattern(rules, "dui_dui_hu", gen=0, situation=0)[2] == 2


def test_a_wait_is_valued_without_the_left_out_patterns():
    position = "111222333m789p9p"
    assert find_waits(position).best.pattern == "dai_yao_jiu"
    assert find_waits(position, rules={"yao_jiu_jiang_dui": False}).best.pattern == "ping_hu"


# ---- 夹心五 (jia_xin_wu, 3.3)


def test_example_22_jia_xin_wu_on_a_five_in_the_middle_of_four_and_six():
    result = scored("12346789m789p55p", "5m", jia_xin_wu=True)
    assert (result.pattern.key, result.fan, result.multiplier) == ("ping_hu", 2, 2)
    assert extras(result) == ["jia_xin_wu"]
    assert "456m" in result.sets
    assert scored("12346789m789p55p", "5m").fan == 1  # off by default


def test_jia_xin_wu_keeps_the_reading_that_gives_the_most_fan():
    # 444 555 666 + 789p: 平胡 either way; as three runs 4-5-6 it has 夹心五
    runs = scored("444m55m666m789p11p", "5m", jia_xin_wu=True)
    assert (runs.fan, extras(runs), runs.sets) == (2, ["jia_xin_wu"], ("11p", "456m", "456m", "456m", "789p"))
    # with 999p the pungs are 对对胡 (2): as good as 平胡 + 夹心五, and the pattern is kept
    pungs = scored("444m55m666m999p11p", "5m", jia_xin_wu=True)
    assert (pungs.pattern.key, pungs.fan, extras(pungs)) == ("dui_dui_hu", 2, [])


@pytest.mark.parametrize(
    ("concealed", "win_tile"),
    [
        pytest.param("44m5m66m11p22p33p99p", "5m", id="never-for-seven-pairs"),
        pytest.param("34m678m123p789p99p", "5m", id="a-five-ending-3-4-5"),
        pytest.param("12346789m789p55p", "9p", id="not-a-five"),
    ],
)
def test_jia_xin_wu_does_not_count(concealed, win_tile):
    assert "jia_xin_wu" not in extras(scored(concealed, win_tile, jia_xin_wu=True))


def test_jia_xin_wu_beside_men_qing_both_count():
    result = scored("12346789m789p55p", "5m", jia_xin_wu=True, men_qing=True)
    assert (result.fan, extras(result)) == (3, ["men_qing", "jia_xin_wu"])


def test_jia_xin_wu_counts_for_a_wait_on_a_five_in_the_middle():
    assert find_waits("12346789m789p55p", rules={"jia_xin_wu": True}).best.fan == 2
    assert find_waits("12346789m789p55p").best.fan == 1


# ---- 门清 only on a self-draw (men_qing_needs_zimo, 3.3)


@pytest.mark.parametrize(
    ("win_by", "counted"),
    [
        pytest.param("discard", False, id="not-on-a-discard"),
        pytest.param("robbing_kong", False, id="not-robbing-a-kong"),
        pytest.param("self_draw", True, id="on-a-self-draw"),
    ],
)
def test_men_qing_needs_zimo(win_by, counted):
    result = score_hand(
        "234p456p7p345s789s", "7p", win_by=win_by, rules={"men_qing": True, "men_qing_needs_zimo": True}
    )
    assert ("men_qing" in extras(result)) is counted
    plain = score_hand("234p456p7p345s789s", "7p", win_by=win_by, rules={"men_qing": True})
    assert "men_qing" in extras(plain)  # without the option 门清 counts on any win


def test_men_qing_needs_zimo_counts_on_a_flower_on_the_kong():
    melds = [{"kind": "kong_concealed", "tile": "9s"}]
    rules = {"men_qing": True, "men_qing_needs_zimo": True}
    result = score_hand("234p456p7p345s", "7p", melds=melds, win_by="self_draw", after_kong=True, rules=rules)
    assert {"men_qing", "gang_shang_hua"} <= set(extras(result))


def test_men_qing_needs_zimo_alone_adds_nothing_and_never_reaches_a_ready_hand():
    assert (
        extras(
            score_hand("234p456p7p345s789s", "7p", win_by="self_draw", rules={"men_qing_needs_zimo": True})
        )
        == []
    )
    assert find_waits("234p456p7p345s789s", rules={"men_qing": True}).best.fan == 2
    assert (
        find_waits("234p456p7p345s789s", rules={"men_qing": True, "men_qing_needs_zimo": True}).best.fan == 1
    )


# ---- 查小叫 (chajiao_value, 3.4)


def test_cha_xiao_jiao_values_a_position_at_its_smallest_live_wait():
    position = "111222m333p4455p"  # 3p 4p 5p for 2 fan, 6p for 1
    assert [(w.tile, w.fan) for w in find_waits(position).waits] == [
        ("3p", 2),
        ("4p", 2),
        ("5p", 2),
        ("6p", 1),
    ]
    assert find_waits(position).best.fan == 2
    least = find_waits(position, rules={"chajiao_value": "min"})
    assert (least.best.tile, least.best.fan) == ("6p", 1)
    assert len(least.waits) == 4  # the waits are listed the same


def test_cha_xiao_jiao_with_a_drawn_tile_keeps_the_discard_that_leaves_the_most():
    result = find_waits("1112223334445m6m", rules={"chajiao_value": "min"})
    smallest = {d.discard: min(w.fan for w in d.waits) for d in result.discards}
    assert result.best.fan == max(smallest.values())
    assert smallest[result.best_discard] == result.best.fan


# ---- N番起胡 (min_fan_to_win, 3.6)


def test_example_23_two_fan_to_win_refuses_a_plain_hand_and_takes_all_pungs():
    plain = scored("234p456p7p345s789s", "7p", min_fan_to_win=2)
    assert (plain.win, plain.reason_code, plain.fan) == (False, "below_min_fan", 1)
    assert "2" in plain.reason and "1" in plain.reason_zh
    pungs = scored("111m222m444m333p9p", "9p", min_fan_to_win=2)
    assert (pungs.win, pungs.fan) == (True, 2)


def test_three_fan_to_win_counts_gen_and_extras_before_the_cap():
    assert not scored("111m222m444m333p9p", "9p", min_fan_to_win=3).win
    assert scored("111m222m444m333p9p", "9p", min_fan_to_win=3, men_qing=True).win  # 对对胡 + 门清
    assert scored("11s333s222s456s99s", "9s", min_fan_to_win=3, cap_multiplier=2).win  # 清一色 3, paid x2


def test_a_wait_below_the_minimum_is_no_wait():
    assert find_waits("234p456p7p345s789s").ready
    assert find_waits("234p456p7p345s789s", rules={"min_fan_to_win": 2}).to_dict() == {
        "ready": False,
        "huazhu": False,
        "waits": [],
        "best": None,
    }
    # 夹心五 lifts a plain wait to 2: ready again
    assert find_waits("12346789m789p55p", rules={"jia_xin_wu": True, "min_fan_to_win": 2}).ready


def test_only_the_waits_that_reach_the_minimum_are_listed():
    waits = find_waits("111222m333p4455p", rules={"min_fan_to_win": 2}).waits
    assert [w.tile for w in waits] == ["3p", "4p", "5p"]


# ---- the names players give compositions (3.1): beside the breakdown, never the API's pattern

KONGS = [
    {"kind": kind, "tile": tile}
    for kind, tile in (("kong_direct", "2s"), ("kong_added", "5s"), ("kong_concealed", "8s"))
]


@pytest.mark.parametrize(
    ("concealed", "win_tile", "melds", "key"),
    [
        pytest.param(
            "5p", "5p", [*KONGS, {"kind": "kong_direct", "tile": "8p"}], "shi_ba_luo_han", id="shi-ba-luo-han"
        ),
        pytest.param(
            "5s",
            "5s",
            [{"kind": "kong_direct", "tile": t} for t in ("1s", "3s", "7s", "9s")],
            "qing_shi_ba_luo_han",
            id="qing",
        ),
        pytest.param(
            "5p", "5p", [*KONGS, {"kind": "pung", "tile": "8p"}], "jiang_jin_gou", id="jiang-jin-gou"
        ),
        pytest.param(
            "9s",
            "9s",
            [{"kind": "pung", "tile": t} for t in ("1s", "3s", "5s", "7s")],
            "qing_jin_gou",
            id="qing-jin-gou",
        ),
        pytest.param(
            "9s",
            "9s",
            [{"kind": "pung", "tile": t} for t in ("1s", "3s", "5m", "7s")],
            None,
            id="a-plain-hook",
        ),
    ],
)
def test_the_composition_names(concealed, win_tile, melds, key):
    from calculator.engine import composition_of

    result = score_hand(concealed, win_tile, melds=melds)
    found = composition_of(result.pattern.key, [meld["kind"] for meld in melds])
    assert (found.key if found else None) == key
    assert result.pattern.key in ("dui_dui_hu", "jiang_dui", "qing_dui")  # the API's pattern is the table's
