"""A robbed second 弯杠 (issue 17 point 5): the robbing win names the robbed tile, so a player's earlier
弯杠 entered just before it stands, while the same kong entered twice is still refused."""

from __future__ import annotations

import pytest

from calculator.engine import MESSAGES, EngineError

from .rounds import by_fan, by_hand, kong, settle, win

A, B, C, D = 0, 1, 2, 3


def robbing(tile: str | None, *winners, **flags):
    event = win(B, *winners, robbing_kong=True, **flags)
    return event if tile is None else {**event, "robbed_tile": tile}


def test_a_robbed_second_added_kong_keeps_the_first_kongs_money():
    result = settle(kong(B, "added", "5p"), robbing("8m", by_fan(C, 2)))
    # 弯杠 5p: A, C, D pay 1; C robs B's next 弯杠 (8m) with 平胡 + 抢杠 = 2 fan: B pays 2
    assert list(result.net) == [-1, 1, 1, -1]


def test_the_robbed_tile_can_come_from_the_winners_hand():
    result = settle(kong(B, "added", "5p"), robbing(None, by_hand(C, "234m567m789m111p8m", "8m")))
    assert list(result.net) == [-1, 1, 1, -1]


@pytest.mark.parametrize(
    ("kong_tile", "robbed"),
    [
        pytest.param("8m", "8m", id="the-same-tile-is-the-same-kong"),
        pytest.param(None, "8m", id="the-kong-has-no-tile"),
        pytest.param("8m", None, id="the-win-names-no-tile"),
    ],
)
def test_a_kong_that_may_be_the_robbed_one_is_refused_saying_how_to_record_either_case(kong_tile, robbed):
    with pytest.raises(EngineError) as refused:
        settle(kong(B, "added", kong_tile), robbing(robbed, by_fan(C, 2)))
    assert refused.value.code == "robbed_kong_recorded"
    assert refused.value.field == "events[1].robbing_kong"
    words = MESSAGES["robbed_kong_recorded"].en
    assert "undo that kong" in words and "robbed_tile" in words


def test_robbed_tile_needs_a_robbing_win():
    with pytest.raises(EngineError) as refused:
        settle({**win(B, by_fan(C, 2)), "robbed_tile": "8m"})
    assert (refused.value.code, refused.value.field) == (
        "robbed_tile_without_robbing",
        "events[0].robbed_tile",
    )


def test_robbed_tile_must_be_the_tile_won_on():
    with pytest.raises(EngineError) as refused:
        settle(robbing("5p", by_hand(C, "234m567m789m111p8m", "8m")))
    assert (refused.value.code, refused.value.field) == ("robbed_tile_not_won", "events[0].robbed_tile")


def test_robbed_tile_is_a_tile():
    with pytest.raises(EngineError) as refused:
        settle(robbing("8x", by_fan(C, 2)))
    assert refused.value.field == "events[0].robbed_tile"
