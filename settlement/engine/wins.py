"""Wins: 点炮, 自摸, 一炮多响 / 截胡, 抢杠胡, 点杠花 and 杠上炮 with 呼叫转移 (RULES.md 4.1 to 4.7).

A win is paid in *shares*: one share is ``amount(fan)``, plus 1b of 自摸加底 where the situation is a
self-draw share under ``jia_di``. Each situation says whose shares are paid and by whom:

| situation        | shares for                         | paid by          | 加底 |
|------------------|------------------------------------|------------------|-----|
| discard          | the discarder                      | the discarder    | no  |
| robbed (discard) | the robbed player                  | the robbed       | no  |
| robbed (bao)     | everyone active before but the robber | the robbed    | yes |
| self_draw        | every active opponent              | each himself     | yes |
| 点杠花 dianpao    | the feeder                         | the feeder       | no  |
| 点杠花 bao        | every active opponent              | the feeder       | yes |
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from calculator.engine import (
    DianGangHua,
    EngineError,
    GangShangPaoTransfer,
    Mode,
    MultiWin,
    MultiWinnerTransfer,
    QiangGangPayment,
    ZimoBonus,
)

from .checks import check_can_act, check_open
from .events import EventKind, WinEvent, WinnerSpec
from .hands import WinScore, score_winner
from .kongs import refund_last_kong
from .state import SEATS, EventOutcome, FirstWin, KongMade, PaymentState, Reason, RoundState, Table, Transfer
from .summaries import WinnerScore, WinSummary

BLOOD_BATTLE_WINNERS = 3  # the third win ends a 血战到底 round
# Whether a round ends once it has this many wins: the first (normal), the third (血战到底), never (血流成河,
# which ends only at a 流局 or an escape, RULES.md 7.1).
ENDS_ON_WIN: Mapping[Mode, Callable[[int], bool]] = {
    Mode.NORMAL: lambda wins: True,
    Mode.XUEZHAN: lambda wins: wins >= BLOOD_BATTLE_WINNERS,
    Mode.XUELIU: lambda wins: False,
}


class Situation(enum.StrEnum):
    DISCARD = "discard"
    ROBBED = "robbed_kong"
    ROBBED_BAO = "robbed_kong_bao"
    SELF_DRAW = "self_draw"
    DIAN_GANG_HUA_DIANPAO = "dian_gang_hua_dianpao"
    DIAN_GANG_HUA_BAO = "dian_gang_hua_bao"


WIN_BY: Mapping[Situation, str] = {
    Situation.DISCARD: "discard",
    Situation.ROBBED: "robbing_kong",
    Situation.ROBBED_BAO: "robbing_kong",
    Situation.SELF_DRAW: "self_draw",
    Situation.DIAN_GANG_HUA_DIANPAO: "self_draw",
    Situation.DIAN_GANG_HUA_BAO: "self_draw",
}
WITH_BONUS = frozenset({Situation.ROBBED_BAO, Situation.SELF_DRAW, Situation.DIAN_GANG_HUA_BAO})
ONE_SHARE = frozenset({Situation.DISCARD, Situation.ROBBED, Situation.DIAN_GANG_HUA_DIANPAO})
# The field of each claimant's seat within a win event, made once: the parser lets through at most one
# claimant per seat, and these checks run for every winner of every round.
WINNER_SEATS = tuple([f"winners[{position}].player" for position in range(len(SEATS))])


class Shares(NamedTuple):
    """Whose shares a winner is paid and who pays them: ``payer`` None means each covered player himself."""

    covered: tuple[int, ...]
    payer: int | None
    bonus: int  # 自摸加底 per share, in points


def settle_win(state: RoundState, event: WinEvent, table: Table) -> EventOutcome:
    """Check the win is possible now, score its claimants, pay the winners, hand over 杠上炮 kong money."""
    index, rules = event.index, table.rules
    check_open(state, index, EventKind.WIN)
    if event.discarder is not None:
        check_can_act(state, event.discarder, index, "from")
    for position, winner in enumerate(event.winners):
        check_can_act(state, winner.player, index, WINNER_SEATS[position])
        if winner.tian_hu or winner.di_hu:
            _check_tian_di_hu(state, winner, table, position, index, self_draw=event.discarder is None)
    kong = _kong_just_before(state, event)
    situation = _situation(event, kong, table)
    win_by, name = WIN_BY[situation], situation.value
    scoring_rules = (
        rules.with_options(zimo_bonus=ZimoBonus.NONE)
        if situation is Situation.DIAN_GANG_HUA_DIANPAO
        else rules
    )
    scores = tuple(
        [
            score_winner(
                event, position, win_by=win_by, void_suit=table.void_suits[winner.player], rules=scoring_rules
            )
            for position, winner in _in_play_order(event.winners, event.discarder)
        ]
    )
    winning = scores if rules.multi_win is MultiWin.ALL else scores[:1]
    paid = tuple(
        [
            transfer
            for score in winning
            for transfer in _pay(
                score, _shares(situation, state, event, score.player, kong, table), name, index
            )
        ]
    )
    won = tuple([score.player for score in winning])
    handed, state = _hand_over_kong_income(state, event, kong, won, table)
    new_state = state.after_win(
        won,
        paid,
        last_tile=event.last_tile,
        first_win=state.first_win or FirstWin(event.discarder, won),
        finished=ENDS_ON_WIN[rules.mode](len(state.winners) + len(won)),
    )
    kong_transfer = sum([transfer.points for transfer in handed if transfer.reason is Reason.KONG_TRANSFER])
    refunds = rules.gang_shang_pao_transfer is GangShangPaoTransfer.REFUND
    # Positional, as the other summaries are built: a class called with keywords packs them into a dict and
    # unpacks them again, about 5,000 instructions for these eleven, every win.
    summary = WinSummary(
        index,
        event.discarder,
        win_by,
        name,
        event.robbing,
        event.after_kong,
        event.last_tile,
        None if kong is None else kong.kong,
        tuple([WinnerScore(score, score.player in won) for score in scores]),
        kong_transfer,
        sum([transfer.points for transfer in handed]) if refunds else None,
    )
    return EventOutcome(paid + handed, new_state, summary)


def _in_play_order(
    winners: tuple[WinnerSpec, ...], discarder: int | None
) -> tuple[tuple[int, WinnerSpec], ...]:
    """Winners of one discard in play order after the discarder, each with his position in the event."""
    numbered = tuple(enumerate(winners))
    if discarder is None or len(numbered) == 1:  # one winner (every self-draw, most discards): no order
        return numbered
    return tuple(sorted(numbered, key=lambda item: (item[1].player - discarder) % 4))


def _kong_just_before(state: RoundState, event: WinEvent) -> KongMade | None:
    """The kong an ``after_kong`` win follows: the discarder's (杠上炮) or the self-drawer's (杠上花)."""
    if not event.after_kong:
        return None
    maker = event.discarder if event.discarder is not None else event.winners[0].player
    kong = state.previous_kong
    if kong is None or kong.maker != maker:
        raise EngineError(
            "after_kong_without_kong_before",
            field=f"events[{event.index}].after_kong",
            event=event.index,
            player=maker,
        )
    return kong


def _check_tian_di_hu(
    state: RoundState, winner: WinnerSpec, table: Table, position: int, index: int, *, self_draw: bool
) -> None:
    """What the events can show of 天胡 / 地胡: who, and that no kong (or, for 天胡, anything) came before."""
    if winner.tian_hu and (winner.player != table.dealer or not self_draw or index != 0):
        raise EngineError(
            "tian_hu_out_of_place", field=f"events[{index}].winners[{position}].tian_hu", event=index
        )
    if winner.di_hu and (winner.player == table.dealer or state.any_kong):
        raise EngineError(
            "di_hu_out_of_place", field=f"events[{index}].winners[{position}].di_hu", event=index
        )


def _situation(event: WinEvent, kong: KongMade | None, table: Table) -> Situation:
    rules = table.rules
    if event.robbing:
        return Situation.ROBBED_BAO if rules.qiang_gang_payment is QiangGangPayment.BAO else Situation.ROBBED
    if event.discarder is not None:
        return Situation.DISCARD
    if kong is not None and kong.direct:
        return {
            DianGangHua.ZIMO: Situation.SELF_DRAW,
            DianGangHua.DIANPAO: Situation.DIAN_GANG_HUA_DIANPAO,
            DianGangHua.BAO: Situation.DIAN_GANG_HUA_BAO,
        }[rules.dian_gang_hua]
    return Situation.SELF_DRAW


def _shares(
    situation: Situation, state: RoundState, event: WinEvent, winner: int, kong: KongMade | None, table: Table
) -> Shares:
    bonus = table.rules.self_draw_bonus if situation in WITH_BONUS else 0
    if situation in ONE_SHARE:
        feeder = (
            kong.feeder
            if situation is Situation.DIAN_GANG_HUA_DIANPAO and kong is not None
            else event.discarder
        )
        assert feeder is not None  # noqa: S101 - the situation implies a feeder
        return Shares((feeder,), feeder, bonus)
    opponents = tuple([seat for seat in state.in_play if seat != winner])  # in play before this win
    if situation is Situation.ROBBED_BAO:
        return Shares(opponents, event.discarder, bonus)  # co-robbers and the robbed himself included
    if situation is Situation.DIAN_GANG_HUA_BAO:
        assert kong is not None  # noqa: S101 - the situation implies a kong
        return Shares(opponents, kong.feeder, bonus)
    return Shares(opponents, None, bonus)


def _pay(score: WinScore, shares: Shares, name: str, index: int) -> tuple[Transfer, ...]:
    """Each covered player's share of ``score`` (and 加底), from him or from the one paying for all; ``name``
    is the situation's, which every transfer's detail carries."""
    detail: dict[str, Any] = {**score.explained, "situation": name}
    transfers: list[Transfer] = []
    for covered in shares.covered:
        payer = covered if shares.payer is None else shares.payer
        on_behalf = {"on_behalf_of": covered} if payer != covered else {}
        win_detail = {**detail, **on_behalf} if on_behalf else detail  # shared, as a kong's payers share
        transfers.append(Transfer(index, payer, score.player, score.points, Reason.WIN, win_detail))
        if shares.bonus:
            transfers.append(
                Transfer(
                    index,
                    payer,
                    score.player,
                    shares.bonus,
                    Reason.SELF_DRAW_BONUS,
                    {"situation": name, **on_behalf},
                )
            )
    return tuple(transfers)


def _hand_over_kong_income(
    state: RoundState, event: WinEvent, kong: KongMade | None, winners: tuple[int, ...], table: Table
) -> tuple[tuple[Transfer, ...], RoundState]:
    """呼叫转移: after 杠上炮 the kong player hands his kong income to the winners (RULES.md 4.7)."""
    rules = table.rules
    if kong is None or event.discarder is None or rules.gang_shang_pao_transfer is GangShangPaoTransfer.NONE:
        return (), state
    if rules.gang_shang_pao_transfer is GangShangPaoTransfer.REFUND:
        return refund_last_kong(state, kong, event.index)
    only = kong.kong if rules.gang_shang_pao_transfer is GangShangPaoTransfer.LAST_KONG else None
    income = state.kong_income(event.discarder, only)
    total = sum([payment.points for payment in income])
    detail = {
        "kongs": sorted({payment.kong for payment in income}),
        "income": total,
        "transfer": rules.gang_shang_pao_transfer.value,
        "multi_winner": rules.multi_winner_transfer.value,
    }
    transfers = tuple(
        [
            Transfer(event.index, event.discarder, winner, points, Reason.KONG_TRANSFER, detail)
            for winner, points in _copies(total, winners, rules.multi_winner_transfer)
            if points > 0
        ]
    )
    return transfers, state.with_payments_marked(income, PaymentState.TRANSFERRED)


def _copies(total: int, winners: tuple[int, ...], how: MultiWinnerTransfer) -> tuple[tuple[int, int], ...]:
    """Each winner's part of the handed-over income: a full copy each, all to the first, or split evenly."""
    if how is MultiWinnerTransfer.EACH:
        return tuple([(winner, total) for winner in winners])
    if how is MultiWinnerTransfer.FIRST:
        return ((winners[0], total),)
    part, remainder = divmod(total, len(winners))
    return tuple(
        [(winner, part + (remainder if position == 0 else 0)) for position, winner in enumerate(winners)]
    )
