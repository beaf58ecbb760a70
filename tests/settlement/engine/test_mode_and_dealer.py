"""When a round ends (血战到底 or normal mode) and who deals next (RULES.md 5, 7, 9)."""

from __future__ import annotations

import pytest

from settlement.engine import EngineError

from .rounds import by_fan, draw, escape, settle, status, win

A, B, C, D = 0, 1, 2, 3
ALL_NOT_READY = draw(*(status(seat, "not_ready") for seat in (A, B, C, D)))


def test_blood_battle_plays_on_until_the_third_win():
    two = settle(win(A, by_fan(B, 1)), win(None, by_fan(C, 1)))
    assert (two.finished, two.next_dealer) == (False, None)
    three = settle(win(A, by_fan(B, 1)), win(None, by_fan(C, 1)), win(A, by_fan(D, 1)))
    assert (three.finished, three.winners, three.next_dealer) == (True, (B, C, D), B)


def test_a_second_winner_of_one_discard_can_be_the_third_winner():
    result = settle(win(A, by_fan(B, 1)), win(A, by_fan(C, 1), by_fan(D, 1)))
    assert (result.finished, result.winners) == (True, (B, C, D))


def test_normal_mode_ends_at_the_first_win():
    result = settle(win(A, by_fan(B, 1)), mode="normal")
    assert (result.finished, result.next_dealer) == (True, B)
    with pytest.raises(EngineError) as caught:
        settle(win(A, by_fan(B, 1)), win(None, by_fan(C, 1)), mode="normal")
    assert (caught.value.field, caught.value.event) == ("events[1]", 1)


def test_normal_mode_ends_at_the_first_multiple_win():
    result = settle(win(A, by_fan(B, 1), by_fan(C, 1)), mode="normal")
    assert (result.finished, result.winners) == (True, (B, C))


@pytest.mark.parametrize(
    ("rule", "events", "dealer", "expected"),
    [
        pytest.param(
            "first_winner",
            [win(A, by_fan(D, 1), by_fan(C, 1)), ALL_NOT_READY],
            A,
            C,
            id="first-winner-after-discarder",
        ),
        pytest.param(
            "first_winner", [win(None, by_fan(D, 1)), ALL_NOT_READY], A, D, id="first-winner-self-draw"
        ),
        pytest.param("first_winner", [ALL_NOT_READY], C, C, id="first-winner-nobody-won-dealer-stays"),
        pytest.param("discarder", [win(A, by_fan(B, 1)), ALL_NOT_READY], A, A, id="discarder-dealt-in"),
        pytest.param(
            "discarder", [win(None, by_fan(C, 1)), ALL_NOT_READY], A, C, id="discarder-self-draw-winner"
        ),
        pytest.param(
            "discarder",
            [win(B, by_fan(D, 1), robbing_kong=True), ALL_NOT_READY],
            A,
            B,
            id="discarder-robbed-player",
        ),
        pytest.param("discarder", [ALL_NOT_READY], B, B, id="discarder-nobody-won-dealer-stays"),
        pytest.param(
            "first_winner_multi_discarder",
            [win(A, by_fan(C, 1), by_fan(B, 1)), ALL_NOT_READY],
            D,
            A,
            id="multi-discarder-after-a-multiple-win",
        ),
        pytest.param(
            "first_winner_multi_discarder",
            [win(A, by_fan(C, 1)), ALL_NOT_READY],
            D,
            C,
            id="multi-discarder-single-win-first-winner",
        ),
        pytest.param("dice", [win(A, by_fan(C, 1)), ALL_NOT_READY], A, None, id="dice-none-suggested"),
        pytest.param("first_winner", [escape(B)], D, D, id="escape-nobody-won-dealer-stays"),
    ],
)
def test_next_dealer(rule, events, dealer, expected):
    result = settle(*_drop_winners_from_draw(events), dealer=dealer, dealer_rule=rule)
    assert result.finished
    assert result.next_dealer == expected


def _drop_winners_from_draw(events):
    """The shared all-not-ready draw lists only players who have not won by then."""
    won = {winner["player"] for event in events if event["type"] == "win" for winner in event["winners"]}
    return [
        draw(*(entry for entry in event["players"] if entry["player"] not in won))
        if event["type"] == "draw"
        else event
        for event in events
    ]


def test_an_unfinished_round_settles_what_happened_so_far():
    result = settle(win(A, by_fan(B, 2)))
    assert (list(result.net), result.finished, result.next_dealer) == ([-2, 2, 0, 0], False, None)
    assert result.to_dict()["state"]["active"] == [A, C, D]


def test_an_empty_round_is_unfinished_and_pays_nothing():
    result = settle()
    assert (list(result.net), result.finished, result.next_dealer, result.transfers) == (
        [0] * 4,
        False,
        None,
        (),
    )
