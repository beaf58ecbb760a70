"""Sequence checks every event handler shares: is the round still open, may this player still act."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from calculator.engine import EngineError

from .events import AdjustEvent, Event, EventKind, KongEvent, KongKind, WinEvent, parse_event
from .state import RoundState

AFTER_LAST_TILE = frozenset({EventKind.DRAW, EventKind.ESCAPE, EventKind.ADJUST})


def check_open(state: RoundState, index: int, event_type: EventKind) -> None:
    """Nothing follows the end of a round; only a 流局 or an escape follows a win on the last tile."""
    if state.finished:
        raise EngineError("round_over", field=f"events[{index}]", event=index)
    if state.last_tile_won and event_type not in AFTER_LAST_TILE:
        raise EngineError("after_last_tile_win", field=f"events[{index}].type", event=index)


def check_can_act(state: RoundState, seat: int, index: int, field: str) -> None:
    """Only a player in play kongs, discards or wins (under 血流成河 a winner too). ``field`` is the seat's
    place within the event, made into the error's path only when there is an error (these checks run for
    every event)."""
    if seat in state.winners and not state.winners_play_on:
        raise EngineError("player_has_won", field=f"events[{index}].{field}", event=index, player=seat)
    if seat in state.escaped:
        raise EngineError("player_has_escaped", field=f"events[{index}].{field}", event=index, player=seat)


def robs_the_kong_before(previous: Event, event: Event) -> bool:
    """RULES.md 4.5: a robbed kong is void and is not itself a kong event. An added kong by the robbed
    player just before the robbing win is that kong entered twice (it would keep its kong money), unless
    both tiles are known and differ: then it was his previous kong and stands. The robbing win tells its
    tile by ``robbed_tile`` or by the winners' hands."""
    if not (isinstance(event, WinEvent) and event.robbing and isinstance(previous, KongEvent)):
        return False
    if previous.kind is not KongKind.ADDED or previous.player != event.discarder:
        return False
    robbed = event.robbed_tiles
    return previous.tile is None or not robbed or previous.tile in robbed


def robbed_kong_voided(previous: Mapping[str, Any], event: Mapping[str, Any]) -> bool:
    """Whether the win ``event`` robs the added kong ``previous`` entered just before it (both as the
    settle API takes events): that kong is void, so a page that recorded it as declared drops it before
    recording the win. False when either event cannot be read (the engine names that error itself)."""
    try:
        return robs_the_kong_before(parse_event(previous, 0), parse_event(event, 1))
    except EngineError:
        return False


def check_robbed_kongs(events: Sequence[Event]) -> None:
    """A robbing win right after the robbed kong entered as a kong is refused (``robs_the_kong_before``);
    an adjustment between them is looked past (RULES.md 4.8)."""
    for previous, event in pairwise([event for event in events if not isinstance(event, AdjustEvent)]):
        if not robs_the_kong_before(previous, event):
            continue
        raise EngineError(
            "robbed_kong_recorded", field=f"events[{event.index}].robbing_kong", event=event.index
        )
