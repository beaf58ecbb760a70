"""Reading a settle request: the JSON shapes of API.md into typed, frozen events.

This checks only what a single event can show by itself (fields present, types, seats, kinds, tiles
readable). Whether the sequence is possible (a winner acting again, a fourth winner, a kong just before an
``after_kong`` win) is decided while replaying, and the tile census of the whole round in ``census.py``;
both happen before ``settle_round`` returns anything, so a bad request never pays half a round.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from calculator.engine import MAX_FAN, MELD_SIZES, TILE_INDEX, EngineError, parse_tiles
from calculator.engine.fields import (
    as_list,
    as_object,
    at,
    boolean,
    check_keys,
    fail,
    is_int,
    one_tile,
    require,
    void_suit_letter,
)

from .state import SEATS


class EventKind(enum.StrEnum):
    """The ``type`` of an event of a round."""

    KONG = "kong"
    WIN = "win"
    DRAW = "draw"
    ESCAPE = "escape"


class KongKind(enum.StrEnum):
    DIRECT = "direct"
    ADDED = "added"
    CONCEALED = "concealed"


class DrawStatus(enum.StrEnum):
    """A player's position at a 流局 (or at an escape near the end of the wall)."""

    HUAZHU = "huazhu"
    NOT_READY = "not_ready"
    READY = "ready"


# Values to members by a dict lookup: calling the enum (KongKind("direct")) costs about 1 µs.
KONG_KINDS: Mapping[str, KongKind] = {kind.value: kind for kind in KongKind}
STATUSES: Mapping[str, DrawStatus] = {status.value: status for status in DrawStatus}

# The keys each part of a settle request may have (API.md); any other is a mistake named in a 400.
EVENT_KEYS: Mapping[EventKind, frozenset[str]] = {
    EventKind.KONG: frozenset({"type", "player", "kind", "tile", "from"}),
    EventKind.WIN: frozenset(
        {"type", "from", "robbing_kong", "kong_kind", "after_kong", "last_tile", "winners"}
    ),
    EventKind.DRAW: frozenset({"type", "players"}),
    EventKind.ESCAPE: frozenset({"type", "player", "tiles_left", "players"}),
}
WINNER_KEYS = frozenset({"player", "hand", "fan", "tian_hu", "di_hu"})
REPORT_KEYS = frozenset({"player", "hand", "status", "fan"})
HAND_KEYS = frozenset({"concealed", "melds", "win_tile"})
MELD_KEYS = frozenset({"kind", "tile"})


class HandSpec(NamedTuple):
    """A hand given as tiles: the raw values go to the calculator, the parsed ones to the tile census.

    The parts of an event are NamedTuples, built in C, like the engine's other internal records (see
    ``state.EventOutcome``); the events stay frozen dataclasses, their ``index`` being a tuple method.
    """

    concealed: Any
    melds: tuple[Mapping[str, Any], ...]
    win_tile: Any
    held: tuple[int, ...]  # concealed tiles and every meld tile, without the winning tile
    win_index: int | None


class WinnerSpec(NamedTuple):
    player: int
    hand: HandSpec | None
    fan: int | None  # the final fan entered by hand, when no hand is given
    tian_hu: bool
    di_hu: bool


class PlayerReport(NamedTuple):
    """One player's readiness at a draw: his hand, or a status (with the best fan when ready)."""

    player: int
    hand: HandSpec | None
    status: DrawStatus | None
    fan: int | None


@dataclass(frozen=True, slots=True)
class KongEvent:
    index: int
    player: int
    kind: KongKind
    tile: int | None
    feeder: int | None


@dataclass(frozen=True, slots=True)
class WinEvent:
    index: int
    discarder: int | None  # None: a self-draw
    robbing: bool
    after_kong: bool
    last_tile: bool
    winners: tuple[WinnerSpec, ...]


@dataclass(frozen=True, slots=True)
class DrawEvent:
    index: int
    players: tuple[PlayerReport, ...]


@dataclass(frozen=True, slots=True)
class EscapeEvent:
    index: int
    player: int
    tiles_left: int | None
    players: tuple[PlayerReport, ...] | None


Event = KongEvent | WinEvent | DrawEvent | EscapeEvent


# ---------------------------------------------------------------------------------------------- fields
# The general readers are the calculator's (``calculator.engine.fields``); these three read the round's own.


def seat(value: Any, path: str, index: int | None, key: str | None = None) -> int:
    if is_int(value) and value in SEATS:
        return int(value)
    path = at(path, key)
    raise fail(
        path,
        f"{path} must be a seat number 0 to 3; got {value!r}.",
        f"{path} 必须是 0 到 3 的座位号，收到 {value!r}。",
        index,
    )


