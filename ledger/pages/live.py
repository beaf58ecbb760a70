"""The table, live: the running totals, the hand in progress, their chart and the hands so far, on every
phone.

``watch_page`` draws it read-only for whoever holds a viewer link (no account needed); the board polls
for changes (``invites.watch_poll``) every ``POLL_SECONDS`` while the page is visible. A member's session
page polls too (``session.session_live``), carrying a *live pass*: his user id signed for the login his
session cookie names, so that an idle poll knows who asks without reading the login's row or the user's
(Django's session and auth middleware would spend a query on each), and checks the rest (member, active,
logged in) in the one query it spends on the revision.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.signing import BadSignature, Signer
from django.http import HttpRequest, HttpResponse

from web.htmx import HtmxHttpRequest, page_or_fragment

from .. import selectors
from ..models import SEATS, Session
from .trends import newest_nets, running_totals, trend_chart

POLL_SECONDS = 2  # a new hand shows within 3 s: the poll interval plus one answer
LIVE_PASS_HEADER = "X-Live-Pass"
REVISION_HEADER = "X-Live-Revision"  # on a poll's answer: live.js never swaps in one older than the page


def _pass_signer(login_key: str) -> Signer:
    """Each login signs with its own salt: a pass is worth nothing beside another login's cookie."""
    return Signer(salt=f"sczmj.live-pass.{login_key}")


def live_pass(request: HttpRequest) -> str:
    """The pass a logged-in member's page gives its poll (in ``LIVE_PASS_HEADER``). It grants nothing the
    session cookie beside it does not: it only spares the idle poll the reads that say whose cookie it is."""
    return _pass_signer(request.session.session_key or "").sign(str(request.user.pk))


def pass_holder(request: HttpRequest) -> tuple[int, str] | None:
    """(user id, login key) when the poll's pass was signed for the login cookie it came with; no query.
    Whether that login and that member still exist is the revision query's to say."""
    login_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if not login_key:
        return None
    try:
        user_id = _pass_signer(login_key).unsign(request.headers.get(LIVE_PASS_HEADER, ""))
    except BadSignature:
        return None
    return int(user_id), login_key


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
        "names": names,
        "rounds": newest_nets(hands),
        "chart": trend_chart(names, running_totals(hands)) if hands else "",
        "revision": hand.revision,
        "poll_seconds": POLL_SECONDS,
    }


def watch_page(request: HtmxHttpRequest, session: Session, *, token: str) -> HttpResponse:
    context = {**board_context(session), "token": token}
    return page_or_fragment(request, "ledger/live/watch.html", "board", context)
