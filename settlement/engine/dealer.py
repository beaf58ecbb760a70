"""下一手的庄家 (RULES.md 9): who deals next, once the round has finished."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from calculator.engine import DealerRule

from .state import FirstWin, RoundState


def _first_winner(win: FirstWin) -> int:
    return win.winners[0]


def _discarder(win: FirstWin) -> int:
    """The one who dealt into the first win (a robbed player included); after a self-draw, the winner."""
    return win.winners[0] if win.discarder is None else win.discarder


def _first_winner_multi_discarder(win: FirstWin) -> int:
    return _discarder(win) if len(win.winners) > 1 else win.winners[0]


NEXT_DEALER: Mapping[DealerRule, Callable[[FirstWin], int]] = {
    DealerRule.FIRST_WINNER: _first_winner,
    DealerRule.DISCARDER: _discarder,
    DealerRule.FIRST_WINNER_MULTI_DISCARDER: _first_winner_multi_discarder,
}


def next_dealer(state: RoundState, rule: DealerRule) -> int | None:
    """None until the round is over and under ``dice``; nobody won: the dealer stays."""
    if not state.finished or rule is DealerRule.DICE:
        return None
    if state.first_win is None:
        return state.dealer
    return NEXT_DEALER[rule](state.first_win)
