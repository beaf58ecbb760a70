"""走势 Trends ``/sessions/<id>/chart/``: each player's running total hand by hand (a line chart, and the
same numbers as a table) and the session's biggest hands, worded and drawn by ``trends.py``.

A long session is drawn and tabled through at most ``web.charts.MAX_POINTS`` of its hands, evenly spread,
the first and the last always among them: the line keeps its shape and ends on the exact totals, the page
says so, and every hand stays in the history (a 10,000-hand table took 8 s to draw; issue 16).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.http import require_http_methods

from web.charts import sampled
from web.htmx import SignedInRequest
from web.language import page_language

from .. import selectors
from .links import session_url
from .trends import big_hand, running_totals, trend_chart


@login_required
@require_http_methods(["GET", "HEAD"])
def chart_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    places = list(session.seats.all())
    names = [place.player.name for place in places]
    every = running_totals(selectors.session_hand_nets(session))
    rows = [every[index] for index in sampled(len(every))]
    seats = {place.player_id: place.seat for place in places}
    language = page_language()
    context = {
        "session": session,
        "names": names,
        "rows": rows,
        "hands": len(every),
        "chart": trend_chart(names, rows) if rows else "",
        "big_hands": [
            big_hand(win, seats, session, language) for win in selectors.session_biggest_wins(session)
        ],
        "session_url": session_url(session),
        "history_url": reverse("session-history", args=[session.pk]),
        "settle_url": reverse("session-settle", args=[session.pk]),
    }
    return render(request, "ledger/chart/chart.html", context)


urlpatterns = [
    path("sessions/<ledger_id:session_id>/chart/", chart_page, name="session-chart"),
]
