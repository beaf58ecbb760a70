"""Sequence checks every event handler shares: is the round still open, may this player still act."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from .events import Event, EventKind, KongEvent, KongKind, WinEvent, fail
from .state import RoundState

AFTER_LAST_TILE = frozenset({EventKind.DRAW, EventKind.ESCAPE})


def check_open(state: RoundState, index: int, event_type: EventKind) -> None:
    """Nothing follows the end of a round; only a 流局 or an escape follows a win on the last tile."""
    if state.finished:
        raise fail(
            f"events[{index}]",
            "The round is already over: no event can follow.",
            "本局已经结束，不能再有事件。",
            index,
        )
    if state.last_tile_won and event_type not in AFTER_LAST_TILE:
        raise fail(
            f"events[{index}].type",
            "After a win on the last tile only a draw (流局) or an escape can follow.",
            "海底胡牌之后只能是流局或逃跑。",
            index,
        )


def check_can_act(state: RoundState, seat: int, index: int, field: str) -> None:
    """Only an active player kongs, discards or wins. ``field`` is the seat's place within the event, made
    into the error's path only when there is an error (these checks run for every event)."""
    if seat in state.winners:
        raise fail(
            f"events[{index}].{field}",
            f"Player {seat} has already won and is out of play (血战到底).",
            f"玩家 {seat} 已经胡牌离场，不能再行动。",
            index,
        )
    if seat in state.escaped:
        raise fail(
            f"events[{index}].{field}",
            f"Player {seat} has escaped and is out of play.",
            f"玩家 {seat} 已经逃跑，不能再行动。",
            index,
        )


def check_robbed_kongs(events: Sequence[Event]) -> None:
    """RULES.md 4.5: a robbed kong is void and is not itself a kong event. An added kong by the robbed
    player just before the robbing win is that kong entered twice (it would keep its kong money), unless
    both tiles are known and differ: then it was his previous kong and stands."""
    for previous, event in pairwise(events):
        if not (isinstance(event, WinEvent) and event.robbing and isinstance(previous, KongEvent)):
            continue
        if previous.kind is not KongKind.ADDED or previous.player != event.discarder:
            continue
        robbed = {winner.hand.win_index for winner in event.winners if winner.hand is not None}
        if previous.tile is not None and robbed and previous.tile not in robbed:
            continue
        raise fail(
            f"events[{event.index}].robbing_kong",
            "A robbed kong is not recorded as a kong: undo the 弯杠 (added kong) before this win and record "
            "only the robbing win.",
            "被抢的杠不算杠，不记杠钱：请撤销这次胡牌之前的弯杠，只记录抢杠胡。",
            event.index,
        )
