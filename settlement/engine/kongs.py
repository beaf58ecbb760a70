"""刮风下雨: kong payments (RULES.md 4.4), and the two ways kong money moves later: 退税 refunds and the
呼叫转移 hand-over of 杠上炮 (4.7)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from calculator.engine import SUITS, TILE_NAMES, DirectKong, EngineError, Rules

from .checks import check_can_act, check_open
from .events import EventKind, KongEvent, KongKind
from .state import EventOutcome, KongMade, KongPayment, PaymentState, Reason, RoundState, Table, Transfer
from .summaries import KongSummary

KONG_REASONS: Mapping[KongKind, Reason] = {
    KongKind.DIRECT: Reason.DIRECT_KONG,
    KongKind.ADDED: Reason.ADDED_KONG,
    KongKind.CONCEALED: Reason.CONCEALED_KONG,
}


# 直杠 (RULES.md 4.4): (the feeder's share, every other active opponent's share), in b.
DIRECT_SHARES: Mapping[DirectKong, tuple[int, int]] = {
    DirectKong.CHENGBAO: (2, 0),
    DirectKong.JIA_JIA_YOU: (2, 1),
    DirectKong.FEEDER_1: (1, 0),
    DirectKong.EVERY_1: (1, 1),
}


def _direct_shares(rules: Rules, payer: int, feeder: int | None) -> int:
    feeder_share, other_share = DIRECT_SHARES[rules.direct_kong]
    return feeder_share if payer == feeder else other_share


KONG_SHARES: Mapping[KongKind, Callable[[Rules, int, int | None], int]] = {
    KongKind.DIRECT: _direct_shares,
    KongKind.ADDED: lambda rules, payer, feeder: rules.added_kong_points,
    KongKind.CONCEALED: lambda rules, payer, feeder: rules.concealed_kong_points,
}


def settle_kong(state: RoundState, event: KongEvent, table: Table) -> EventOutcome:
    """Every player in play other than the maker pays his share of b into the maker's kong income."""
    check_open(state, event.index, EventKind.KONG)
    check_can_act(state, event.player, event.index, "player")
    if event.feeder is not None:
        check_can_act(state, event.feeder, event.index, "from")
    void = table.void_suits[event.player]
    if event.tile is not None and void is not None and SUITS[event.tile // 9] == void:
        raise EngineError(
            "kong_of_void_suit",
            field=f"events[{event.index}].tile",
            event=event.index,
            player=event.player,
            suit=void,
        )
    rules, maker, feeder = table.rules, event.player, event.feeder
    share, reason = KONG_SHARES[event.kind], KONG_REASONS[event.kind]
    tile = _tile_name(event.tile)
    detail = {"kong": event.index, "kind": event.kind.value, "tile": tile, "feeder": feeder}
    payments: list[KongPayment] = []
    transfers: list[Transfer] = []
    total = 0
    for payer in state.in_play:
        points = 0 if payer == maker else rules.base_points * share(rules, payer, feeder)
        if points > 0:
            payments.append(KongPayment(event.index, maker, payer, points))
            transfers.append(Transfer(event.index, payer, maker, points, reason, detail))
            total += points
    made = KongMade(event.index, maker, event.kind is KongKind.DIRECT, feeder)
    new_state = state.after_kong(tuple(payments), made)
    summary = KongSummary(event.index, event.player, event.kind, tile, feeder, total)
    return EventOutcome(tuple(transfers), new_state, summary)


def _tile_name(tile: int | None) -> str | None:
    return None if tile is None else TILE_NAMES[tile]


def refund_kong_income(
    state: RoundState, maker: int, index: int, rules: Rules
) -> tuple[tuple[Transfer, ...], RoundState]:
    """退税: ``maker`` returns every kong payment he still holds to its payer (RULES.md 5.3), but never to a
    payer who escaped, and to one who has won only under ``refund_to_won_payers``."""
    refunded = tuple(
        [
            payment
            for payment in state.kong_income(maker)
            if payment.payer not in state.escaped
            and (rules.refund_to_won_payers or payment.payer not in state.winners)
        ]
    )
    return refund_payments(state, refunded, index, {})


def refund_last_kong(
    state: RoundState, kong: KongMade, index: int
) -> tuple[tuple[Transfer, ...], RoundState]:
    """退杠 (``gang_shang_pao_transfer`` = refund, RULES.md 4.7): on 杠上炮 what the kong player still holds
    of his last kong goes back to its payers, once however many won; an escaped payer gets nothing back."""
    refunded = tuple(
        [
            payment
            for payment in state.kong_income(kong.maker, kong.kong)
            if payment.payer not in state.escaped
        ]
    )
    return refund_payments(state, refunded, index, {"gang_shang_pao": True})


def refund_payments(
    state: RoundState, payments: tuple[KongPayment, ...], index: int, detail: Mapping[str, Any]
) -> tuple[tuple[Transfer, ...], RoundState]:
    """Each of ``payments`` (records of ``state``) goes back from the kong's maker to its payer."""
    transfers = tuple(
        [
            Transfer(
                index,
                payment.maker,
                payment.payer,
                payment.points,
                Reason.KONG_REFUND,
                {"kong": payment.kong, **detail},
            )
            for payment in payments
        ]
    )
    return transfers, state.with_payments_marked(payments, PaymentState.REFUNDED)
