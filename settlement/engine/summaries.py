"""What each event decided, as typed values: one frozen dataclass per event kind (``RoundResult.events``).

A page or the ledger reads these fields; ``to_dict()`` is the entry of the settle response's ``events``
(API.md), written only where JSON is written. Every summary carries its event's ``index`` and ``kind``
and the ``scores`` of its winners (none but for a win), so a reader that only lists wins needs no branch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .events import EventKind, KongKind
from .hands import Readiness, WinScore


@dataclass(frozen=True, slots=True)
class WinnerScore:
    """One claimant of a win event: how his hand scored, and whether the claim counted (截胡: not)."""

    score: WinScore
    won: bool

    @property
    def player(self) -> int:
        return self.score.player

    @property
    def fan(self) -> int:
        return self.score.fan

    def to_dict(self) -> dict[str, Any]:
        return {**self.score.explained, "won": self.won}


@dataclass(frozen=True, slots=True)
class KongSummary:
    """A kong: who made it, which kind, of what tile, fed by whom, and the points it brought."""

    kind: ClassVar[EventKind] = EventKind.KONG
    index: int
    player: int
    kong_kind: KongKind
    tile: str | None
    feeder: int | None
    points: int
    scores: tuple[WinnerScore, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "type": self.kind.value,
            "player": self.player,
            "kind": self.kong_kind.value,
            "tile": self.tile,
            "from": self.feeder,
            "scores": [],
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class WinSummary:
    """A win event: from whom (None: a self-draw), in which situation, every claimant's score, and the
    kong money it handed over (呼叫转移) or refunded (``kong_refund`` None unless the rule refunds)."""

    kind: ClassVar[EventKind] = EventKind.WIN
    index: int
    discarder: int | None
    win_by: str
    situation: str
    robbing_kong: bool
    after_kong: bool
    last_tile: bool
    kong: int | None
    scores: tuple[WinnerScore, ...]
    kong_transfer: int
    kong_refund: int | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats whose claim counted, in play order."""
        return tuple([score.player for score in self.scores if score.won])

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "index": self.index,
            "type": self.kind.value,
            "from": self.discarder,
            "win_by": self.win_by,
            "situation": self.situation,
            "robbing_kong": self.robbing_kong,
            "after_kong": self.after_kong,
            "last_tile": self.last_tile,
            "kong": self.kong,
            "scores": [score.to_dict() for score in self.scores],
            "kong_transfer": self.kong_transfer,
        }
        if self.kong_refund is not None:
            body["kong_refund"] = self.kong_refund
        return body


@dataclass(frozen=True, slots=True)
class DrawSummary:
    """流局: each player still in play, ready or not (花猪, 没叫, 有叫 with his best fan)."""

    kind: ClassVar[EventKind] = EventKind.DRAW
    index: int
    players: tuple[Readiness, ...]
    scores: tuple[WinnerScore, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "type": self.kind.value,
            "players": [player.to_dict() for player in self.players],
            "scores": [],
        }


@dataclass(frozen=True, slots=True)
class EscapeSummary:
    """逃跑: who left with how many tiles left, whether he had won (then ``forfeit`` says whether his win
    went back), and near the end of the wall the others' readiness."""

    kind: ClassVar[EventKind] = EventKind.ESCAPE
    index: int
    player: int
    tiles_left: int | None
    winner: bool
    players: tuple[Readiness, ...]
    forfeit: bool | None = None
    scores: tuple[WinnerScore, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "index": self.index,
            "type": self.kind.value,
            "player": self.player,
            "tiles_left": self.tiles_left,
            "winner": self.winner,
            "scores": [],
            "players": [player.to_dict() for player in self.players],
        }
        if self.forfeit is not None:
            body["forfeit"] = self.forfeit
        return body


@dataclass(frozen=True, slots=True)
class AdjustSummary:
    """罚分 / 诈胡 (RULES.md 4.8): who paid, to whom (a seat, ``each`` or ``house``), how many b and points
    each, and the table's reason in its own words."""

    kind: ClassVar[EventKind] = EventKind.ADJUST
    index: int
    player: int
    to: int | str
    amount: int
    points: int
    reason: str
    scores: tuple[WinnerScore, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "type": self.kind.value,
            "player": self.player,
            "to": self.to,
            "amount": self.amount,
            "points": self.points,
            "reason": self.reason,
            "scores": [],
        }


EventSummary = KongSummary | WinSummary | DrawSummary | EscapeSummary | AdjustSummary
