"""刮风下雨: kong payments (RULES.md 4.4), and the two ways kong money moves later: 退税 refunds and the
呼叫转移 hand-over of 杠上炮 (4.7)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from calculator.engine import SUITS, TILE_NAMES, DirectKong, Rules

from .checks import check_can_act, check_open
from .events import EventKind, KongEvent, KongKind, fail
from .state import KongMade, KongPayment, PaymentState, Reason, RoundState, Step, Table, Transfer

KONG_REASONS: Mapping[KongKind, Reason] = {
    KongKind.DIRECT: Reason.DIRECT_KONG,
    KongKind.ADDED: Reason.ADDED_KONG,
    KongKind.CONCEALED: Reason.CONCEALED_KONG,
}


def _direct_shares(rules: Rules, payer: int, feeder: int | None) -> int:
    """直杠: the feeder pays 2b (承包, 家家有) or 1b (QQ); under 家家有 everyone else 1b, else nothing."""
    if payer == feeder:
        return 1 if rules.direct_kong is DirectKong.FEEDER_1 else 2
    return 1 if rules.direct_kong is DirectKong.JIA_JIA_YOU else 0


KONG_SHARES: Mapping[KongKind, Callable[[Rules, int, int | None], int]] = {
    KongKind.DIRECT: _direct_shares,
    KongKind.ADDED: lambda rules, payer, feeder: rules.added_kong_points,
    KongKind.CONCEALED: lambda rules, payer, feeder: rules.concealed_kong_points,
}


def settle_kong(state: RoundState, event: KongEvent, table: Table) -> Step:
    """Every active player other than the maker pays his share of b into the maker's kong income."""
    check_open(state, event.index, EventKind.KONG)
    check_can_act(state, event.player, event.index, "player")
    if event.feeder is not None:
        check_can_act(state, event.feeder, event.index, "from")
    void = table.void_suits[event.player]
    if event.tile is not None and void is not None and SUITS[event.tile // 9] == void:
        raise fail(
            f"events[{event.index}].tile",
            f"Player {event.player} declared {void} void (定缺): he cannot kong it.",
            f"玩家 {event.player} 定缺 {void}，不能杠这门牌。",
            event.index,
        )
    rules, maker, feeder = table.rules, event.player, event.feeder
    share, reason = KONG_SHARES[event.kind], KONG_REASONS[event.kind]
    tile = _tile_name(event.tile)
    detail = {"kong": event.index, "kind": event.kind.value, "tile": tile, "feeder": feeder}
    payments: list[KongPayment] = []
    transfers: list[Transfer] = []
    total = 0
    for payer in state.active:
        points = 0 if payer == maker else rules.base_points * share(rules, payer, feeder)
        if points > 0:
            payments.append(KongPayment(event.index, maker, payer, points))
            transfers.append(Transfer(event.index, payer, maker, points, reason, detail))
            total += points
    made = KongMade(event.index, maker, event.kind is KongKind.DIRECT, feeder)
    new_state = state.after_kong(tuple(payments), made)
    summary: dict[str, Any] = {
        "player": event.player,
        "kind": detail["kind"],
        "tile": tile,
        "from": feeder,
        "scores": [],
        "points": total,
    }
    return Step(tuple(transfers), new_state, summary)


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
    transfers = tuple(
        [
            Transfer(index, maker, payment.payer, payment.points, Reason.KONG_REFUND, {"kong": payment.kong})
            for payment in refunded
        ]
    )
    return transfers, state.with_payments_marked(refunded, PaymentState.REFUNDED)
