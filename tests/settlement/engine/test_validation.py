"""Impossible or malformed rounds are rejected before anything is paid, naming the field and the event."""

from __future__ import annotations

import re
from typing import Any

import pytest

from settlement.engine import EngineError, settle_round

from .rounds import by_fan, by_hand, draw, escape, kong, position, status, win

A, B, C, D = 0, 1, 2, 3
NOT_READY = "not_ready"
HU = by_hand(C, "234m567m789m11p55p", "5p")  # 平胡 on 5p


def _round(*events: Any, **body: Any) -> dict[str, Any]:
    return {"dealer": A, "events": list(events), **body}


CASES = [
    # the envelope
    pytest.param({"dealer": 4, "events": []}, "dealer", None, id="dealer-out-of-range"),
    pytest.param({"dealer": "0", "events": []}, "dealer", None, id="dealer-not-a-number"),
    pytest.param({"dealer": 0, "events": {"type": "kong"}}, "events", None, id="events-not-a-list"),
    pytest.param(_round(void_suits=["m", "p", "s"]), "void_suits", None, id="void-suits-wrong-length"),
    pytest.param(_round(void_suits=["m", "x", "s", None]), "void_suits[1]", None, id="void-suit-unknown"),
    pytest.param(_round(void_suits="mpsm"), "void_suits", None, id="void-suits-not-a-list"),
    pytest.param(_round(coins=[1, 2, 3, 4]), "coins", None, id="coins-not-an-object"),
    pytest.param(
        _round(coins={"balances": [1, 2, 3], "room_coefficient": 1}),
        "coins.balances",
        None,
        id="coins-wrong-length",
    ),
    pytest.param(
        _round(coins={"balances": [1, 2, -3, 4], "room_coefficient": 1}),
        "coins.balances[2]",
        None,
        id="coins-negative-balance",
    ),
    pytest.param(
        _round(coins={"balances": [1.5, 2, 3, 4], "room_coefficient": 1}),
        "coins.balances[0]",
        None,
        id="coins-non-integer-balance",
    ),
    pytest.param(
        _round(coins={"balances": [1, 2, 3, 4], "room_coefficient": 0}),
        "coins.room_coefficient",
        None,
        id="coins-room-coefficient-zero",
    ),
    pytest.param(
        _round(coins={"balances": [1, 2, 3, 4]}),
        "coins.room_coefficient",
        None,
        id="coins-room-coefficient-missing",
    ),
    pytest.param(_round(rules={"mode": "fast"}), "rules.mode", None, id="rules-unknown-value"),
    # an event by itself
    pytest.param(_round("kong"), "events[0]", 0, id="event-not-an-object"),
    pytest.param(_round({"type": "pung", "player": 1}), "events[0].type", 0, id="unknown-event-type"),
    pytest.param(_round({"player": 1}), "events[0].type", 0, id="event-type-missing"),
    pytest.param(_round({"type": "kong", "kind": "concealed"}), "events[0].player", 0, id="missing-player"),
    pytest.param(_round(kong(4, "concealed")), "events[0].player", 0, id="seat-out-of-range"),
    pytest.param(
        _round({"type": "kong", "player": True, "kind": "added"}), "events[0].player", 0, id="seat-a-boolean"
    ),
    pytest.param(_round(kong(B, "hidden")), "events[0].kind", 0, id="unknown-kong-kind"),
    pytest.param(_round(kong(B, "direct", "5p")), "events[0].from", 0, id="direct-kong-without-feeder"),
    pytest.param(
        _round(kong(B, "direct", "5p", feeder=B)), "events[0].from", 0, id="direct-kong-fed-by-himself"
    ),
    pytest.param(
        _round(kong(B, "concealed", "5p", feeder=A)), "events[0].from", 0, id="concealed-kong-with-a-feeder"
    ),
    pytest.param(_round(kong(B, "concealed", "5x")), "events[0].tile", 0, id="kong-tile-unreadable"),
    pytest.param(_round(kong(B, "concealed", "55p")), "events[0].tile", 0, id="kong-tile-two-tiles"),
    pytest.param(_round({"type": "win", "from": A}), "events[0].winners", 0, id="win-without-winners"),
    pytest.param(_round(win(A)), "events[0].winners", 0, id="win-with-empty-winners"),
    pytest.param(
        _round(win(None, by_fan(B, 1), by_fan(C, 1))),
        "events[0].winners",
        0,
        id="several-winners-on-a-self-draw",
    ),
    pytest.param(_round(win(A, by_fan(A, 1))), "events[0].winners[0].player", 0, id="win-on-own-discard"),
    pytest.param(
        _round(win(A, by_fan(B, 1), by_fan(B, 2))), "events[0].winners[1].player", 0, id="same-winner-twice"
    ),
    pytest.param(
        _round(win(A, {"player": B, "fan": 2, "hand": HU["hand"]})),
        "events[0].winners[0]",
        0,
        id="both-hand-and-fan",
    ),
    pytest.param(_round(win(A, {"player": B})), "events[0].winners[0]", 0, id="neither-hand-nor-fan"),
    pytest.param(_round(win(A, by_fan(B, 0))), "events[0].winners[0].fan", 0, id="fan-zero"),
    pytest.param(_round(win(A, by_fan(B, "3"))), "events[0].winners[0].fan", 0, id="fan-a-string"),
    pytest.param(
        _round(win(A, by_fan(B, 2), after_kong="yes")), "events[0].after_kong", 0, id="flag-not-boolean"
    ),
    pytest.param(
        _round(win(None, by_fan(B, 2), robbing_kong=True)),
        "events[0].from",
        0,
        id="robbing-without-the-robbed-player",
    ),
    pytest.param(
        _round(win(A, by_fan(B, 2), robbing_kong=True, kong_kind="concealed")),
        "events[0].kong_kind",
        0,
        id="robbing-a-kong-that-is-not-added",
    ),
    pytest.param(
        _round(kong(A, "added"), win(A, by_fan(B, 2), robbing_kong=True, after_kong=True)),
        "events[1].after_kong",
        1,
        id="robbing-with-after-kong",
    ),
    pytest.param(
        _round(win(A, by_hand(B, "234m567m789m11p55p", "5p"), by_hand(C, "234s567s789s11p66p", "6p"))),
        "events[0].winners",
        0,
        id="winners-of-one-discard-on-different-tiles",
    ),
    pytest.param(
        _round(win(None, by_fan(B, 6, tian_hu=True, di_hu=True))),
        "events[0].winners[0]",
        0,
        id="tian-hu-and-di-hu-together",
    ),
    pytest.param(
        _round(win(None, by_hand(B, "11s222s333s456s99s", "9s", tian_hu=True))),
        "events[0].winners[0].tian_hu",
        0,
        id="tian-hu-by-a-non-dealer",
    ),
    pytest.param(
        _round(kong(C, "concealed", "2m"), win(A, by_fan(B, 6, di_hu=True))),
        "events[1].winners[0].di_hu",
        1,
        id="di-hu-after-a-kong",
    ),
    pytest.param(
        _round(win(A, {"player": B, "hand": {"concealed": "234m567m789m11p55p"}})),
        "events[0].winners[0].hand.win_tile",
        0,
        id="winning-hand-without-win-tile",
    ),
    pytest.param(
        _round(win(A, by_hand(B, "234m567m789m11p5p", "5p", [{"kind": "triple", "tile": "5s"}]))),
        "events[0].winners[0].hand.melds[0].kind",
        0,
        id="meld-of-unknown-kind",
    ),
    pytest.param(
        _round(win(A, by_hand(B, "234m567m789m11p5x", "5p"))),
        "events[0].winners[0].hand.concealed",
        0,
        id="winning-hand-unreadable",
    ),
    pytest.param(
        _round(win(A, by_hand(B, "234m567m789m11p5p", "5p", [{"kind": ["pung"], "tile": "5s"}]))),
        "events[0].winners[0].hand.melds[0].kind",
        0,
        id="meld-kind-not-a-string",
    ),
    # the sequence
    pytest.param(
        _round(win(None, by_fan(B, 1)), kong(B, "concealed")),
        "events[1].player",
        1,
        id="a-winner-acting-again",
    ),
    pytest.param(
        _round(win(None, by_fan(B, 1)), escape(B), kong(B, "added")),
        "events[2].player",
        2,
        id="an-escaped-player-acting",
    ),
    pytest.param(
        _round(win(None, by_fan(B, 1)), kong(C, "direct", "7m", feeder=B)),
        "events[1].from",
        1,
        id="a-feeder-who-already-won",
    ),
    pytest.param(
        _round(win(None, by_fan(B, 1)), win(A, by_fan(B, 2))),
        "events[1].winners[0].player",
        1,
        id="a-winner-winning-again",
    ),
    pytest.param(
        _round(win(None, by_fan(B, 1)), win(B, by_fan(C, 2))),
        "events[1].from",
        1,
        id="a-discarder-who-already-won",
    ),
    pytest.param(
        _round(win(A, by_fan(B, 1)), win(A, by_fan(C, 1)), win(None, by_fan(D, 1)), win(None, by_fan(A, 1))),
        "events[3]",
        3,
        id="a-fourth-winner",
    ),
    pytest.param(
        _round(draw(*(status(seat, NOT_READY) for seat in (A, B, C, D))), kong(A, "concealed")),
        "events[1]",
        1,
        id="an-event-after-the-round-ended",
    ),
    pytest.param(
        _round(win(A, by_fan(B, 2), after_kong=True)),
        "events[0].after_kong",
        0,
        id="after-kong-without-a-kong",
    ),
    pytest.param(
        _round(kong(C, "concealed"), win(A, by_fan(B, 2), after_kong=True)),
        "events[1].after_kong",
        1,
        id="after-kong-after-someone-elses-kong",
    ),
    pytest.param(
        _round(win(None, by_fan(B, 2), last_tile=True), kong(C, "concealed")),
        "events[1].type",
        1,
        id="a-kong-after-a-last-tile-win",
    ),
    pytest.param(
        _round(win(A, by_hand(B, "234m567m789m11p56p", "9p"))),
        "events[0].winners[0].hand",
        0,
        id="a-hand-that-does-not-win",
    ),
    pytest.param(
        _round(win(A, by_hand(B, "234m567m789m11p55p", "5p")), void_suits=[None, "p", None, None]),
        "events[0].winners[0].hand",
        0,
        id="a-winning-hand-holding-the-void-suit",
    ),
    pytest.param(
        _round(win(A, by_hand(B, "234m567m789m11p5p", "5p"))),
        "events[0].winners[0].hand.concealed",
        0,
        id="a-winning-hand-with-too-few-tiles",
    ),
    pytest.param(
        _round(kong(B, "concealed", "5p"), void_suits=[None, "p", None, None]),
        "events[0].tile",
        0,
        id="a-kong-of-the-void-suit",
    ),
    pytest.param(
        _round(kong(B, "concealed", "5p"), kong(C, "added", "5p")),
        "events[1]",
        1,
        id="eight-copies-in-two-kongs",
    ),
    pytest.param(
        _round(kong(C, "concealed", "5p"), win(A, by_hand(B, "234m567m789m11p55p", "5p"))),
        "events[1]",
        1,
        id="a-fifth-copy-across-a-kong-and-a-hand",
    ),
    pytest.param(
        _round(*[kong(seat % 4, "concealed") for seat in range(28)]),
        "events[16]",
        16,
        id="more-kongs-than-four-hands-hold",
    ),
    # draws and escapes
    pytest.param(
        _round(win(None, by_fan(B, 1)), draw(*(status(seat, NOT_READY) for seat in (A, B, C, D)))),
        "events[1].players[1].player",
        1,
        id="a-draw-listing-a-winner",
    ),
    pytest.param(
        _round(draw(status(A, NOT_READY), status(B, NOT_READY), status(C, NOT_READY))),
        "events[0].players",
        0,
        id="a-draw-missing-an-active-player",
    ),
    pytest.param(
        _round(draw(status(A, NOT_READY), status(A, NOT_READY), status(C, NOT_READY))),
        "events[0].players[1].player",
        0,
        id="a-draw-listing-a-player-twice",
    ),
    pytest.param(_round(draw(status(A, "tenpai"))), "events[0].players[0].status", 0, id="an-unknown-status"),
    pytest.param(_round(draw(status(A, "ready"))), "events[0].players[0].fan", 0, id="ready-without-a-fan"),
    pytest.param(
        _round(draw(status(A, NOT_READY, 2))), "events[0].players[0].fan", 0, id="a-fan-when-not-ready"
    ),
    pytest.param(
        _round(draw({"player": A, "hand": {"concealed": "123m456m789m1122p", "win_tile": "3p"}})),
        "events[0].players[0].hand.win_tile",
        0,
        id="a-draw-hand-with-a-winning-tile",
    ),
    pytest.param(
        _round(
            draw(
                position(A, "123m456m789m112p"),
                status(B, NOT_READY),
                status(C, NOT_READY),
                status(D, NOT_READY),
            )
        ),
        "events[0].players[0].hand.concealed",
        0,
        id="a-draw-hand-with-too-few-tiles",
    ),
    pytest.param(
        _round(win(None, by_fan(B, 1)), escape(B), escape(B)), "events[2].player", 2, id="escaping-twice"
    ),
    pytest.param(_round(escape(B, None)), "events[0].tiles_left", 0, id="escape-without-tiles-left"),
    pytest.param(_round(escape(B, -1)), "events[0].tiles_left", 0, id="escape-with-negative-tiles-left"),
    pytest.param(_round(escape(B, 3)), "events[0].players", 0, id="escape-near-the-end-without-readiness"),
    pytest.param(
        _round(escape(B, 3, [status(A, NOT_READY), status(C, NOT_READY)])),
        "events[0].players",
        0,
        id="escape-near-the-end-missing-a-player",
    ),
    pytest.param(
        _round(escape(B, 3, [status(B, NOT_READY)])), "events[0].players", 0, id="escape-listing-the-escaper"
    ),
    # unknown keys at every level are named, not dropped (a misspelt flag would change the money)
    pytest.param(
        _round(win(A, by_fan(B, 2), robing_kong=True)), "events[0].robing_kong", 0, id="misspelt-win-flag"
    ),
    pytest.param(_round({**kong(B, "concealed"), "junk": 1}), "events[0].junk", 0, id="unknown-kong-key"),
    pytest.param(_round({**draw(), "junk": 1}), "events[0].junk", 0, id="unknown-draw-key"),
    pytest.param(_round({**escape(B), "junk": 1}), "events[0].junk", 0, id="unknown-escape-key"),
    pytest.param(
        _round(win(None, by_fan(B, 4, zzz=1))), "events[0].winners[0].zzz", 0, id="unknown-winner-key"
    ),
    pytest.param(
        _round(win(A, {**HU, "hand": {**HU["hand"], "wintile": "5p"}})),
        "events[0].winners[0].hand.wintile",
        0,
        id="unknown-hand-key",
    ),
    pytest.param(
        _round(draw({**status(A, NOT_READY), "fann": 2})), "events[0].players[0].fann", 0, id="unknown-report"
    ),
    pytest.param(
        _round(draw(position(A, "123m456m789m1p", [{"kind": "pung", "tile": "5p", "open": True}]))),
        "events[0].players[0].hand.melds[0].open",
        0,
        id="unknown-meld-key",
    ),
    # a fifth kong by one player: a hand holds at most four
    pytest.param(
        _round(*[kong(A, "concealed", tile) for tile in ("1m", "2m", "3m", "4m", "5m")]),
        "events[4]",
        4,
        id="fifth-kong-by-one-player",
    ),
    pytest.param(
        _round(*[kong(A, "concealed") for _ in range(9)]), "events[4]", 4, id="fifth-kong-without-tiles"
    ),
    # RULES.md 4.5: a robbed kong is void and is not itself a kong event
    pytest.param(
        _round(kong(B, "added", "5m"), win(B, by_fan(C, 1), robbing_kong=True)),
        "events[1].robbing_kong",
        1,
        id="robbed-kong-recorded-as-a-kong",
    ),
    pytest.param(
        _round(kong(B, "added"), win(B, by_hand(C, "234m567m789m11p5m", "5m"), robbing_kong=True)),
        "events[1].robbing_kong",
        1,
        id="robbed-kong-recorded-as-a-kong-without-its-tile",
    ),
]


