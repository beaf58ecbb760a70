"""统计 Statistics: a group's standings session by session, each player's record, their biggest hands.

Every figure is ``ledger.statistics.group_statistics`` (the API's too); this page only orders, words and
draws them: players best total first; the standings as each session's running totals, a line chart
(``web.charts``) and the same numbers as a table; one table row per figure; each player's biggest hand
worded as a session's trends word a big hand (``trends.big_hand``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from web.charts import line_chart
from web.language import page_language

from .. import selectors, statistics
from ..statistics import BiggestHand, PlayerRecord, SessionStanding
from .links import group_url, hand_url
from .trends import BigHand, big_hand


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
    """Each player's total as a line from 0 before the first session (x = the sessions, by name)."""
    series = [
        (record.name, [0, *(standing.totals[record.player_id] for standing in sessions)])
        for record in players
    ]
    return line_chart(
        series, ["", *(standing.name for standing in sessions)], title=_("Standings over the sessions")
    )


def biggest_line(hand: BiggestHand, language: str) -> BiggestLine:
    win = hand.win
    return BiggestLine(
        big_hand(win, {win.winner_id: hand.seat}, win.session, language),
        where=_("%(session)s · hand %(n)s") % {"session": win.session.name, "n": hand.position},
        url=hand_url(hand.session_id, hand.position),
    )


def biggest_lines(players: Sequence[PlayerRecord], language: str) -> tuple[BiggestLine, ...]:
    return tuple(biggest_line(record.biggest, language) for record in players if record.biggest is not None)


@login_required
@require_http_methods(["GET", "HEAD"])
def group_stats_page(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    figures = statistics.group_statistics(group)
    players = played(figures.players)
    context = {
        "group": group,
        "group_url": group_url(group),
        "players": players,
        "standings": standing_rows(figures.sessions, players),
        "chart": standings_chart(figures.sessions, players) if figures.sessions else "",
        "figures": [(label, [show(record) for record in players]) for label, show in FIGURES],
        "biggest": biggest_lines(players, page_language()),
    }
    return render(request, "ledger/stats/stats.html", context)


urlpatterns = [path("groups/<ledger_id:group_id>/stats/", group_stats_page, name="group-stats")]