def optional_seat(data: Mapping[str, Any], key: str, path: str, index: int) -> int | None:
    value = data.get(key)
    return None if value is None else seat(value, path, index, key)


def flag(data: Mapping[str, Any], key: str, path: str, index: int) -> bool:
    """An event's flag: absent is false. The path is joined only for an error (flags are read per event)."""
    value = data.get(key, False)
    return value if value is True or value is False else boolean(value, f"{path}.{key}", index)


def fan_value(value: Any, path: str, index: int, key: str | None = None) -> int:
    if is_int(value) and 1 <= value <= MAX_FAN:
        return int(value)
    raise fail(
        at(path, key),
        f"The fan must be a whole number from 1 to {MAX_FAN} (平胡 is 1); got {value!r}.",
        f"番数必须是 1 到 {MAX_FAN} 的整数（平胡为 1 番），收到 {value!r}。",
        index,
    )


# ---------------------------------------------------------------------------------------------- hands


def parse_hand(value: Any, path: str, index: int, *, winning: bool) -> HandSpec:
    """A hand given as tiles; a winning hand needs its ``win_tile``, a draw position has none."""
    data = as_object(value, path, index)
    check_keys(data, HAND_KEYS, path, index)
    concealed = require(data, "concealed", path, index)
    try:
        held = list(parse_tiles(concealed))
    except EngineError as error:
        raise error.within(path, event=index) from None
    raw_melds = data.get("melds")
    melds = () if raw_melds is None else tuple(as_list(raw_melds, path, index, "melds"))
    for position, meld in enumerate(melds):
        held += [_meld_tile(meld, path, position, index)] * MELD_SIZES[meld["kind"]]
    win_tile = data.get("win_tile")
    if winning and win_tile is None:
        raise fail(
            f"{path}.win_tile",
            "A winning hand needs its win_tile, the tile it won on.",
            "胡牌的手牌必须给出 win_tile（胡的那张牌）。",
            index,
        )
    if not winning and win_tile is not None:
        raise fail(
            f"{path}.win_tile",
            "A hand at a draw has no winning tile: leave win_tile out.",
            "流局时的手牌没有胡的那张牌，请去掉 win_tile。",
            index,
        )
    win_index = None if win_tile is None else one_tile(win_tile, path, index, "win_tile")
    return HandSpec(concealed, melds, win_tile, tuple(held), win_index)


def _meld_tile(meld: Any, path: str, position: int, index: int) -> int:
    """The tile of one meld, after checking its shape: ``{"kind": "pung", "tile": "5p"}``."""
    if isinstance(meld, dict) and meld.keys() <= MELD_KEYS:  # the usual well-formed meld first, cheaply
        kind, tile = meld.get("kind"), meld.get("tile")
        if isinstance(kind, str) and kind in MELD_SIZES and isinstance(tile, str) and tile in TILE_INDEX:
            return TILE_INDEX[tile]
    path = f"{path}.melds[{position}]"
    data = as_object(meld, path, index)
    check_keys(data, MELD_KEYS, path, index)
    kind = require(data, "kind", path, index)
    if not isinstance(kind, str) or kind not in MELD_SIZES:
        kinds = ", ".join(MELD_SIZES)
        raise fail(
            f"{path}.kind",
            f"A meld's kind must be one of {kinds}; got {kind!r}.",
            f"副露的种类只能是 {kinds} 之一，收到 {kind!r}。",
            index,
        )
    return one_tile(require(data, "tile", path, index), path, index, "tile")


def parse_winner(value: Any, path: str, index: int) -> WinnerSpec:
    data = as_object(value, path, index)
    check_keys(data, WINNER_KEYS, path, index)
    player = seat(require(data, "player", path, index), path, index, "player")
    has_hand, has_fan = data.get("hand") is not None, data.get("fan") is not None
    if has_hand == has_fan:
        raise fail(
            path,
            "Give each winner either his hand (tiles) or his fan, not both and not neither.",
            "每位赢家要么给出手牌，要么给出番数，二者选一。",
            index,
        )
    hand = parse_hand(data["hand"], f"{path}.hand", index, winning=True) if has_hand else None
    fan = fan_value(data["fan"], path, index, "fan") if has_fan else None
    tian_hu, di_hu = flag(data, "tian_hu", path, index), flag(data, "di_hu", path, index)
    if tian_hu and di_hu:
        raise fail(path, "A win is 天胡 or 地胡, not both.", "一次胡牌不能既是天胡又是地胡。", index)
    return WinnerSpec(player, hand, fan, tian_hu, di_hu)


