"""Gen (RULES.md 3.2): kinds whose four copies are all in the final hand, and its two options."""

import pytest

from calculator.engine import score_hand

PUNG_3P = ({"kind": "pung", "tile": "3p"},)
DIRECT_KONG_5P = ({"kind": "kong_direct", "tile": "5p"}, {"kind": "pung", "tile": "7p"})

CASES = [
    pytest.param("111m333m9m", "9m", DIRECT_KONG_5P, {}, 1, id="a-declared-kong"),
    pytest.param("111m333m9m", "9m", DIRECT_KONG_5P, {"gen_counts_kongs": False}, 0, id="kongs-off"),
    pytest.param("345p678p456m1m", "1m", PUNG_3P, {}, 1, id="a-pung-plus-the-fourth-held-in-a-run"),
    pytest.param(
        "345p678p456m1m", "1m", PUNG_3P, {"gen_counts_pung_plus_held": False}, 0, id="pung-plus-off"
    ),
    pytest.param("345p678p456m1m", "1m", PUNG_3P, {"gen_counts_kongs": False}, 1, id="kongs-off-keeps-pungs"),
    pytest.param("111123m456p789p5p", "5p", (), {}, 1, id="a-concealed-quad-split-into-pung-and-run"),
    pytest.param("111m23m456p789p55p", "1m", (), {}, 1, id="the-fourth-copy-is-the-winning-tile"),
    pytest.param("111123m456p789p5p", "5p", (), {"gen_counts_kongs": False}, 1, id="undeclared-quads-always"),
    pytest.param("234p456p7p345s789s", "7p", (), {}, 0, id="no-quad-no-gen"),
]


@pytest.mark.parametrize(("concealed", "win_tile", "melds", "rules", "gen"), CASES)
def test_gen_counts_kinds_held_four_times(concealed, win_tile, melds, rules, gen):
    result = score_hand(concealed, win_tile, melds=melds, rules=rules)
    assert result.gen == gen
    assert result.fan == result.pattern.fan + gen


@pytest.mark.parametrize(
    ("concealed", "win_tile", "pattern", "gen", "fan"),
    [
        pytest.param("11222244p55779m", "9m", "long_qi_dui", 0, 5, id="long-qi-dui-one-quad-inside"),
        pytest.param("1111m2222m3344p5p", "5p", "long_qi_dui", 1, 6, id="long-qi-dui-second-quad-is-a-gen"),
        pytest.param("1122444455779m", "9m", "qing_long_qi_dui", 0, 6, id="qing-long-qi-dui-one-quad-inside"),
    ],
)
def test_long_qi_dui_counts_one_gen_fewer(concealed, win_tile, pattern, gen, fan):
    result = score_hand(concealed, win_tile)
    assert (result.pattern.key, result.gen, result.fan) == (pattern, gen, fan)


def test_tian_hu_replacing_long_qi_dui_still_counts_one_gen_fewer():
    result = score_hand(
        "1111m2222m3344p5p", "5p", win_by="self_draw", tian_hu=True, rules={"zimo_bonus": "none"}
    )
    assert (result.pattern.key, result.pattern.fan, result.gen, result.fan) == ("tian_hu", 6, 1, 7)
