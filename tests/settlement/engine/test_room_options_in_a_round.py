"""起胡 and 查小叫 in a round (RULES.md 3.6, 3.4): a win below the minimum is refused naming the winner, the
fan and the minimum; a ready status below it is an error; 查叫 pays the value the option picks."""

from __future__ import annotations

import pytest

from calculator.engine import EngineError

from .rounds import by_fan, by_hand, draw, position, settle, status, win

A, B, C, D = 0, 1, 2, 3


@pytest.mark.parametrize(
    "winner",
    [
        pytest.param(by_fan(B, 1), id="entered-by-fan"),
        pytest.param(by_hand(B, "234p456p7p345s789s", "7p"), id="given-as-tiles"),
    ],
)
def test_a_win_below_the_minimum_is_refused_naming_the_winner_fan_and_minimum(winner):
    with pytest.raises(EngineError) as refused:
        settle(win(A, winner), min_fan_to_win=2)
    assert refused.value.code == "win_below_min_fan"
    assert refused.value.params["player"] == B
    assert (refused.value.params["fan"], refused.value.params["minimum"]) == (1, 2)
    assert refused.value.field.startswith("events[0].winners[0]")


def test_a_win_at_the_minimum_is_paid():
    assert list(settle(win(A, by_fan(B, 2)), min_fan_to_win=2).net) == [-2, 2, 0, 0]


def test_a_ready_status_below_the_minimum_is_an_error():
    with pytest.raises(EngineError) as refused:
        settle(draw(status(A, "ready", 1), *[status(s, "not_ready") for s in (B, C, D)]), min_fan_to_win=2)
    assert (refused.value.code, refused.value.field) == ("ready_below_min_fan", "events[0].players[0].fan")


def test_a_position_waiting_only_below_the_minimum_is_not_ready_and_pays():
    players = [
        position(A, "234p456p7p345s789s"),
        status(B, "ready", 2),
        status(C, "not_ready"),
        status(D, "not_ready"),
    ]
    plain = settle(draw(*players))
    assert plain.events[0].players[0].ready  # 平胡 wait: ready under the default
    strict = settle(draw(*players), min_fan_to_win=2)
    assert not strict.events[0].players[0].ready
    # A, C and D not ready each pay B 2
    assert list(strict.net) == [-2, 6, -2, -2]


@pytest.mark.parametrize(
    ("value", "paid"), [pytest.param("max", 2, id="cha-da-jiao"), pytest.param("min", 1, id="cha-xiao-jiao")]
)
def test_chajiao_pays_the_value_the_option_picks(value, paid):
    players = [
        position(A, "111222m333p4455p"),
        status(B, "not_ready"),
        status(C, "not_ready"),
        status(D, "not_ready"),
    ]
    result = settle(draw(*players), chajiao_value=value)
    assert list(result.net) == [3 * paid, -paid, -paid, -paid]
