"""Adjustments (RULES.md 4.8): 罚分, 诈胡, a side bet, points no rule computes.

An adjustment pays and changes nothing else: nobody's status, no kong record, not the kong an
``after_kong`` win follows (the handler returns the state it was given), so 呼叫转移, 退税 and 查大叫
never see it. It may stand anywhere before the round's end, also after a win on the last tile, and an
escaped player may pay or receive one.
"""

from __future__ import annotations

from calculator.engine import EngineError

from .checks import check_open
from .events import AdjustEvent, EventKind
from .state import HOUSE, EventOutcome, Reason, RoundState, Table, Transfer
from .summaries import AdjustSummary


def settle_adjust(state: RoundState, event: AdjustEvent, table: Table) -> EventOutcome:
    """``payer`` pays ``amount`` b to one seat, to each other player in play, or to the house."""
    check_open(state, event.index, EventKind.ADJUST)
    points = event.amount * table.rules.base_points
    payees = _payees(state, event)
    to = HOUSE if event.payee is None else event.payee
    detail = {"note": event.reason, "to": to, "amount": event.amount}
    transfers = tuple(
        [Transfer(event.index, event.payer, payee, points, Reason.ADJUST, detail) for payee in payees]
    )
    summary = AdjustSummary(event.index, event.payer, to, event.amount, points, event.reason)
    return EventOutcome(transfers, state, summary)


def _payees(state: RoundState, event: AdjustEvent) -> tuple[int | None, ...]:
    """``each``: every other player in play (blood battle: the active ones; 血流成河: all who have not
    escaped); nobody left to receive it is a mistake, not a payment of nothing."""
    if not isinstance(event.payee, str):  # a seat, or None: the house
        return (event.payee,)
    payees = tuple([seat for seat in state.in_play if seat != event.payer])
    if not payees:
        raise EngineError("adjust_nobody_in_play", field=f"events[{event.index}].to", event=event.index)
    return payees
