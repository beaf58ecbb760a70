"""An independent audit of the hand scorer against RULES.md sections 2, 3 and 12 (examples 1-10).

Every expected number below was derived by hand from the rule book, not from the engine or its own
tests; the comment on each case shows the arithmetic. Findings are recorded in docs/audit.md.
"""

from typing import Any

import pytest

from calculator.engine import find_waits, score_hand

ON = {"men_qing_zhong_zhang": True}


def _score(concealed: str, win_tile: str, **kwargs: Any) -> dict[str, Any]:
    return score_hand(concealed=concealed, win_tile=win_tile, **kwargs).to_dict()


# (concealed, win_tile, keyword arguments, expected pattern key, expected gen, expected fan)
HANDS = [
    # --- section 12, examples 1-10 ---------------------------------------------------------------------
    pytest.param("234p456p77p345s78s", "9s", {}, "ping_hu", 0, 1, id="ex1-ping-hu"),
    pytest.param("111m222m444m333p9p", "9p", {}, "dui_dui_hu", 0, 2, id="ex2-dui-dui-hu"),
    pytest.param("11s333s222s456s99s", "9s", {}, "qing_yi_se", 0, 3, id="ex3-qing-yi-se"),
    # 111222333m as three 123m runs: 123 123 123 789p 99p, every set holds a 1 or 9 -> 3, not 平胡 1.
    pytest.param("111222333m789p9p", "9p", {}, "dai_yao_jiu", 0, 3, id="ex4-dai-yao-jiu-runs-not-pungs"),
    # four 2m: 龙七对 5, gen 1 - 1 = 0.
    pytest.param("224455229m1199p", "9m", {}, "long_qi_dui", 0, 5, id="ex5-qq-qi-dui-is-long-qi-dui"),
    pytest.param("11222244p55779m", "9m", {}, "long_qi_dui", 0, 5, id="ex6-long-qi-dui"),
    pytest.param("1122444455779m", "9m", {}, "qing_long_qi_dui", 0, 6, id="ex6-qing-long-qi-dui"),
    pytest.param("9988775522116p", "6p", {}, "qing_qi_dui", 0, 5, id="ex7-qq-qing-dui-is-qing-qi-dui"),
    pytest.param("111p333p555p777p9p", "9p", {}, "qing_dui", 0, 4, id="ex7-qing-dui"),
    pytest.param("222s555s888s888m5m", "5m", {}, "jiang_dui", 0, 4, id="ex8-jiang-dui"),
    pytest.param("222s555s888s888m3m", "3m", {}, "dui_dui_hu", 0, 2, id="ex8-33m-pair-is-dui-dui-hu"),
    # 11 + 123 + 789 x3: 清一色 + 带幺九.
    pytest.param("1112377788899p", "9p", {}, "qing_yao_jiu", 0, 5, id="ex9-qing-yao-jiu"),
    # 5555p kong + 777p pung + 111m 333m + 99m: 对对胡 2 + gen 1.
    pytest.param(
        "111m333m9m",
        "9m",
        {"melds": [{"kind": "kong_direct", "tile": "5p"}, {"kind": "pung", "tile": "7p"}]},
        "dui_dui_hu",
        1,
        3,
        id="ex10-dui-dui-hu-plus-kong-gen",
    ),
    # --- precedence -------------------------------------------------------------------------------------
    # 11m22m33m44m55p66p77p reads as 123m 123m 567p 567p 44m (平胡 1) or 七对 3: the larger counts.
    pytest.param("1122334455667p", "7p", {}, "qing_qi_dui", 0, 5, id="qing-qi-dui-beats-qing-yi-se-runs"),
    pytest.param("11223344m55667p", "7p", {}, "qi_dui", 0, 3, id="qi-dui-beats-ping-hu-runs"),
    # 1111m 2222m 33p 44p 55p: 龙七对 5 + gen (2 quads - 1) = 6.
    pytest.param("11112222m33445p", "5p", {}, "long_qi_dui", 1, 6, id="long-qi-dui-two-quads-gen-1"),
    # 1111m 4444m 55 77 99m: 青龙七对 6 + gen 1 = 7.
    pytest.param("1111444455779m", "9m", {}, "qing_long_qi_dui", 1, 7, id="qing-long-qi-dui-two-quads"),
    # --- gen ---------------------------------------------------------------------------------------------
    # pung 333p + 345p run holds the 4th 3p: 平胡 1 + gen 1.
    pytest.param(
        "345p678p234m1m",
        "1m",
        {"melds": [{"kind": "pung", "tile": "3p"}]},
        "ping_hu",
        1,
        2,
        id="gen-pung-plus-held-in-run",
    ),
    pytest.param(
        "345p678p234m1m",
        "1m",
        {"melds": [{"kind": "pung", "tile": "3p"}], "rules": {"gen_counts_pung_plus_held": False}},
        "ping_hu",
        0,
        1,
        id="gen-pung-plus-held-off",
    ),
    # pung 5s, the winning 5s completes 345s: the 4th copy is the winning tile.
    pytest.param(
        "34s678s11m234m",
        "5s",
        {"melds": [{"kind": "pung", "tile": "5s"}]},
        "ping_hu",
        1,
        2,
        id="gen-fourth-copy-is-win-tile",
    ),
    # ... and with gen_counts_pung_plus_held false it is a 碰 plus the 4th inside a run: no gen (audit A2).
    pytest.param(
        "34s678s11m234m",
        "5s",
        {"melds": [{"kind": "pung", "tile": "5s"}], "rules": {"gen_counts_pung_plus_held": False}},
        "ping_hu",
        0,
        1,
        id="gen-pung-plus-win-tile-off",
    ),
    # concealed 2222m split as 222m + 234m: an undeclared quad, counts under both gen options.
    pytest.param("222234m456m789p5p", "5p", {}, "ping_hu", 1, 2, id="gen-concealed-quad-split"),
    pytest.param(
        "222234m456m789p5p",
        "5p",
        {"rules": {"gen_counts_kongs": False}},
        "ping_hu",
        1,
        2,
        id="gen-concealed-quad-split-counts-without-kongs",
    ),
    pytest.param(
        "222234m456m789p5p",
        "5p",
        {"rules": {"gen_counts_pung_plus_held": False}},
        "ping_hu",
        1,
        2,
        id="gen-concealed-quad-split-is-not-pung-plus-held",
    ),
    # gen_counts_kongs false: the declared 5555p kong is no gen -> 对对胡 2.
    pytest.param(
        "111m333m9m",
        "9m",
        {
            "melds": [{"kind": "kong_direct", "tile": "5p"}, {"kind": "pung", "tile": "7p"}],
            "rules": {"gen_counts_kongs": False},
        },
        "dui_dui_hu",
        0,
        2,
        id="gen-counts-kongs-off",
    ),
    # gen_counts_kongs false is "only undeclared quads count": a pung + held 4th is undeclared, still a gen.
    pytest.param(
        "345p678p234m1m",
        "1m",
        {"melds": [{"kind": "pung", "tile": "3p"}], "rules": {"gen_counts_kongs": False}},
        "ping_hu",
        1,
        2,
        id="gen-counts-kongs-off-keeps-pung-plus-held",
    ),
    # ... and the quads inside seven pairs: 龙七对 5 + (2 - 1).
    pytest.param(
        "11112222m33445p",
        "5p",
        {"rules": {"gen_counts_kongs": False}},
        "long_qi_dui",
        1,
        6,
        id="gen-counts-kongs-off-keeps-long-qi-dui-quads",
    ),
    # 1111 2222 3333 44m: 123m x4 + 44 (清一色 3 + gen 3 = 6) or 青龙七对 6 + gen 2 = 8: the best is kept.
    pytest.param("1111222233334m", "4m", {}, "qing_long_qi_dui", 2, 8, id="qing-long-beats-runs-with-gen"),
    # --- 天胡 / 地胡 --------------------------------------------------------------------------------------
    # replace: max(6, 1) = 6.
    pytest.param(
        "234p456p77p345s78s",
        "9s",
        {"win_by": "self_draw", "tian_hu": True},
        "tian_hu",
        0,
        6,
        id="tian-hu-replace-ping-hu",
    ),
    # replace over 青龙七对 with two quads: max(6, 6) = 6 + gen (2 - 1) = 7, the 龙 gen-1 still applies.
    pytest.param(
        "1111444455779m",
        "9m",
        {"win_by": "self_draw", "tian_hu": True},
        "tian_hu",
        1,
        7,
        id="tian-hu-replace-keeps-long-gen-minus-one",
    ),
    # replace over 龙七对 (gen 0): max(6, 5) = 6.
    pytest.param(
        "11222244p55779m",
        "9m",
        {"win_by": "self_draw", "tian_hu": True},
        "tian_hu",
        0,
        6,
        id="tian-hu-replace-long-qi-dui",
    ),
    # stack: 龙七对 5 + 6 = 11.
    pytest.param(
        "11222244p55779m",
        "9m",
        {"win_by": "self_draw", "tian_hu": True, "rules": {"tian_di_hu": "stack"}},
        "long_qi_dui",
        0,
        11,
        id="tian-hu-stack",
    ),
    # stack with gen: pung 3p + held: 平胡 1 + 6 + gen 1 = 8.
    pytest.param(
        "222234m456m789p5p",
        "5p",
        {"win_by": "self_draw", "di_hu": True, "rules": {"tian_di_hu": "stack"}},
        "ping_hu",
        1,
        8,
        id="di-hu-stack-with-gen",
    ),
    pytest.param(
        "234p456p77p345s78s",
        "9s",
        {"win_by": "self_draw", "tian_hu": True, "rules": {"tian_di_hu": "off"}},
        "ping_hu",
        0,
        1,
        id="tian-hu-off",
    ),
    # 地胡 on a discard is accepted: 6.
    pytest.param(
        "234p456p77p345s78s", "9s", {"win_by": "discard", "di_hu": True}, "di_hu", 0, 6, id="di-hu-on-discard"
    ),
    # replace + 自摸加番: 6 + 1 = 7.
    pytest.param(
        "234p456p77p345s78s",
        "9s",
        {"win_by": "self_draw", "tian_hu": True, "rules": {"zimo_bonus": "jia_fan"}},
        "tian_hu",
        0,
        7,
        id="tian-hu-replace-plus-jia-fan",
    ),
    # AMBIGUITY (docs/audit.md A1, decided): 1111 2222 3333 44m under 天胡 replace. As 青龙七对 it is
    # max(6, 6) + gen 3 - 1 = 8; as 123m x4 + 44m it is max(6, 清一色 3) + gen 3 = 9. Every reading is tried
    # and the best kept (3.1), after 天胡 is applied: 9.
    pytest.param(
        "1111222233334m",
        "4m",
        {"win_by": "self_draw", "tian_hu": True},
        "tian_hu",
        3,
        9,
        id="tian-hu-replace-keeps-the-best-final-reading",
    ),
    # stack: 青龙七对 6 + 6 + gen 2 = 14 (the runs reading: 3 + 6 + 3 = 12).
    pytest.param(
        "1111222233334m",
        "4m",
        {"win_by": "self_draw", "tian_hu": True, "rules": {"tian_di_hu": "stack"}},
        "qing_long_qi_dui",
        2,
        14,
        id="tian-hu-stack-two-readings",
    ),
    # 将对 lowered to 1: 对对胡 2 is then the largest.
    pytest.param(
        "222s555s888s888m5m",
        "5m",
        {"rules": {"pattern_fan": {"jiang_dui": 1}}},
        "dui_dui_hu",
        0,
        2,
        id="jiang-dui-lowered",
    ),
    # equal pattern values: 清一色 3 (gen 3) and 青龙七对 3 (gen 2): the better total 6 is kept.
    pytest.param(
        "1111222233334m",
        "4m",
        {"rules": {"pattern_fan": {"qing_long_qi_dui": 3, "long_qi_dui": 3}}},
        "qing_yi_se",
        3,
        6,
        id="tie-of-patterns-best-total",
    ),
    # --- pattern_fan overrides -----------------------------------------------------------------------------
    # casual: 龙七对 is 4 (x8) -> ex5 hand 4 fan.
    pytest.param(
        "224455229m1199p",
        "9m",
        {"rules": {"preset": "casual"}},
        "long_qi_dui",
        0,
        4,
        id="casual-long-qi-dui-4",
    ),
    # a table's own pattern_fan merges over casual's: 龙七对 stays 4.
    pytest.param(
        "224455229m1199p",
        "9m",
        {"rules": {"preset": "casual", "pattern_fan": {"qi_dui": 2}}},
        "long_qi_dui",
        0,
        4,
        id="pattern-fan-merges-over-preset",
    ),
    # 清七对 lowered to 2: the largest pattern that applies is then 清一色 3 (the runs reading) or 七对 3.
    pytest.param(
        "1122334455667p",
        "7p",
        {"rules": {"pattern_fan": {"qing_qi_dui": 2}}},
        None,
        0,
        3,
        id="lowered-pattern-loses-to-the-next-largest",
    ),
]


