"""Settling one round from its events (RULES.md 4 to 9).

The pipeline:
1. read the rules, dealer, void suits, coins and every event (``events.py``): shapes, types, seats, tiles;
2. count every tile the round names (``census.py``): no kind more than 4 times;
3. replay the events in order, each through its own handler (``kongs.py``, ``wins.py``, ``draw.py``,
   ``escape.py``, ``adjust.py``), which checks that the event is possible now, then returns the transfers
   it causes and the next immutable ``RoundState``;
4. net the transfers per seat (the house holds burned penalties; everything sums to 0);
5. the next dealer (``dealer.py``) once the round is over, and coins (``coins.py``) when asked. A round
   of adjustments only is over at once and keeps its dealer (RULES.md 4.8).
Any EngineError in 1 to 3 rejects the whole round: nothing is paid until every event has passed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from calculator.engine import MAX_ROUND_POINTS, EngineError, Rules

from .adjust import settle_adjust
from .census import check_tile_census
from .checks import check_robbed_kongs
from .coins import CoinResult, CoinStakes, parse_coins, settle_coins
from .dealer import next_dealer
from .draw import settle_draw
from .escape import settle_escape
from .events import (
    AdjustEvent,
    DrawEvent,
    EscapeEvent,
    EventKind,
    KongEvent,
    WinEvent,
    parse_dealer,
    parse_events,
    parse_void_suits,
)
from .kongs import settle_kong
from .state import SEATS, EventOutcome, RoundState, Table, Transfer
from .summaries import EventSummary
from .wins import settle_win

Handler = Callable[[RoundState, Any, Table], EventOutcome]
HANDLERS: Mapping[type, Handler] = {
    KongEvent: settle_kong,
    WinEvent: settle_win,
    DrawEvent: settle_draw,
    EscapeEvent: settle_escape,
    AdjustEvent: settle_adjust,
}


@dataclass(frozen=True, slots=True)
class Paid:
    """Points one seat paid another (``payee`` None: the house) by one event, all reasons together."""

    payer: int
    payee: int | None
    points: int


@dataclass(frozen=True, slots=True)
class EventMoney:
    """What one event of a round moved, for a page that explains the round event by event."""

    index: int
    net: tuple[int, ...]
    house: int
    paid: tuple[Paid, ...]  # in the order of the event's transfers


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A settled round: every transfer with its reason, the net per seat, and what each event decided."""

    transfers: tuple[Transfer, ...]
    net: tuple[int, ...]
    house: int
    events: tuple[EventSummary, ...]
    winners: tuple[int, ...]
    finished: bool
    next_dealer: int | None
    coins: CoinResult | None
    state: RoundState
    rules: Rules
    before: tuple[RoundState, ...] = ()  # the round as each event found it: who had won or left by then

    def recoined(self, coins: Any, dealer: int) -> RoundResult:
        """The round settled against other coin stakes (``coins`` as ``settle_round`` takes them): its
        points do not depend on them, so only its coins are settled again, as ``settle_round`` does."""
        return replace(self, coins=_coins(self.net, self.house, parse_coins(coins), self.rules, dealer))

    @property
    def adjustment_round(self) -> bool:
        """Adjustments only (RULES.md 4.8): not a hand, so statistics count no hand, win or loss for it."""
        return bool(self.events) and all(summary.kind is EventKind.ADJUST for summary in self.events)

    def event_money(self, index: int) -> EventMoney:
        """What event ``index`` moved: its net per seat (and the house's), and who paid whom how much."""
        own = [transfer for transfer in self.transfers if transfer.event == index]
        net, house = _net(own)
        paid: dict[tuple[int, int | None], int] = {}
        for transfer in own:
            pair = (transfer.payer, transfer.payee)
            paid[pair] = paid.get(pair, 0) + transfer.points
        return EventMoney(
            index, net, house, tuple(Paid(payer, payee, points) for (payer, payee), points in paid.items())
        )

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "transfers": [transfer.to_dict() for transfer in self.transfers],
            "net": list(self.net),
            "house": self.house,
            "events": [summary.to_dict() for summary in self.events],
            "winners": list(self.winners),
            "finished": self.finished,
            "next_dealer": self.next_dealer,
            "state": self.state.to_dict(),
        }
        if self.coins is not None:
            body["coins"] = self.coins.to_dict()
        return body


def settle_round(
    *,
    dealer: Any,
    events: Any,
    rules: Rules | Mapping[str, Any] | None = None,
    void_suits: Any = None,
    coins: Any = None,
) -> RoundResult:
    """Replay a round's events (finished or not) and settle it; raises EngineError naming the bad field."""
    table_rules = rules if isinstance(rules, Rules) else Rules.from_dict(rules)
    seat = parse_dealer(dealer)
    suits = parse_void_suits(void_suits)
    stakes = parse_coins(coins)
    parsed = parse_events(events)
    check_tile_census(parsed)
    check_robbed_kongs(parsed)
    table = Table(table_rules, seat, suits if table_rules.dingque else (None,) * len(SEATS))
    state = RoundState(dealer=seat, winners_play_on=table_rules.winners_play_on)
    transfers: list[Transfer] = []
    summaries: list[EventSummary] = []
    before: list[RoundState] = []
    moved = 0
    for event in parsed:
        before.append(state)
        handler = HANDLERS[type(event)]
        step = handler(state, event, table)
        moved = _check_round_bound(moved + sum([transfer.points for transfer in step.transfers]), event.index)
        transfers.extend(step.transfers)
        summaries.append(step.summary)
        state = step.state
    adjustments_only = bool(parsed) and all([isinstance(event, AdjustEvent) for event in parsed])
    if adjustments_only:
        state = state.ended()  # an adjustment round: finished at once, not a hand (RULES.md 4.8)
    net, house = _net(transfers)
    return RoundResult(
        transfers=tuple(transfers),
        net=net,
        house=house,
        events=tuple(summaries),
        winners=state.winners,
        finished=state.finished,
        next_dealer=seat if adjustments_only else next_dealer(state, table_rules.dealer_rule),
        coins=_coins(net, house, stakes, table_rules, seat),
        state=state,
        rules=table_rules,
        before=tuple(before),
    )


def _coins(
    net: Sequence[int], house: int, stakes: CoinStakes | None, rules: Rules, dealer: int
) -> CoinResult | None:
    return None if stakes is None else settle_coins(net, house, stakes, rules.tax_rate, dealer)


def _check_round_bound(moved: int, index: int) -> int:
    """The round's transfers so far stay under ``MAX_ROUND_POINTS``; the event that passes it is named."""
    if moved <= MAX_ROUND_POINTS:
        return moved
    raise EngineError(
        "round_too_large", field=f"events[{index}]", event=index, points=moved, maximum=MAX_ROUND_POINTS
    )


def _net(transfers: Sequence[Transfer]) -> tuple[tuple[int, ...], int]:
    net = [0] * len(SEATS)
    house = 0
    for transfer in transfers:
        net[transfer.payer] -= transfer.points
        if transfer.payee is None:
            house += transfer.points
        else:
            net[transfer.payee] += transfer.points
    return tuple(net), house
