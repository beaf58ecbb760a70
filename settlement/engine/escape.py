"""逃跑 (RULES.md 6): an active player who leaves ends the round and pays; a winner who leaves does not,
except under 血流成河 (7.1), where a winner leaves like anyone in play: kong income back, the penalty to
each other player in play who has not won, the round over."""

from __future__ import annotations

from calculator.engine import EngineError, EscapedWinner, EscapePenaltyTo

from .checks import check_open
from .draw import assess
from .events import EscapeEvent, EventKind
from .hands import Readiness
from .kongs import refund_kong_income
from .state import EventOutcome, Reason, RoundState, Table, Transfer
from .summaries import EscapeSummary

NEAR_THE_END = 4  # with this many wall tiles left or fewer, a ready player is owed at least his 查大叫 value


def settle_escape(state: RoundState, event: EscapeEvent, table: Table) -> EventOutcome:
    """A player in play leaves: kong income back, a penalty to each other active player, the round ends."""
    index, path = event.index, f"events[{event.index}]"
    check_open(state, index, EventKind.ESCAPE)
    if event.player in state.escaped:
        raise EngineError("escaped_twice", field=f"{path}.player", event=index, player=event.player)
    if event.player in state.winners and not state.winners_play_on:
        return _winner_leaves(state, event, table)
    if event.tiles_left is None:
        raise EngineError("escape_without_tiles_left", field=f"{path}.tiles_left", event=index)
    others = tuple(seat for seat in state.active if seat != event.player)
    near_end = event.tiles_left <= NEAR_THE_END
    if near_end and event.players is None:
        raise EngineError(
            "escape_near_the_end_without_players",
            field=f"{path}.players",
            event=index,
            tiles_left=event.tiles_left,
        )
    checks = (
        {} if event.players is None else assess(state, event.players, others, table, f"{path}.players", index)
    )
    refunds, state = refund_kong_income(state, event.player, index, table.rules)
    base = table.rules.penalty(table.rules.escape_points)
    burn = table.rules.escape_penalty_to is EscapePenaltyTo.BURN
    penalties = tuple(
        Transfer(
            index,
            event.player,
            None if burn else seat,
            points,
            Reason.ESCAPE,
            {"for": seat, "escape_points": base, "chajiao": points > base},
        )
        for seat in others
        if (points := _owed(base, checks.get(seat), near_end)) > 0
    )
    had_won = event.player in state.winners  # only under 血流成河 does a winner's escape end the round
    summary = EscapeSummary(
        index, event.player, event.tiles_left, had_won, tuple([checks[seat] for seat in sorted(checks)])
    )
    new_state = state.after_escape(event.player, finished=True)
    return EventOutcome(refunds + penalties, new_state, summary)


def _owed(base: int, check: Readiness | None, near_end: bool) -> int:
    """The escape penalty, or near the end of the wall a ready player's 查大叫 value when that is larger."""
    return max(base, check.points) if near_end and check is not None and check.ready else base


def _winner_leaves(state: RoundState, event: EscapeEvent, table: Table) -> EventOutcome:
    """A winner leaves: no penalty, the round goes on; under ``forfeit`` his win and 加底 go back."""
    forfeit = table.rules.escaped_winner is EscapedWinner.FORFEIT
    returned = tuple(
        Transfer(
            event.index,
            event.player,
            receipt.payer,
            receipt.points,
            Reason.WIN_FORFEIT,
            {"win_event": receipt.event, "returned": receipt.reason.value},
        )
        for receipt in state.win_receipts
        # an escaped payer receives nothing later, as at 退税
        if forfeit and receipt.payee == event.player and receipt.payer not in state.escaped
    )
    summary = EscapeSummary(event.index, event.player, event.tiles_left, True, (), forfeit)
    return EventOutcome(returned, state.after_escape(event.player, finished=state.finished), summary)