def parse_report(value: Any, path: str, index: int) -> PlayerReport:
    data = as_object(value, path, index)
    check_keys(data, REPORT_KEYS, path, index)
    player = seat(require(data, "player", path, index), path, index, "player")
    if data.get("hand") is not None:
        if data.get("status") is not None:
            raise fail(path, "Give a player's hand or his status, not both.", "手牌和状态只能给一个。", index)
        return PlayerReport(
            player, parse_hand(data["hand"], f"{path}.hand", index, winning=False), None, None
        )
    raw_status = require(data, "status", path, index)
    status = STATUSES.get(raw_status) if isinstance(raw_status, str) else None
    if status is None:
        raise fail(
            f"{path}.status",
            f"status must be huazhu, not_ready or ready; got {raw_status!r}.",
            f"status 只能是 huazhu（花猪）、not_ready（没叫）或 ready（有叫），收到 {raw_status!r}。",
            index,
        )
    if status is DrawStatus.READY:
        return PlayerReport(
            player, None, status, fan_value(require(data, "fan", path, index), path, index, "fan")
        )
    if data.get("fan") is not None:
        raise fail(f"{path}.fan", "Only a ready player has a best fan.", "只有有叫的玩家才有番数。", index)
    return PlayerReport(player, None, status, None)


def parse_reports(value: Any, path: str, index: int) -> tuple[PlayerReport, ...]:
    reports = tuple(
        [
            parse_report(item, f"{path}[{position}]", index)
            for position, item in enumerate(as_list(value, path, index))
        ]
    )
    seen: set[int] = set()
    for position, report in enumerate(reports):
        if report.player in seen:
            raise fail(
                f"{path}[{position}].player",
                f"Player {report.player} is listed twice.",
                f"玩家 {report.player} 被列了两次。",
                index,
            )
        seen.add(report.player)
    return reports


# ---------------------------------------------------------------------------------------------- events


def parse_kong(data: Mapping[str, Any], path: str, index: int) -> KongEvent:
    player = seat(require(data, "player", path, index), path, index, "player")
    raw_kind = require(data, "kind", path, index)
    kind = KONG_KINDS.get(raw_kind) if isinstance(raw_kind, str) else None
    if kind is None:
        raise fail(
            f"{path}.kind",
            f"A kong's kind must be direct, added or concealed; got {raw_kind!r}.",
            f"杠的种类只能是 direct（直杠）、added（弯杠）或 concealed（暗杠），收到 {raw_kind!r}。",
            index,
        )
    tile = None if data.get("tile") is None else one_tile(data["tile"], path, index, "tile")
    feeder = optional_seat(data, "from", path, index)
    if kind is KongKind.DIRECT and feeder is None:
        raise fail(
            f"{path}.from",
            "A direct kong (直杠) needs 'from': the player whose discard it took.",
            "直杠必须给出 from：点杠的玩家。",
            index,
        )
    if kind is not KongKind.DIRECT and feeder is not None:
        raise fail(
            f"{path}.from",
            f"Only a direct kong has a feeder; a {kind.value} kong has from null.",
            "只有直杠才有点杠者，弯杠和暗杠的 from 应为空。",
            index,
        )
    if feeder == player:
        raise fail(f"{path}.from", "A player cannot feed his own direct kong.", "不能自己给自己点杠。", index)
    return KongEvent(index, player, kind, tile, feeder)


