"""The tile census: no kind named more than 4 times across one round (RULES.md 2).

A player's tiles are the same physical tiles each time he shows them: a kong event and the same kong in
his later hand are one set of four, and a claimant blocked by 截胡 who shows his hand again later holds
(mostly) the same tiles. So a player counts, per kind, the larger of his kongs' tiles and any one of his
hands. A discard won by several players is one tile on the table, counted once per win event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from calculator.engine.tiles import TILE_NAMES

from .events import DrawEvent, Event, HandSpec, KongEvent, PlayerReport, WinEvent, fail
from .state import SEATS

COPIES = 4


def check_tile_census(events: Sequence[Event]) -> None:
    """Raise an EngineError naming the first event after which some kind is named a fifth time."""
    kongs = [Counter[int]() for _ in SEATS]
    hands = [Counter[int]() for _ in SEATS]  # per kind, the most any one of the player's hands holds
    table = Counter[int]()  # winning tiles taken from a discard or a robbed kong
    for event in events:
        touched = _record(event, kongs, hands, table)
        for kind in touched:
            total = table[kind] + sum(max(kongs[seat][kind], hands[seat][kind]) for seat in SEATS)
            if total > COPIES:
                name = TILE_NAMES[kind]
                raise fail(
                    f"events[{event.index}]",
                    f"The round names {total} copies of {name} by this event; there are only 4.",
                    f"到这一事件为止，本局出现了 {total} 张 {name}，但每种牌只有 4 张。",
                    event.index,
                )


def _record(
    event: Event, kongs: list[Counter[int]], hands: list[Counter[int]], table: Counter[int]
) -> set[int]:
    """Add what ``event`` names; return the kinds it touched."""
    if isinstance(event, KongEvent):
        if event.tile is None:
            return set()
        kongs[event.player][event.tile] += COPIES
        return {event.tile}
    if isinstance(event, WinEvent):
        touched: set[int] = set()
        shared: int | None = None
        for winner in event.winners:
            if winner.hand is None:
                continue
            own = list(winner.hand.held)
            if event.discarder is None:
                own.extend(_tiles(winner.hand.win_index))
            else:
                shared = winner.hand.win_index
            touched |= _hold(hands[winner.player], own)
        if shared is not None:
            table[shared] += 1
            touched.add(shared)
        return touched
    reports: Iterable[PlayerReport] = event.players if isinstance(event, DrawEvent) else event.players or ()
    touched = set()
    for report in reports:
        if report.hand is not None:
            touched |= _hold(hands[report.player], _all_tiles(report.hand))
    return touched


def _tiles(index: int | None) -> tuple[int, ...]:
    return () if index is None else (index,)


def _all_tiles(hand: HandSpec) -> list[int]:
    return [*hand.held, *_tiles(hand.win_index)]


def _hold(most: Counter[int], tiles: Iterable[int]) -> set[int]:
    """Keep, per kind, the most this player has shown in any one hand."""
    counts = Counter(tiles)
    for kind, count in counts.items():
        most[kind] = max(most[kind], count)
    return set(counts)