@pytest.mark.parametrize(("body", "field", "event"), CASES)
def test_an_impossible_round_is_rejected_with_the_field_and_event_named(body, field, event):
    with pytest.raises(EngineError) as caught:
        settle_round(**body)
    assert (caught.value.field, caught.value.event) == (field, event)
    assert re.search(r"[\u4e00-\u9fff]", caught.value.message_zh), "the message has a Chinese version"
    assert not re.search(r"\b(or|and|with|got|must|the|of|is|not)\b", caught.value.message_zh)
    assert caught.value.to_dict()["field"] == field


def test_there_are_at_least_25_kinds_of_rejection():
    assert len(CASES) >= 25


def test_a_kong_and_the_same_kong_in_his_later_hand_are_the_same_four_tiles():
    hand = by_hand(B, "123p456p789p5p", "5p", [{"kind": "kong_concealed", "tile": "7m"}])
    result = settle_round(dealer=A, events=[kong(B, "concealed", "7m"), win(None, hand, after_kong=True)])
    assert result.winners == (B,)


def test_a_discard_won_by_several_players_is_one_tile():
    # 5p: two held by B, one by C, and the one discard both win on: 3 + 2 mentions in the hands, four tiles
    events = [win(A, by_hand(B, "123m456m789m3455p", "5p"), by_hand(C, "123s456s789s111s5p", "5p"))]
    assert settle_round(dealer=A, events=events).winners == (B, C)


