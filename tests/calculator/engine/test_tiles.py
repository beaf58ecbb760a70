"""Tile notation (RULES.md section 1): what players type is read; anything else is named."""

import pytest

from calculator.engine import EngineError, format_tiles, parse_tiles

HAND = (1, 2, 3, 3, 4, 5, 6, 6, 20, 21, 22, 24, 25, 26)  # 23445677m 345789s


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("23445677m345789s", id="compact"),
        pytest.param("23445677万345789条", id="chinese-suits"),
        pytest.param("23445677萬345789條", id="traditional-suits"),
        pytest.param("23445677M345789S", id="capitals"),
        pytest.param("２３４４５６７７ｍ３４５７８９ｓ", id="full-width"),
        pytest.param("２３４４５６７７Ｍ　３４５７８９索", id="full-width-capital-and-ideographic-space"),
        pytest.param(" 234 45677m 345 789 s ", id="spaces-anywhere"),
        pytest.param(
            ["2m", "3m", "4m", "4m", "5m", "6m", "7m", "7m", "3s", "4s", "5s", "7s", "8s", "9s"], id="list"
        ),
        pytest.param(
            ["2万", "3m", "4M", "4m", "５m", "6m", "7m", "7m", "3索", "4s", "5s", "7s", "8s", "9s"],
            id="mixed",
        ),
    ],
)
def test_every_way_players_write_a_hand_reads_the_same(text):
    assert parse_tiles(text) == HAND


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        pytest.param("23445677筒", (10, 11, 12, 12, 13, 14, 15, 15), id="tong"),
        pytest.param("1饼9餅", (9, 17), id="bing"),
        pytest.param("9s1m", (26, 0), id="input-order-is-kept"),
        pytest.param("", (), id="empty"),
    ],
)
def test_suits_and_order(text, tiles):
    assert parse_tiles(text) == tiles


@pytest.mark.parametrize(
    ("text", "english", "chinese"),
    [
        pytest.param("123m4x5p", "'x' at position 6 is not a tile", "第 6 个字符“x”不是牌", id="unknown"),
        pytest.param("123m45", "digits '45' have no suit", "数字“45”后面缺少花色", id="no-suit"),
        pytest.param("103m", "0 is not a rank (at position 2)", "0 不是点数", id="zero"),
        pytest.param("１０３ｍ", "0 is not a rank (at position 2)", "0 不是点数", id="full-width-zero"),
        pytest.param("p123m", "'p' at position 1 has no digits", "前面没有点数", id="suit-first"),
        pytest.param(
            "12 3z", "'z' at position 5 is not a tile", "第 5 个字符“z”", id="position-counts-spaces"
        ),
        pytest.param("1m中", "'中' at position 3 is not a tile", "“中”不是牌", id="honour-tile"),
    ],
)
def test_a_bad_string_names_its_bad_part_in_both_languages(text, english, chinese):
    with pytest.raises(EngineError) as caught:
        parse_tiles(text, field="win_tile")
    assert caught.value.field == "win_tile"
    assert english in caught.value.message
    assert chinese in caught.value.message_zh


@pytest.mark.parametrize(
    "value", [pytest.param(5, id="int"), pytest.param(None, id="none"), pytest.param(b"1m", id="bytes")]
)
def test_a_value_that_is_not_tiles_names_the_field(value):
    with pytest.raises(EngineError) as caught:
        parse_tiles(value, field="melds[2].tile")
    assert caught.value.field == "melds[2].tile"


@pytest.mark.parametrize(
    ("tiles", "text"),
    [
        pytest.param((0, 1, 2, 9), "123m1p", id="groups-by-suit"),
        pytest.param((26, 0), "9s1m", id="keeps-order"),
        pytest.param((13, 13, 13, 13), "5555p", id="a-quad"),
        pytest.param((), "", id="empty"),
    ],
)
def test_format_tiles(tiles, text):
    assert format_tiles(tiles) == text
    assert parse_tiles(text) == tiles
