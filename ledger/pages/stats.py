"""统计 Statistics: a group's standings session by session, each player's record, their biggest hands.

Every figure is ``ledger.periods.period_report`` (the API's too); this page only orders, words and
draws them: players best total first; the standings as each session's running totals, a line chart
(``web.charts``, through at most ``MAX_POINTS`` of the sessions, the latest always among them) and the
latest ``STANDINGS_ROWS`` sessions' numbers as a table (the group page lists every session, 20 at a time),
so what the page draws stays the same at the thousandth session; one table row per figure; each player's
biggest hand worded as a session's trends word a big hand (``trends.big_hand``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from web.charts import MAX_POINTS, line_chart, sampled
from web.htmx import SignedInRequest
from web.language import page_language

from .. import periods, selectors
from ..errors import LedgerError
from ..statistics import BiggestHand, PlayerRecord, SessionStanding
from .links import group_url, hand_url
from .refusals import refusal_message
from .trends import BigHand, big_hand

STANDINGS_ROWS = 20


@dataclass(frozen=True, slots=True)
class Cell:
    """A figure as printed; ``sign`` is the number whose sign and colour it takes (None: a plain count)."""

    text: str
    sign: int | Decimal | None = None


def count(value: int) -> Cell:
    return Cell(str(value))


def signed(value: int | Decimal) -> Cell:
    return Cell(str(abs(value)), value)


def fan(hand: BiggestHand | None) -> Cell:
    return Cell(_("%(fan)s fan") % {"fan": hand.fan} if hand else "—")


def average(value: Decimal | None) -> Cell:
    return signed(value) if value is not None else Cell("—")


# One row of the players' table per figure: its label, the record's attribute and how it is printed.
FIGURES: Sequence[tuple[Any, Callable[[PlayerRecord], Cell]]] = (
    (gettext_lazy("Total points"), lambda record: signed(record.net)),
    (gettext_lazy("Average per session"), lambda record: average(record.average_net)),
    (gettext_lazy("Sessions played"), lambda record: count(record.sessions)),
    (gettext_lazy("Hands played"), lambda record: count(record.hands)),
    (gettext_lazy("Wins"), lambda record: count(record.wins)),
    (gettext_lazy("Self-draws (自摸)"), lambda record: count(record.self_draws)),
    (gettext_lazy("Deal-ins (点炮)"), lambda record: count(record.deal_ins)),
    (gettext_lazy("Biggest hand"), lambda record: fan(record.biggest)),
    (gettext_lazy("Kong money (刮风下雨)"), lambda record: signed(record.kong_points)),
    (gettext_lazy("Flower pig (花猪)"), lambda record: count(record.huazhu)),
    (gettext_lazy("Not ready (查叫)"), lambda record: count(record.chajiao)),
)


@dataclass(frozen=True, slots=True)
class StandingRow:
    standing: SessionStanding
    cells: tuple[tuple[Cell, Cell | None], ...]  # per player: the total after the session, his net in it


@dataclass(frozen=True, slots=True)
class BiggestLine:
    hand: BigHand  # worded as the session's trends word a big hand
    where: str  # 第一场 · 第3手
    url: str


def played(records: Sequence[PlayerRecord]) -> list[PlayerRecord]:
    """The players who have played, best total first (the standings' order everywhere on the page)."""
    return sorted(
        (record for record in records if record.sessions), key=lambda record: (-record.net, record.name)
    )


def standing_rows(
    sessions: Sequence[SessionStanding], players: Sequence[PlayerRecord]
) -> tuple[StandingRow, ...]:
    return tuple(
        StandingRow(
            standing,
            tuple(
                (
                    signed(standing.totals[record.player_id]),
                    signed(standing.nets[record.player_id]) if record.player_id in standing.nets else None,
                )
                for record in players
            ),
        )
        for standing in sessions
    )


def standings_chart(sessions: Sequence[SessionStanding], players: Sequence[PlayerRecord]) -> SafeString:
    """Each player's total as a line from 0 before the first session (x = the sessions, by name), drawn
    through at most ``MAX_POINTS`` of them."""
    drawn = [sessions[index] for index in sampled(len(sessions))]
    series = [
        (record.name, [0, *(standing.totals[record.player_id] for standing in drawn)]) for record in players
    ]
    return line_chart(
        series, ["", *(standing.name for standing in drawn)], title=_("Standings over the sessions")
    )


def biggest_line(hand: BiggestHand, language: str) -> BiggestLine:
    win = hand.win
    return BiggestLine(
        big_hand(win, hand.seat, win.session, language),
        where=_("%(session)s · hand %(n)s") % {"session": win.session.title, "n": hand.position},
        url=hand_url(hand.session_id, hand.position),
    )


def biggest_lines(players: Sequence[PlayerRecord], language: str) -> tuple[BiggestLine, ...]:
    return tuple(biggest_line(record.biggest, language) for record in players if record.biggest is not None)


@login_required
@require_http_methods(["GET", "HEAD"])
def group_stats_page(request: SignedInRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    period, refusal = period_asked(request)
    period_figures, figures = periods.period_report(group, period)
    players = played(figures.players)
    context = {
        "group": group,
        "group_url": group_url(group),
        "players": players,
        "standings": standing_rows(figures.sessions[-STANDINGS_ROWS:], players),
        "sessions_count": len(figures.sessions),
        "sessions_drawn": len(figures.sessions) > MAX_POINTS,
        "chart": standings_chart(figures.sessions, players) if figures.sessions else "",
        "figures": [(label, [show(record) for record in players]) for label, show in FIGURES],
        "biggest": biggest_lines(players, page_language()),
        "period_refusal": refusal,
        **period_context(period_figures),
    }
    return render(request, "ledger/stats/stats.html", context)


def _best(figures: periods.PeriodFigures, field: str) -> int:
    return max((getattr(record, field) for record in figures.players), default=0)


PERIOD_LABELS = {
    "all": gettext_lazy("All time"),
    "this_month": gettext_lazy("This month"),
    "last_month": gettext_lazy("Last month"),
    "this_year": gettext_lazy("This year"),
}


def period_asked(request: HttpRequest) -> tuple[periods.Period, str]:
    """本月 / 上月 / 今年 / a range, as the page's links and form ask it (every table of the page is over
    it); one that cannot be read is all time, with the refusal's words to say so."""
    try:
        return periods.period_of(request.GET, timezone.localdate()), ""
    except LedgerError as error:
        return periods.period_of({}, timezone.localdate()), refusal_message(error)


def period_context(figures: periods.PeriodFigures) -> dict[str, Any]:
    """The period's nets and its pairwise figures (``ledger.periods``)."""
    period = figures.period
    last_day = period.end - timedelta(days=1) if period.end else None
    seated = sorted(
        (record for record in figures.players if record.sessions),
        key=lambda record: (-record.net, record.name),
    )  # one order for the table, the matrix's rows and its columns
    names = {record.player_id: record.name for record in figures.players}
    return {
        "period": period,
        "last_day": last_day,  # the period's end is the first day not counted
        "range_from": period.start if period.key == "range" else None,
        "range_to": last_day if period.key == "range" else None,
        "period_tabs": [(key, label, key == period.key) for key, label in PERIOD_LABELS.items()],
        "period_players": seated,
        "period_sessions": figures.sessions,
        "fed_rows": [
            (
                names[player.player_id],
                [figures.fed.get((player.player_id, other.player_id), 0) for other in seated],
            )
            for player in seated
        ],
        "between": [(names[a], names[b], net) for (a, b), net in sorted(figures.between.items()) if net],
        "kings": [
            (label, f"{', '.join(names[player] for player in holders)} ({figure})")
            for label, holders, figure in (
                (_("Kong king (杠王)"), figures.kong_kings, _best(figures, "kong_points")),
                (_("Flower pig king (花猪王)"), figures.huazhu_kings, _best(figures, "huazhu")),
                (_("Longest run of winning sessions"), figures.longest_run, _best(figures, "winning_run")),
            )
            if holders
        ],
    }


urlpatterns = [path("groups/<ledger_id:group_id>/stats/", group_stats_page, name="group-stats")]
