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

from calculator.engine import MAX_FAN, MAX_OPTION_VALUE, MELD_SIZES, TILE_INDEX, EngineError, parse_tiles
from calculator.engine.fields import (
    as_list,
    as_object,
    at,
    boolean,
    check_keys,
    is_int,
    one_tile,
    require,
    void_suit_letter,
)

from .state import HOUSE, SEATS


class EventKind(enum.StrEnum):
    """The ``type`` of an event of a round."""

    KONG = "kong"
    WIN = "win"
    DRAW = "draw"
    ESCAPE = "escape"
    ADJUST = "adjust"


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
        {"type", "from", "robbing_kong", "robbed_tile", "kong_kind", "after_kong", "last_tile", "winners"}
    ),
    EventKind.DRAW: frozenset({"type", "players"}),
    EventKind.ESCAPE: frozenset({"type", "player", "tiles_left", "players"}),
    EventKind.ADJUST: frozenset({"type", "from", "to", "amount", "reason"}),
}
EACH = "each"  # an adjustment's ``to``: every other player in play, each the full amount
ADJUST_REASON_LENGTH = 80  # RULES.md 4.8: 1 to 80 characters
WINNER_KEYS = frozenset({"player", "hand", "fan", "tian_hu", "di_hu"})
REPORT_KEYS = frozenset({"player", "hand", "status", "fan"})
HAND_KEYS = frozenset({"concealed", "melds", "win_tile"})
MELD_KEYS = frozenset({"kind", "tile"})
VOID_SUIT_FIELDS = tuple([f"void_suits[{seat}]" for seat in SEATS])  # named once: read with every round


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
    robbed_tile: int | None = None  # the tile of the robbed 弯杠, when the robbing win names it

    @property
    def robbed_tiles(self) -> frozenset[int]:
        """What the win says the robbed kong's tile was: ``robbed_tile`` or the winners' winning tile."""
        named = {
            winner.hand.win_index
            for winner in self.winners
            if winner.hand is not None and winner.hand.win_index is not None
        }
        return frozenset(named if self.robbed_tile is None else {*named, self.robbed_tile})


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


@dataclass(frozen=True, slots=True)
class AdjustEvent:
    """罚分 / 诈胡 / a side bet (RULES.md 4.8): ``payer`` pays ``amount`` b to ``payee`` (a seat), to each
    other player in play (``EACH``) or to the house (None)."""

    index: int
    payer: int
    payee: int | str | None
    amount: int
    reason: str


Event = KongEvent | WinEvent | DrawEvent | EscapeEvent | AdjustEvent


# ---------------------------------------------------------------------------------------------- fields
# The general readers are the calculator's (``calculator.engine.fields``); these three read the round's own.


def seat(value: Any, path: str, index: int | None, key: str | None = None) -> int:
    if is_int(value) and value in SEATS:
        return int(value)
    path = at(path, key)
    raise EngineError("seat_number", field=path, event=index, path=path, value=value)


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
    raise EngineError("fan_value", field=at(path, key), event=index, maximum=MAX_FAN, value=value)


# ---------------------------------------------------------------------------------------------- hands


def one_of[Named](
    table: Mapping[str, Named], data: Mapping[str, Any], key: str, path: str, index: int, code: str
) -> Named:
    """The value ``data[key]`` names in ``table`` (a player's status, a kong's kind, an event's parser),
    or the refusal ``code`` quoting what was sent."""
    raw = require(data, key, path, index)
    named = table.get(raw) if isinstance(raw, str) else None
    if named is None:
        raise EngineError(code, field=f"{path}.{key}", event=index, value=raw)
    return named


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
        raise EngineError("winning_hand_without_win_tile", field=f"{path}.win_tile", event=index)
    if not winning and win_tile is not None:
        raise EngineError("draw_hand_with_win_tile", field=f"{path}.win_tile", event=index)
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
        raise EngineError(
            "event_meld_kind_unknown", field=f"{path}.kind", event=index, choices=kinds, value=kind
        )
    return one_tile(require(data, "tile", path, index), path, index, "tile")