def test_an_escaped_winner_may_leave_during_a_blood_battle():
    result = settle_round(dealer=A, events=[win(None, by_fan(B, 1)), escape(B, None)])
    assert result.to_dict()["state"]["escaped"] == [B]


def test_a_robbed_kong_recorded_as_a_kong_says_to_undo_it():
    with pytest.raises(EngineError) as caught:
        settle_round(dealer=A, events=[kong(B, "added", "5m"), win(B, by_fan(C, 1), robbing_kong=True)])
    assert "undo" in caught.value.message and "弯杠" in caught.value.message_zh


def test_a_second_added_kong_robbed_after_a_first_of_another_tile_is_settled():
    """B adds a kong of 7m, draws, adds 5m and is robbed: the 7m kong stands and is paid."""
    hand = by_hand(C, "123m46m111p55p", "5m", [{"kind": "pung", "tile": "9p"}])
    events = [kong(B, "added", "7m"), win(B, hand, robbing_kong=True)]
    assert settle_round(dealer=A, events=events).winners == (C,)


def test_four_kongs_by_one_player_are_settled():
    events = [kong(A, "concealed", tile) for tile in ("1m", "2m", "3m", "4m")]
    assert settle_round(dealer=A, events=events).net[A] > 0


def test_nothing_is_paid_when_a_later_event_is_bad():
    with pytest.raises(EngineError):
        settle_round(dealer=A, events=[kong(B, "concealed"), win(A, by_fan(B, 1)), {"type": "nap"}])