@pytest.mark.parametrize(("concealed", "win_tile", "kwargs", "pattern", "gen", "fan"), HANDS)
def test_hand_fan_follows_the_rule_book(
    concealed: str, win_tile: str, kwargs: dict[str, Any], pattern: str | None, gen: int, fan: int
) -> None:
    result = _score(concealed, win_tile, **kwargs)
    assert result["win"] is True
    assert (result["fan"], result["gen"], result["multiplier"]) == (fan, gen, 2 ** (fan - 1))
    if pattern is not None:
        assert result["pattern"]["key"] == pattern


# (concealed, win_tile, keyword arguments, expected extra keys, expected fan)
EXTRAS = [
    # 12: 5555s 暗杠 + 123s 678s 234m 22m, 杠上花: 平胡 1 + gen 1 + 1 = 3.
    pytest.param(
        "123s678s234m2m",
        "2m",
        {"melds": [{"kind": "kong_concealed", "tile": "5s"}], "win_by": "self_draw", "after_kong": True},
        {"gang_shang_hua"},
        3,
        id="ex12-gang-shang-hua",
    ),
    pytest.param(
        "123s678s234m2m",
        "2m",
        {
            "melds": [{"kind": "kong_concealed", "tile": "5s"}],
            "win_by": "self_draw",
            "after_kong": True,
            "rules": {"gang_shang_hua_fan": 0},
        },
        set(),
        2,
        id="gang-shang-hua-fan-0",
    ),
    pytest.param(
        "234p456p77p345s78s", "9s", {"after_kong": True}, {"gang_shang_pao"}, 2, id="gang-shang-pao"
    ),
    pytest.param(
        "234p456p77p345s78s",
        "9s",
        {"after_kong": True, "rules": {"gang_shang_pao_fan": 0}},
        set(),
        1,
        id="gang-shang-pao-fan-0",
    ),
    pytest.param(
        "34p678p234m789m11m", "5p", {"win_by": "robbing_kong"}, {"qiang_gang_hu"}, 2, id="ex14-qiang-gang"
    ),
    pytest.param(
        "34p678p234m789m11m",
        "5p",
        {"win_by": "robbing_kong", "rules": {"qiang_gang_fan": 0}},
        set(),
        1,
        id="qiang-gang-fan-0",
    ),
    # a robbed kong is not a self-draw: no 自摸加番 even under jia_fan.
    pytest.param(
        "34p678p234m789m11m",
        "5p",
        {"win_by": "robbing_kong", "rules": {"zimo_bonus": "jia_fan"}},
        {"qiang_gang_hu"},
        2,
        id="robbing-never-jia-fan",
    ),
    pytest.param(
        "234p456p77p345s78s",
        "9s",
        {"win_by": "self_draw", "rules": {"zimo_bonus": "jia_fan"}},
        {"zi_mo_jia_fan"},
        2,
        id="jia-fan-self-draw",
    ),
    pytest.param("234p456p77p345s78s", "9s", {"win_by": "self_draw"}, set(), 1, id="jia-di-adds-no-fan"),
    pytest.param(
        "234p456p77p345s78s",
        "9s",
        {"win_by": "discard", "rules": {"zimo_bonus": "jia_fan"}},
        set(),
        1,
        id="jia-fan-not-on-discard",
    ),
    # 金钩钓: four pungs melded, single wait on the pair: 对对胡 2 + 1.
    pytest.param(
        "8p",
        "8p",
        {
            "melds": [{"kind": "pung", "tile": t} for t in ("2m", "5m", "3p", "7p")],
            "rules": {"jin_gou_diao": True},
        },
        {"jin_gou_diao"},
        3,
        id="jin-gou-diao-on",
    ),
    pytest.param(
        "8p",
        "8p",
        {"melds": [{"kind": "pung", "tile": t} for t in ("2m", "5m", "3p", "7p")]},
        set(),
        2,
        id="jin-gou-diao-off-by-default",
    ),
    pytest.param(
        "234p456p77p345s78s",
        "9s",
        {"win_by": "self_draw", "last_tile": True, "rules": {"hai_di": True}},
        {"hai_di_lao_yue"},
        2,
        id="hai-di-lao-yue",
    ),
    pytest.param(
        "234p456p77p345s78s",
        "9s",
        {"last_tile": True, "rules": {"hai_di": True}},
        {"hai_di_pao"},
        2,
        id="hai-di-pao",
    ),
    pytest.param("234p456p77p345s78s", "9s", {"last_tile": True}, set(), 1, id="hai-di-off-by-default"),
    # casual turns 海底 on.
    pytest.param(
        "234p456p77p345s78s",
        "9s",
        {"last_tile": True, "rules": {"preset": "casual"}},
        {"hai_di_pao"},
        2,
        id="casual-hai-di-on",
    ),
    # 门清 allows an 暗杠: 平胡 1 + gen 1 + 门清 1 (1s and 8s... 1s is a terminal: no 中张).
    pytest.param(
        "123s678s234m2m",
        "2m",
        {"melds": [{"kind": "kong_concealed", "tile": "5s"}], "rules": ON},
        {"men_qing"},
        3,
        id="men-qing-with-concealed-kong",
    ),
    pytest.param(
        "123s678s234m2m",
        "2m",
        {"melds": [{"kind": "pung", "tile": "5s"}], "rules": ON},
        set(),
        1,
        id="pung-breaks-men-qing",
    ),
    # no meld, no 1 or 9: 平胡 1 + 门清 + 中张 = 3.
    pytest.param("234m567m345p678p5p", "5p", {"rules": ON}, {"men_qing", "zhong_zhang"}, 3, id="zhong-zhang"),
]