def parse_winner(value: Any, path: str, index: int) -> WinnerSpec:
    data = as_object(value, path, index)
    check_keys(data, WINNER_KEYS, path, index)
    player = seat(require(data, "player", path, index), path, index, "player")
    has_hand, has_fan = data.get("hand") is not None, data.get("fan") is not None
    if has_hand == has_fan:
        raise EngineError("winner_hand_or_fan", field=path, event=index)
    hand = parse_hand(data["hand"], f"{path}.hand", index, winning=True) if has_hand else None
    fan = fan_value(data["fan"], path, index, "fan") if has_fan else None
    tian_hu, di_hu = flag(data, "tian_hu", path, index), flag(data, "di_hu", path, index)
    if tian_hu and di_hu:
        raise EngineError("winner_tian_and_di_hu", field=path, event=index)
    return WinnerSpec(player, hand, fan, tian_hu, di_hu)


def parse_report(value: Any, path: str, index: int) -> PlayerReport:
    data = as_object(value, path, index)
    check_keys(data, REPORT_KEYS, path, index)
    player = seat(require(data, "player", path, index), path, index, "player")
    if data.get("hand") is not None:
        if data.get("status") is not None:
            raise EngineError("report_hand_and_status", field=path, event=index)
        return PlayerReport(
            player, parse_hand(data["hand"], f"{path}.hand", index, winning=False), None, None
        )
    status = one_of(STATUSES, data, "status", path, index, "status_unknown")
    if status is DrawStatus.READY:
        return PlayerReport(
            player, None, status, fan_value(require(data, "fan", path, index), path, index, "fan")
        )
    if data.get("fan") is not None:
        raise EngineError("fan_without_ready", field=f"{path}.fan", event=index)
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
            raise EngineError(
                "listed_twice", field=f"{path}[{position}].player", event=index, player=report.player
            )
        seen.add(report.player)
    return reports


# ---------------------------------------------------------------------------------------------- events


def parse_kong(data: Mapping[str, Any], path: str, index: int) -> KongEvent:
    player = seat(require(data, "player", path, index), path, index, "player")
    kind = one_of(KONG_KINDS, data, "kind", path, index, "kong_kind_unknown")
    tile = None if data.get("tile") is None else one_tile(data["tile"], path, index, "tile")
    feeder = optional_seat(data, "from", path, index)
    if kind is KongKind.DIRECT and feeder is None:
        raise EngineError("direct_kong_without_feeder", field=f"{path}.from", event=index)
    if kind is not KongKind.DIRECT and feeder is not None:
        raise EngineError("feeder_of_an_own_kong", field=f"{path}.from", event=index, kind=kind.value)
    if feeder == player:
        raise EngineError("own_direct_kong", field=f"{path}.from", event=index)
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
        raise EngineError("win_without_winner", field=f"{path}.winners", event=index)
    if robbing and discarder is None:
        raise EngineError("robbing_without_robbed", field=f"{path}.from", event=index)
    if robbing and data.get("kong_kind", KongKind.ADDED.value) != KongKind.ADDED.value:
        raise EngineError("robbed_kong_not_added", field=f"{path}.kong_kind", event=index)
    if robbing and after_kong:
        raise EngineError("robbing_after_kong", field=f"{path}.after_kong", event=index)
    if discarder is None and len(winners) > 1:
        raise EngineError("self_draw_winners", field=f"{path}.winners", event=index)
    seen: set[int] = set()
    for position, winner in enumerate(winners):
        if winner.player == discarder:
            raise EngineError("win_on_own_discard", field=f"{path}.winners[{position}].player", event=index)
        if winner.player in seen:
            raise EngineError(
                "listed_twice", field=f"{path}.winners[{position}].player", event=index, player=winner.player
            )
        seen.add(winner.player)
        if (winner.tian_hu or winner.di_hu) and robbing:
            raise EngineError("heavenly_by_robbing", field=f"{path}.winners[{position}]", event=index)
    shared = {winner.hand.win_index for winner in winners if winner.hand is not None}
    if len(shared) > 1:
        raise EngineError("win_tiles_differ", field=f"{path}.winners", event=index)
    raw_robbed = data.get("robbed_tile")
    robbed_tile = None if raw_robbed is None else one_tile(raw_robbed, path, index, "robbed_tile")
    if robbed_tile is not None and not robbing:
        raise EngineError("robbed_tile_without_robbing", field=f"{path}.robbed_tile", event=index)
    if robbed_tile is not None and shared and robbed_tile not in shared:
        raise EngineError("robbed_tile_not_won", field=f"{path}.robbed_tile", event=index)
    last_tile = flag(data, "last_tile", path, index)
    return WinEvent(index, discarder, robbing, after_kong, last_tile, winners, robbed_tile)


