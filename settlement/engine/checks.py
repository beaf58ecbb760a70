"""Sequence checks every event handler shares: is the round still open, may this player still act."""

from __future__ import annotations

from .events import fail
from .state import RoundState

AFTER_LAST_TILE = frozenset({"draw", "escape"})


def check_open(state: RoundState, index: int, event_type: str) -> None:
    """Nothing follows the end of a round; only a 流局 or an escape follows a win on the last tile."""
    path = f"events[{index}]"
    if state.finished:
        raise fail(
            path, "The round is already over: no event can follow.", "本局已经结束，不能再有事件。", index
        )
    if state.last_tile_won and event_type not in AFTER_LAST_TILE:
        raise fail(
            f"{path}.type",
            "After a win on the last tile only a draw (流局) or an escape can follow.",
            "海底胡牌之后只能是流局或逃跑。",
            index,
        )


def check_can_act(state: RoundState, seat: int, path: str, index: int) -> None:
    """Only an active player kongs, discards or wins."""
    if seat in state.winners:
        raise fail(
            path,
            f"Player {seat} has already won and is out of play (血战到底).",
            f"玩家 {seat} 已经胡牌离场，不能再行动。",
            index,
        )
    if seat in state.escaped:
        raise fail(
            path,
            f"Player {seat} has escaped and is out of play.",
            f"玩家 {seat} 已经逃跑，不能再行动。",
            index,
        )