@pytest.mark.parametrize(("concealed", "win_tile", "kwargs", "extras", "fan"), EXTRAS)
def test_extras_follow_their_options(
    concealed: str, win_tile: str, kwargs: dict[str, Any], extras: set[str], fan: int
) -> None:
    result = _score(concealed, win_tile, **kwargs)
    assert {extra["key"] for extra in result["extras"]} == extras
    assert result["fan"] == fan


# (concealed, win_tile, keyword arguments, fan, multiplier, points, capped)
CAPS = [
    # 清七对 5 fan x16, cap 8: points 8, fan and multiplier uncapped.
    pytest.param("9988775522116p", "6p", {"rules": {"cap_multiplier": 8}}, 5, 16, 8, True, id="cap-bites"),
    pytest.param("9988775522116p", "6p", {"rules": {"cap_multiplier": 16}}, 5, 16, 16, False, id="cap-exact"),
    # QQ: b = 6, 清一色 x4 = 24.
    pytest.param("11s333s222s456s99s", "9s", {"rules": {"preset": "qq"}}, 3, 4, 24, False, id="qq-base-6"),
    # casual cap 16: 青龙七对 + gen 1 = 7 fan x64 -> 16.
    pytest.param(
        "1111444455779m", "9m", {"rules": {"preset": "casual"}}, 7, 64, 16, True, id="casual-cap-16"
    ),
]


