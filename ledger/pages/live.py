"""The table, live: the running totals and the hands so far, for every phone with the session open.

``watch_page`` draws it read-only for whoever holds a viewer link (no account needed).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import selectors
from ..models import SEATS, Session


def board_context(session: Session) -> dict[str, Any]:
    """What the live board shows: the totals per seat and each hand's net, newest first."""
    totals = selectors.session_totals(session)
    rounds = [
        {
            "position": row.position,
            "voided": row.voided,
            "corrected": row.version > 1,
            "net": [int(getattr(row, f"net_{seat}") or 0) for seat in range(SEATS)],
        }
        for row in selectors.round_net(session)
    ]
    rounds.reverse()
    return {"session": session, "totals": totals, "rounds": rounds}


def watch_page(request: HttpRequest, session: Session, *, token: str) -> HttpResponse:
    context = {**board_context(session), "token": token}
    return render(request, "ledger/live/watch.html", context)
