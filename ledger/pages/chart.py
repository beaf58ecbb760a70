"""走势 Trends ``/sessions/<id>/chart/``: each player's running total hand by hand (a line chart, and the
same numbers as a table) and the session's biggest hands, worded and drawn by ``trends.py``.

A long session is drawn and tabled through at most ``web.charts.MAX_POINTS`` of its hands, evenly spread,
the first and the last always among them: the line keeps its shape and ends on the exact totals, the page
says so, and every hand stays in the history (a 10,000-hand table took 8 s to draw; issue 16). Every hand
is still added up, in the database, from the nets each round keeps, which returns the hands drawn only, as
numbers with their marks (作废, 改过, 罚分): ``selectors.session_running_totals``, one query whatever the
session's length.
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
from ..models import Sitting, WinRecord
from .links import session_url
from .trends import big_hand, total_rows, trend_chart


@login_required
@require_http_methods(["GET", "HEAD"])
def chart_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    spells = selectors.sittings([session]).get(session.pk, [])
    table, away = selectors.table_and_away(spells)
    people = [*table, *away]  # a line each: the seats now, then whoever left
    names = [spell.player.name for spell in people]
    hands = selectors.session_last_position(session)  # positions run 1, 2, 3 … with no gap
    drawn = [index + 1 for index in sampled(hands)]
    totals = selectors.session_running_totals(
        session, [spell.player_id for spell in people], drawn, spells=spells
    )
    rows = total_rows(totals)
    language = page_language()
    context = {
        "session": session,
        "names": names,
        "rows": rows,
        "hands": hands,
        "chart": trend_chart(names, rows) if rows else "",
        "big_hands": [
            big_hand(win, _seat_held(spells, win), session, language)
            for win in selectors.session_biggest_wins(session)
        ],
        "session_url": session_url(session),
        "history_url": reverse("session-history", args=[session.pk]),
        "settle_url": reverse("session-settle", args=[session.pk]),
    }
    return render(request, "ledger/chart/chart.html", context)


def _seat_held(spells: list[Sitting], win: WinRecord) -> int:
    """The winner's seat for the hand he won (a substitute's, or a swapped seat's, is not his seat now)."""
    position = win.round.position
    return next(
        spell.seat
        for spell in spells
        if spell.player_id == win.winner_id
        and spell.first <= position
        and (spell.last or position) >= position
    )


urlpatterns = [
    path("sessions/<ledger_id:session_id>/chart/", chart_page, name="session-chart"),
]