@pytest.mark.parametrize(("concealed", "win_tile", "kwargs", "fan", "multiplier", "points", "capped"), CAPS)
def test_cap_bites_points_only(
    concealed: str,
    win_tile: str,
    kwargs: dict[str, Any],
    fan: int,
    multiplier: int,
    points: int,
    capped: bool,
) -> None:
    result = _score(concealed, win_tile, **kwargs)
    assert (result["fan"], result["multiplier"], result["points"], result["capped"]) == (
        fan,
        multiplier,
        points,
        capped,
    )


NOT_WINS = [
    # three suits.
    pytest.param("234p456p77p345s78m", "9m", {}, id="three-suits"),
    # 定缺 on, void suit s held.
    pytest.param("234p456p77p345s78s", "9s", {"void_suit": "s"}, id="void-suit-held"),
]


@pytest.mark.parametrize(("concealed", "win_tile", "kwargs"), NOT_WINS)
def test_hands_that_do_not_win(concealed: str, win_tile: str, kwargs: dict[str, Any]) -> None:
    assert _score(concealed, win_tile, **kwargs)["win"] is False


# (concealed, keyword arguments, ready, {wait tile: fan}, best fan)
WAITS = [
    # 333p 45p 678p 11m 234m: 1m (111m 234m, 33p 345p 678p) 1 fan; 3p completes 345p beside 333p: gen -> 2;
    # 6p, 9p 1 fan.
    pytest.param(
        "333p45p678p11m234m", {}, True, {"1m": 1, "3p": 2, "6p": 1, "9p": 1}, 2, id="wait-tile-makes-gen"
    ),
    # 1111m 234m 789p 567p: 1m is the player's own 5th copy (dead); 4m: 111 123 44m + gen 1111m -> 2.
    pytest.param("1111234m789p567p", {}, True, {"4m": 2}, 2, id="dead-wait-dropped"),
    # 1111m 234p 789p 567p: the only wait (1m) is dead -> not ready.
    pytest.param("1111m234p789p567p", {}, False, {}, None, id="only-dead-wait-not-ready"),
    # live waits not required: the 5th 1m makes 111m + 11m, the quad counted once as a gen: 平胡 1 + 1 = 2.
    pytest.param(
        "1111m234p789p567p",
        {"rules": {"ting_requires_live_wait": False}},
        True,
        {"1m": 2},
        2,
        id="dead-wait-valued-when-allowed",
    ),
    # 345p 55p 678p + 234m 567m, 门清 + 中张 on: every wait (2p 5p 8p) is 平胡 + 2 = 3; no 自摸 counted.
    pytest.param(
        "234m567m345p678p5p", {"rules": ON}, True, {"2p": 3, "5p": 3, "8p": 3}, 3, id="static-extras-count"
    ),
    pytest.param("234m567m345p678p5p", {}, True, {"2p": 1, "5p": 1, "8p": 1}, 1, id="static-extras-off"),
    # 金钩钓 in casual: four melds incl. a 7p kong, single 8p: 对对胡 2 + gen 1 + 金钩钓 1 = 4.
    pytest.param(
        "8p",
        {
            "melds": [
                {"kind": "pung", "tile": "2m"},
                {"kind": "pung", "tile": "5m"},
                {"kind": "pung", "tile": "3p"},
                {"kind": "kong_direct", "tile": "7p"},
            ],
            "rules": {"preset": "casual"},
        },
        True,
        {"8p": 4},
        4,
        id="jin-gou-diao-wait",
    ),
    # 23m 456m 345p 678p 55p with 门清 + 中张: 1m (123m holds a 1: 平胡 + 门清 = 2); 4m (234m 456m)
    # and 7m (23m + 4567m = 234m 567m): 平胡 + 2 = 3.
    pytest.param(
        "23m456m345p678p55p", {"rules": ON}, True, {"1m": 2, "4m": 3, "7m": 3}, 3, id="zhong-zhang-per-wait"
    ),
    # a pung in the third suit makes a pig too (melds count).
    pytest.param(
        "123m456m789m1p",
        {"melds": [{"kind": "pung", "tile": "5s"}]},
        False,
        {},
        None,
        id="meld-in-third-suit-pig",
    ),
    # 定缺: holding the void suit is a pig.
    pytest.param("123m456p789p11p55p", {"void_suit": "m"}, False, {}, None, id="void-suit-held-pig"),
    # 1122334455667m: 1m 4m (清一色 3) and 7m (清七对 5).
    pytest.param("1122334455667m", {}, True, {"1m": 3, "4m": 3, "7m": 5}, 5, id="seven-pairs-wait"),
    # a 3-suit position is a flower pig, not ready.
    pytest.param("123m456p789s1234m", {}, False, {}, None, id="three-suits-not-ready"),
]