def parse_draw(data: Mapping[str, Any], path: str, index: int) -> DrawEvent:
    return DrawEvent(index, parse_reports(require(data, "players", path, index), f"{path}.players", index))


def parse_escape(data: Mapping[str, Any], path: str, index: int) -> EscapeEvent:
    player = seat(require(data, "player", path, index), path, index, "player")
    tiles_left = data.get("tiles_left")
    if tiles_left is not None and not (is_int(tiles_left) and 0 <= tiles_left <= 108):
        raise EngineError("tiles_left", field=f"{path}.tiles_left", event=index, value=tiles_left)
    players = (
        None if data.get("players") is None else parse_reports(data["players"], f"{path}.players", index)
    )
    if players is not None and any(report.player == player for report in players):
        raise EngineError("escaper_among_players", field=f"{path}.players", event=index)
    return EscapeEvent(index, player, tiles_left, players)


def parse_adjust(data: Mapping[str, Any], path: str, index: int) -> AdjustEvent:
    payer = seat(require(data, "from", path, index), path, index, "from")
    raw_to = require(data, "to", path, index)
    payee: int | str | None
    if raw_to == EACH:
        payee = EACH
    elif raw_to == HOUSE:
        payee = None
    elif is_int(raw_to) and raw_to in SEATS:
        payee = int(raw_to)
    else:
        raise EngineError("adjust_to", field=f"{path}.to", event=index, value=raw_to)
    if payee == payer:
        raise EngineError("adjust_to_self", field=f"{path}.to", event=index, player=payer)
    amount = require(data, "amount", path, index)
    if not (is_int(amount) and 1 <= amount <= MAX_OPTION_VALUE):
        raise EngineError(
            "adjust_amount", field=f"{path}.amount", event=index, maximum=MAX_OPTION_VALUE, value=amount
        )
    reason = require(data, "reason", path, index)
    if not isinstance(reason, str) or not 1 <= len(reason.strip()) <= ADJUST_REASON_LENGTH:
        raise EngineError(
            "adjust_reason", field=f"{path}.reason", event=index, most=ADJUST_REASON_LENGTH, value=reason
        )
    return AdjustEvent(index, payer, payee, int(amount), reason.strip())


EVENT_PARSERS: Mapping[str, Callable[[Mapping[str, Any], str, int], Event]] = {
    EventKind.KONG: parse_kong,
    EventKind.WIN: parse_win,
    EventKind.DRAW: parse_draw,
    EventKind.ESCAPE: parse_escape,
    EventKind.ADJUST: parse_adjust,
}


def parse_event(value: Any, index: int) -> Event:
    path = f"events[{index}]"
    data = as_object(value, path, index)
    parser = one_of(EVENT_PARSERS, data, "type", path, index, "event_type_unknown")
    check_keys(data, EVENT_KEYS[data["type"]], path, index)
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
        raise EngineError("void_suits_count", field="void_suits", count=len(suits))
    return tuple(
        [void_suit_letter(suit, VOID_SUIT_FIELDS[seat]) for seat, suit in zip(SEATS, suits, strict=True)]
    )
