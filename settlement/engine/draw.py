"""流局 (RULES.md 5): 查花猪, then 查大叫, then 退税, among the players still in play.

Each check is a small function of the players' readiness and the state; the draw ends the round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from calculator.engine import EngineError, HuazhuRecipients, Rules

from .checks import check_open
from .events import DrawEvent, DrawStatus, EventKind, PlayerReport
from .hands import Readiness, readiness
from .kongs import refund_kong_income
from .state import SEATS, EventOutcome, Reason, RoundState, Table, Transfer
from .summaries import DrawSummary

Recipients = Callable[[RoundState, Mapping[int, Readiness]], tuple[int, ...]]


def _non_huazhu(state: RoundState, checks: Mapping[int, Readiness]) -> tuple[int, ...]:
    """Every non-pig who has not escaped, winners included."""
    return tuple(
        [seat for seat in SEATS if seat not in state.escaped and not (seat in checks and checks[seat].huazhu)]
    )


def _active_non_huazhu(state: RoundState, checks: Mapping[int, Readiness]) -> tuple[int, ...]:
    return tuple([seat for seat in state.active if not checks[seat].huazhu])


def _active_ready(state: RoundState, checks: Mapping[int, Readiness]) -> tuple[int, ...]:
    return tuple([seat for seat in state.active if checks[seat].ready])


HUAZHU_RECIPIENTS: Mapping[HuazhuRecipients, Recipients] = {
    HuazhuRecipients.NON_HUAZHU: _non_huazhu,
    HuazhuRecipients.ACTIVE: _active_non_huazhu,
    HuazhuRecipients.ACTIVE_READY: _active_ready,
}


def assess(
    state: RoundState,
    reports: tuple[PlayerReport, ...],
    expected: tuple[int, ...],
    table: Table,
    path: str,
    index: int,
) -> dict[int, Readiness]:
    """Each expected player's readiness; every one of them listed exactly once, nobody else."""
    for position, report in enumerate(reports):
        if report.player not in expected:
            code = (
                "listed_player_won"
                if report.player in state.winners
                else "listed_player_escaped"
                if report.player in state.escaped
                else "listed_player_escaping"
            )
            raise EngineError(code, field=f"{path}[{position}].player", event=index, player=report.player)
    listed = {report.player for report in reports}
    missing = [seat for seat in expected if seat not in listed]
    if missing:
        raise EngineError("player_not_listed", field=path, event=index, player=missing[0])
    return {
        report.player: readiness(
            report,
            void_suit=table.void_suits[report.player],
            rules=table.rules,
            path=f"{path}[{position}]",
            index=index,
        )
        for position, report in enumerate(reports)
    }


def settle_draw(state: RoundState, event: DrawEvent, table: Table) -> EventOutcome:
    """流局: every active player's readiness, then 查花猪, 查大叫 and 退税; the round ends."""
    index, rules = event.index, table.rules
    check_open(state, index, EventKind.DRAW)
    checks = assess(state, event.players, state.active, table, f"events[{index}].players", index)
    pigs = _huazhu(state, checks, rules, index)
    chajiao = _chajiao(state, checks, rules, index)
    refunds, state = _tui_shui(state, checks, rules, index)
    summary = DrawSummary(index, tuple([checks[seat] for seat in sorted(checks)]))
    return EventOutcome(pigs + chajiao + refunds, state.ended(), summary)


def _huazhu(
    state: RoundState, checks: Mapping[int, Readiness], rules: Rules, index: int
) -> tuple[Transfer, ...]:
    """查花猪: each pig pays ``huazhu_points`` to each recipient; pigs never pay each other."""
    points = rules.penalty(rules.huazhu_points)
    recipients = HUAZHU_RECIPIENTS[rules.huazhu_recipients](state, checks)
    return tuple(
        [
            Transfer(index, pig, recipient, points, Reason.HUAZHU, {"points": points})
            for pig in state.active
            if checks[pig].huazhu
            for recipient in recipients
            if points > 0
        ]
    )


def _chajiao(
    state: RoundState, checks: Mapping[int, Readiness], rules: Rules, index: int
) -> tuple[Transfer, ...]:
    """查大叫: every active non-pig who is not ready pays each ready player his best possible amount."""
    payers = [
        seat
        for seat in state.active
        if checks[seat].status is DrawStatus.NOT_READY or (checks[seat].huazhu and rules.huazhu_pays_chajiao)
    ]
    ready = [seat for seat in state.active if checks[seat].ready]
    return tuple(
        [
            Transfer(
                index,
                payer,
                winner,
                checks[winner].points,
                Reason.CHAJIAO,
                {"fan": checks[winner].fan, "points": checks[winner].points},
            )
            for payer in payers
            for winner in ready
        ]
    )


def _tui_shui(
    state: RoundState, checks: Mapping[int, Readiness], rules: Rules, index: int
) -> tuple[tuple[Transfer, ...], RoundState]:
    """退税: every active player who is not ready returns the kong income he still holds (none at all when
    ``tui_shui`` is off)."""
    if not rules.tui_shui:
        return (), state
    anyone_ready = any(checks[seat].ready for seat in state.active)
    transfers: tuple[Transfer, ...] = ()
    for seat in state.active:
        refunds = checks[seat].status is DrawStatus.NOT_READY or (
            checks[seat].huazhu and rules.huazhu_refunds_kongs
        )
        if refunds and (anyone_ready or rules.refund_when_nobody_ready):
            made, state = refund_kong_income(state, seat, index, rules)
            transfers += made
    return transfers, state