def parse_win(data: Mapping[str, Any], path: str, index: int) -> WinEvent:
    discarder = optional_seat(data, "from", path, index)
    robbing = flag(data, "robbing_kong", path, index)
    after_kong = flag(data, "after_kong", path, index)
    raw_winners = as_list(require(data, "winners", path, index), path, index, "winners")
    winners = tuple(
        [
            parse_winner(item, f"{path}.winners[{position}]", index)
            for position, item in enumerate(raw_winners)
        ]
    )
    if not winners:
        raise fail(f"{path}.winners", "A win needs at least one winner.", "胡牌至少要有一位赢家。", index)
    if robbing and discarder is None:
        raise fail(
            f"{path}.from",
            "Robbing a kong (抢杠) needs 'from': the player whose added kong was robbed.",
            "抢杠胡必须给出 from：被抢杠的玩家。",
            index,
        )
    if robbing and data.get("kong_kind", KongKind.ADDED.value) != KongKind.ADDED.value:
        raise fail(
            f"{path}.kong_kind",
            "Only an added kong (弯杠) can be robbed.",
            "只有弯杠（面下杠）可以被抢。",
            index,
        )
    if robbing and after_kong:
        raise fail(
            f"{path}.after_kong",
            "A robbed kong is not 杠上花 or 杠上炮: after_kong cannot go with robbing.",
            "抢杠胡不能同时是杠上花或杠上炮。",
            index,
        )
    if discarder is None and len(winners) > 1:
        raise fail(
            f"{path}.winners",
            "A self-draw has one winner; several winners need a discard ('from').",
            "自摸只有一位赢家；多人胡同一张牌时必须给出 from（点炮者）。",
            index,
        )
    seen: set[int] = set()
    for position, winner in enumerate(winners):
        if winner.player == discarder:
            raise fail(
                f"{path}.winners[{position}].player",
                "A player cannot win on his own discard.",
                "不能胡自己打出的牌。",
                index,
            )
        if winner.player in seen:
            raise fail(
                f"{path}.winners[{position}].player",
                f"Player {winner.player} is listed twice.",
                f"玩家 {winner.player} 被列了两次。",
                index,
            )
        seen.add(winner.player)
        if (winner.tian_hu or winner.di_hu) and robbing:
            raise fail(
                f"{path}.winners[{position}]",
                "天胡 and 地胡 cannot be won by robbing a kong.",
                "抢杠胡不能是天胡或地胡。",
                index,
            )
    shared = {winner.hand.win_index for winner in winners if winner.hand is not None}
    if len(shared) > 1:
        raise fail(
            f"{path}.winners",
            "Winners of one discard win on the same tile: their win_tile differs.",
            "多人胡同一张牌时，各人的 win_tile 必须相同。",
            index,
        )
    return WinEvent(index, discarder, robbing, after_kong, flag(data, "last_tile", path, index), winners)


def parse_draw(data: Mapping[str, Any], path: str, index: int) -> DrawEvent:
    return DrawEvent(index, parse_reports(require(data, "players", path, index), f"{path}.players", index))


def parse_escape(data: Mapping[str, Any], path: str, index: int) -> EscapeEvent:
    player = seat(require(data, "player", path, index), path, index, "player")
    tiles_left = data.get("tiles_left")
    if tiles_left is not None and not (is_int(tiles_left) and 0 <= tiles_left <= 108):
        raise fail(
            f"{path}.tiles_left",
            f"tiles_left must be a whole number from 0 to 108; got {tiles_left!r}.",
            f"tiles_left（剩余牌数）必须是 0 到 108 的整数，收到 {tiles_left!r}。",
            index,
        )
    players = (
        None if data.get("players") is None else parse_reports(data["players"], f"{path}.players", index)
    )
    if players is not None and any(report.player == player for report in players):
        raise fail(
            f"{path}.players",
            "The escaping player is not one of the players he pays.",
            "逃跑者本人不应列在 players 中。",
            index,
        )
    return EscapeEvent(index, player, tiles_left, players)


EVENT_PARSERS: Mapping[str, Callable[[Mapping[str, Any], str, int], Event]] = {
    EventKind.KONG: parse_kong,
    EventKind.WIN: parse_win,
    EventKind.DRAW: parse_draw,
    EventKind.ESCAPE: parse_escape,
}


def parse_event(value: Any, index: int) -> Event:
    path = f"events[{index}]"
    data = as_object(value, path, index)
    kind = require(data, "type", path, index)
    parser = EVENT_PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise fail(
            f"{path}.type",
            f"Unknown event type {kind!r}: use kong, win, draw or escape.",
            f"未知的事件类型 {kind!r}，可选：kong（杠）、win（胡）、draw（流局）、escape（逃跑）。",
            index,
        )
    check_keys(data, EVENT_KEYS[kind], path, index)
    return parser(data, path, index)


def parse_events(value: Any) -> tuple[Event, ...]:
    return tuple([parse_event(item, index) for index, item in enumerate(as_list(value, "events", None))])


def parse_dealer(value: Any) -> int:
    return seat(value, "dealer", None)


def parse_void_suits(value: Any) -> tuple[str | None, ...]:
    """Four entries, each a void suit as ``calculator.engine.fields.void_suit`` reads it (``m`` or 万, ...)
    or null; the whole field may be null (void suits unknown)."""
    if value is None:
        return (None,) * len(SEATS)
    suits = as_list(value, "void_suits", None)
    if len(suits) != len(SEATS):
        raise fail(
            "void_suits",
            f"void_suits must list 4 entries, one per seat; got {len(suits)}.",
            f"void_suits（定缺）必须有 4 项，每个座位一项，收到 {len(suits)} 项。",
        )
    return tuple([void_suit_letter(suit, f"void_suits[{position}]") for position, suit in enumerate(suits)])