@pytest.mark.parametrize(("concealed", "kwargs", "ready", "waits", "best"), WAITS)
def test_readiness_and_best_possible_fan(
    concealed: str, kwargs: dict[str, Any], ready: bool, waits: dict[str, int], best: int | None
) -> None:
    result = find_waits(concealed=concealed, **kwargs).to_dict()
    assert result["ready"] is ready
    assert {wait["tile"]: wait["fan"] for wait in result["waits"]} == waits
    assert (result["best"] or {}).get("fan") == best


def test_cap_applies_to_the_best_possible_amount() -> None:
    # 清七对 wait x16 under cap 8: points 8.
    result = find_waits(concealed="1122334455667m", rules={"cap_multiplier": 8}).to_dict()
    assert (result["best"]["fan"], result["best"]["multiplier"], result["best"]["points"]) == (5, 16, 8)


def test_fourteen_tiles_take_the_best_discard() -> None:
    # 1122334455667m + 9p: throwing 9p leaves the seven-pairs wait (best 7m, 清七对 5); throwing a
    # man tile leaves a 9p pair wait worth 1, so 9p is the best discard and its waits are reported.
    result = find_waits(concealed="1122334455667m9p").to_dict()
    assert result["ready"] is True
    assert result["best"]["fan"] == 5
    assert {wait["tile"]: wait["fan"] for wait in result["waits"]} == {"1m": 3, "4m": 3, "7m": 5}
    assert {"9p", "7m"} <= {entry["discard"] for entry in result["discards"]}


def test_fourteen_tiles_with_three_suits_are_a_pig_yet_list_the_discards_that_leave_them_ready() -> None:
    # As he stands, a player holding tiles of three suits is a flower pig (RULES.md 5.1); as for any 14
    # (3.4), the discards that leave a ready 13 are listed: 9p or 1s leaves a seven-pairs wait on the other.
    result = find_waits(concealed="112233445566m9p1s").to_dict()
    assert (result["ready"], result["huazhu"]) == (True, True)
    listed = [(entry["discard"], [wait["tile"] for wait in entry["waits"]]) for entry in result["discards"]]
    assert listed == [("9p", ["1s"]), ("1s", ["9p"])]
