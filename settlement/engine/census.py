"""The tile census: no kind named more than 4 times across one round (RULES.md 2).

A player's tiles are the same physical tiles each time he shows them: a kong event and the same kong in
his later hand are one set of four, and a claimant blocked by 截胡 who shows his hand again later holds
(mostly) the same tiles. So a player counts, per kind, the larger of his kongs' tiles and any one of his
hands. A discard won by several players is one tile on the table, counted once per win event.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from calculator.engine import COPIES, KINDS, TILE_NAMES, EngineError

from .events import AdjustEvent, DrawEvent, Event, KongEvent, PlayerReport, WinEvent
from .state import SEATS

MAX_KONGS_PER_HAND = 4  # 14 tiles plus one replacement per kong make at most four sets of four


def check_tile_census(events: Sequence[Event]) -> None:
    """Raise an EngineError naming the first event after which some kind is named a fifth time, or a
    player's fifth kong (a kong without a tile counts too)."""
    census = _Census()
    kongs_by_seat = [0] * len(SEATS)
    for event in events:
        if isinstance(event, KongEvent):
            kongs_by_seat[event.player] += 1
            if kongs_by_seat[event.player] > MAX_KONGS_PER_HAND:
                raise EngineError(
                    "kongs_per_hand",
                    field=f"events[{event.index}]",
                    event=event.index,
                    player=event.player,
                    most=MAX_KONGS_PER_HAND,
                )
        for kind in census.record(event):
            if census.totals[kind] > COPIES:
                name = TILE_NAMES[kind]
                total = census.totals[kind]
                raise EngineError(
                    "round_fifth_copy",
                    field=f"events[{event.index}]",
                    event=event.index,
                    count=total,
                    tile=name,
                )


class _Census:
    """Per seat and kind: tiles in his kongs, the most in any one of his hands, and what he adds to the
    running totals, the larger of the two (kept as it goes: every hand of every round is counted here).

    Each per-seat table is one flat list, a seat's kinds from ``seat * KINDS``: every round makes a census,
    and a list of four lists cost about 4,000 instructions more to make than one list of the same zeros."""

    __slots__ = ("counted", "hands", "kongs", "totals")

    def __init__(self) -> None:
        self.kongs = [0] * (len(SEATS) * KINDS)
        self.hands = [0] * (len(SEATS) * KINDS)
        self.counted = [0] * (len(SEATS) * KINDS)
        self.totals = [0] * KINDS

    def record(self, event: Event) -> set[int]:
        """Add what ``event`` names; return the kinds it touched."""
        if isinstance(event, KongEvent):
            if event.tile is None:
                return set()
            self._add_kong(event.player, event.tile)
            return {event.tile}
        if isinstance(event, WinEvent):
            return self._record_win(event)
        if isinstance(event, AdjustEvent):
            return set()  # an adjustment names no tile
        reports: Iterable[PlayerReport] = (
            event.players if isinstance(event, DrawEvent) else event.players or ()
        )
        touched: set[int] = set()
        for report in reports:
            if report.hand is not None:
                touched |= self._hold(report.player, [*report.hand.held, *_tiles(report.hand.win_index)])
        return touched

    def _record_win(self, event: WinEvent) -> set[int]:
        touched: set[int] = set()
        shared: int | None = None
        for winner in event.winners:
            if winner.hand is None:
                continue
            if event.discarder is None:
                touched |= self._hold(winner.player, [*winner.hand.held, *_tiles(winner.hand.win_index)])
            else:
                shared = winner.hand.win_index
                touched |= self._hold(winner.player, winner.hand.held)
        if shared is not None:
            self.totals[shared] += 1
            touched.add(shared)
        return touched

    def _hold(self, seat: int, tiles: Iterable[int]) -> set[int]:
        held = bytes(tiles)  # kinds are 0..26: bytes.count counts one kind in C
        kinds = set(held)
        first, hands, counted, totals = seat * KINDS, self.hands, self.counted, self.totals
        for kind in kinds:
            count, at = held.count(kind), first + kind
            if count > hands[at]:
                hands[at] = count
                if count > counted[at]:
                    totals[kind] += count - counted[at]
                    counted[at] = count
        return kinds

    def _add_kong(self, seat: int, kind: int) -> None:
        at, kongs, counted = seat * KINDS + kind, self.kongs, self.counted
        kongs[at] += COPIES
        now = max(kongs[at], self.hands[at])
        self.totals[kind] += now - counted[at]
        counted[at] = now


def _tiles(index: int | None) -> tuple[int, ...]:
    return () if index is None else (index,)
