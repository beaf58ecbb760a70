"""换人 / 换座 ``/sessions/<id>/seats/``: between two hands, a substitute takes a seat or two seats swap
(``services.session_seats_change``; the model: docs/ledger.md, "Substitutes").

Reached from the session page's header (owners and scorekeepers of an open session). Each seat is a row:
its player, a name box (the group's players offered, a new name becomes a player) and 换人; below, one
row swaps two seats. A change is made from the hand about to be played: once that hand has an event the
page says so instead of offering the forms, and a form posted anyway gets the same words from the
service. Done, it goes back to the table, which shows the new seating.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from web.htmx import SignedInRequest

from .. import selectors, services
from ..errors import SeatChangeRefusedError
from ..models import WRITER_ROLES, Session
from .debts import form_number
from .links import session_url
from .refusals import REFUSALS, Refusal, ledger_words, refusal_message


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def seats_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    if request.method != "POST":
        return _page(request, session)
    name = request.POST.get("name")
    swap = request.POST.get("swap")
    try:
        services.session_seats_change(
            actor=request.user,
            session=session,
            revision=form_number(request.POST.get("revision")),
            seat=form_number(request.POST.get("seat")),
            name=None if swap else (name or "").strip(),
            swap=form_number(swap) if swap else None,
        )
    except REFUSALS as error:
        return _page(request, session, refusal=error)
    names = ", ".join(seat.player.name for seat in selectors.session_seats(session))
    messages.success(request, _("From this hand on the table is %(names)s.") % {"names": names})
    return HttpResponseRedirect(session_url(session), status=303)


def _page(request: SignedInRequest, session: Session, *, refusal: Refusal | None = None) -> HttpResponse:
    role = selectors.role_in(user=request.user, group=session.group)
    hand = selectors.session_hand(session)
    if role not in WRITER_ROLES:
        blocked = ledger_words("role_forbids")
    elif not session.is_open:
        blocked = ledger_words("session_closed")
    elif session.coins_enabled:
        blocked = ledger_words("seat_change_coins")
    elif hand.events:
        blocked = ledger_words("seat_change_mid_hand")
    else:
        blocked = ""
    context = {
        "session": session,
        "seats": selectors.session_seats(session),
        "players": selectors.group_players(session.group),
        "hand": hand,
        "blocked": blocked,
        "alert": "" if refusal is None else refusal_message(refusal),
        "back_url": session_url(session),
    }
    status = 200 if refusal is None else 409 if isinstance(refusal, SeatChangeRefusedError) else 400
    return render(request, "ledger/seats/seats.html", context, status=status)


urlpatterns = [path("sessions/<ledger_id:session_id>/seats/", seats_page, name="session-seats-page")]
