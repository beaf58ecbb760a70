"""The table, live: the running totals, the hand in progress, their chart and the hands so far, on every
phone.

``watch_page`` draws it read-only for whoever holds a viewer link (no account needed); the board polls
for changes (``invites.watch_poll``) every ``POLL_SECONDS`` while the page is visible.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import selectors
from ..models import SEATS, Session
from .trends import running_totals, trend_chart

POLL_SECONDS = 2  # a new hand shows within 3 s: the poll interval plus one answer


def board_context(session: Session) -> dict[str, Any]:
    """The totals per seat (the ledger's sums plus the hand in progress), the hand, each hand's net."""
    totals = selectors.session_totals(session)
    hand = selectors.session_hand(session)
    hand_net = list(hand.preview.get("net") or [0] * SEATS)
    seats = [
        {"name": seat.player_name, "points": seat.points + hand_net[seat.seat], "hand": hand_net[seat.seat]}
        for seat in totals.seats
    ]
    hands = selectors.session_hand_nets(session)
    names = [seat.player_name for seat in totals.seats]
    return {
        "session": session,
        "totals": totals,
        "seats": seats,
        "hand": hand,
        "hand_notes": [note for note in hand.notes if note],
        "dealer_name": totals.seats[hand.dealer].player_name if totals.seats else "",
        "rounds": hands[::-1],
        "chart": trend_chart(names, running_totals(hands)) if hands else "",
        "revision": hand.revision,
        "poll_seconds": POLL_SECONDS,
    }


def watch_page(request: HttpRequest, session: Session, *, token: str) -> HttpResponse:
    context = {**board_context(session), "token": token}
    template = "ledger/live/watch.html#board" if getattr(request, "htmx", False) else "ledger/live/watch.html"
    return render(request, template, context)
