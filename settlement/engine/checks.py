"""Sequence checks every event handler shares: is the round still open, may this player still act."""

from __future__ import annotations

from .events import fail
from .state import RoundState

AFTER_LAST_TILE = frozenset({"draw", "escape"})


def check_open(state: RoundState, index: int, event_type: str) -> None:
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
