"""The table, live: the running totals, the hand in progress, their chart and the hands so far, on every
phone.

``watch_page`` draws it read-only for whoever holds a viewer link (no account needed); the board polls
for changes (``invites.watch_poll``) every ``POLL_SECONDS`` while the page is visible. A member's session
page polls too (``session.session_live``), carrying a *live pass*: his user id signed for the login his
session cookie names, so that an idle poll knows who asks without reading the login's row or the user's
(Django's session and auth middleware would spend a query on each), and checks the rest (member, active,
logged in) in the one query it spends on the revision.

A viewer's poll brings back what changed, not the board (``watch_parts``): the board is four parts, each
an element with an id: its head (open or closed), the seats, the hand in progress, and the hands played
with their chart. A poll that finds a new revision answers with its own element (the next poll, carrying
the revision and the ledger's tag) and, as htmx out-of-band swaps, the head, the seats and the hand,
which every event moves and which are small; the hands played only when the ledger's tag (the head of
its seal, moved by every round recorded, corrected or voided) differs from the one the phone has. The
board lists and charts the newest ``LIVE_HANDS`` hands only, so no answer grows with the session.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.signing import BadSignature, Signer
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from web.entry.events import table_rules
from web.entry.explain import event_views
from web.htmx import HtmxHttpRequest, page_or_fragment
from web.language import page_language

from .. import selectors
from ..models import SEATS, Session
from .trends import by_person, newest_nets, running_totals, trend_chart

POLL_SECONDS = 2  # a new hand shows within 3 s: the poll interval plus one answer
LIVE_HANDS = 12  # the hands a board lists and charts, newest first: tonight's last hour, a few KB always
LEDGER_TAG_LENGTH = 16  # of the seal's head: enough to tell two states of one session's ledger apart
LIVE_PASS_HEADER = "X-Live-Pass"  # noqa: S105 - a header's name, not a password
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


def ledger_tag(session: Session) -> str:
    """What the hands played part shows, in a word: the head of the session's seal (integrity.py), which
    every version written moves ("" before the first round)."""
    return session.ledger_digest[:LEDGER_TAG_LENGTH]


def board_context(session: Session) -> dict[str, Any]:
    """The totals per seat (the ledger's sums plus the hand in progress) with who has won or left it, the
    hand's events in the entry's words, and the newest ``LIVE_HANDS`` hands with their chart."""
    totals = selectors.session_totals(session)
    hand = selectors.session_hand(session)
    preview = hand.preview
    hand_net = list(preview.get("net") or [0] * SEATS)
    state = preview.get("state") or {}
    names = [seat.player_name for seat in totals.seats]  # the hand in progress's seats
    people = totals.players  # a column each in the hands and the chart: the seats now, then who left
    people_names = [person.player_name for person in people]
    rules = table_rules(session.rules)
    seats = [
        {
            "name": seat.player_name,
            "points": seat.points + hand_net[seat.seat],
            "hand": hand_net[seat.seat],
            "won": seat.seat in state.get("winners", ()),
            "wins": list(state.get("winners", ())).count(seat.seat),  # 血流成河: 胡×2
            "plays_on": rules.winners_play_on,  # a winner's seat stays live, as on the entry
            "escaped": seat.seat in state.get("escaped", ()),
        }
        for seat in totals.seats
    ]
    last = selectors.session_last_position(session)
    hands = by_person(
        selectors.session_hand_nets(session, after=max(0, last - LIVE_HANDS)),
        selectors.sittings([session]).get(session.pk, []),
        [person.player_id for person in people],
    )
    # the totals before the first hand shown: what the ledger sums, less what the hands shown moved
    before = [
        person.points - sum(shown.nets[column] for shown in hands) for column, person in enumerate(people)
    ]
    notes = [note or "" for note in hand.notes]
    return {
        "session": session,
        "totals": totals,
        "seats": seats,
        "hand": hand,
        "events": event_views(preview, notes, names, rules, page_language()),
        "dealer_name": totals.seats[hand.dealer].player_name if totals.seats else "",
        "names": people_names,
        "rounds": newest_nets(hands),
        "chart": trend_chart(people_names, running_totals(hands, start=before), start=before)
        if hands
        else "",
        "earlier_hands": last - len(hands),
        "revision": hand.revision,
        "ledger": ledger_tag(session),
        "poll_seconds": POLL_SECONDS,
    }


def watch_page(request: HtmxHttpRequest, session: Session, *, token: str) -> HttpResponse:
    context = {**board_context(session), "token": token}
    return page_or_fragment(request, "ledger/live/watch.html", "board", context)


def watch_parts(request: HttpRequest, session: Session, *, token: str, ledger: str) -> HttpResponse:
    """A poll's answer once something changed: the next poll and the parts it moved (see above); the
    hands played only when the phone's ``ledger`` tag is not the ledger's now."""
    context = {**board_context(session), "token": token, "oob": True}
    context["played_changed"] = ledger != context["ledger"]
    return render(request, "ledger/live/watch.html#parts", context)
