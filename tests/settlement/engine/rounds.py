"""Small builders for settlement tests: events in the JSON shapes of API.md, and a one-call settle."""

from __future__ import annotations

from typing import Any

from settlement.engine import RoundResult, settle_round


def settle(
    *events: dict[str, Any], dealer: int = 0, void_suits: Any = None, coins: Any = None, **options: Any
) -> RoundResult:
    """Settle under the chengdu preset with ``options`` overridden."""
    return settle_round(
        dealer=dealer,
        events=list(events),
        rules={"preset": "chengdu", **options},
        void_suits=void_suits,
        coins=coins,
    )


def net(*events: dict[str, Any], **kwargs: Any) -> list[int]:
    return list(settle(*events, **kwargs).net)


def kong(player: int, kind: str, tile: str | None = None, feeder: int | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "kong", "player": player, "kind": kind}
    if tile is not None:
        event["tile"] = tile
    if feeder is not None:
        event["from"] = feeder
    return event


def win(discarder: int | None, *winners: dict[str, Any], **flags: Any) -> dict[str, Any]:
    return {"type": "win", "from": discarder, "winners": list(winners), **flags}


def by_fan(player: int, fan: int, **flags: Any) -> dict[str, Any]:
    return {"player": player, "fan": fan, **flags}


def by_hand(
    player: int, concealed: str, win_tile: str, melds: list[dict[str, str]] | None = None, **flags: Any
) -> dict[str, Any]:
    return {
        "player": player,
        "hand": {"concealed": concealed, "win_tile": win_tile, "melds": melds or []},
        **flags,
    }


def draw(*players: dict[str, Any]) -> dict[str, Any]:
    return {"type": "draw", "players": list(players)}


def status(player: int, value: str, fan: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"player": player, "status": value}
    if fan is not None:
        entry["fan"] = fan
    return entry


def position(player: int, concealed: str, melds: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {"player": player, "hand": {"concealed": concealed, "melds": melds or []}}


def escape(
    player: int, tiles_left: int | None = 20, players: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "escape", "player": player}
    if tiles_left is not None:
        event["tiles_left"] = tiles_left
    if players is not None:
        event["players"] = players
    return event


def reasons(result: RoundResult) -> list[tuple[int, int | str, int, str]]:
    """(from, to, points, reason) of every transfer, for compact assertions."""
    return [(t["from"], t["to"], t["points"], t["reason"]) for t in result.to_dict()["transfers"]]


def adjust(payer: int, to: int | str, amount: int, reason: str = "罚分") -> dict[str, Any]:
    return {"type": "adjust", "from": payer, "to": to, "amount": amount, "reason": reason}
