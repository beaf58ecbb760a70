"""统计 Statistics: a group's standings session by session and each player's record, as tables.

Every figure is ``ledger.statistics.group_statistics`` (the API's too); this page only orders and words
them: players best first, the standings as each session's running totals, one row per figure, and each
player's biggest hand explained as the history explains a win (``web.entry.explain.fan_parts``).
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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from web.entry.events import notes_of, table_rules, win_situation
from web.entry.explain import fan_parts
from web.language import page_language

from .. import selectors, statistics
from ..statistics import BiggestHand, PlayerRecord, SessionStanding
from .links import group_url, hand_url


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
    name: str
    fan: str
    how: str  # 清一色 3 + 1根, or "" for a fan typed in
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


def how_it_scored(hand: BiggestHand, language: str) -> str:
    entry = notes_of(hand.note).get(hand.seat)
    parts = fan_parts(hand.score, entry, win_situation(hand.event), table_rules(hand.rules), language)
    return " + ".join(parts)


def biggest_lines(players: Sequence[PlayerRecord], language: str) -> tuple[BiggestLine, ...]:
    return tuple(
        BiggestLine(
            name=record.name,
            fan=fan(record.biggest).text,
            how=how_it_scored(record.biggest, language),
            where=_("%(session)s · hand %(n)s")
            % {"session": record.biggest.session_name, "n": record.biggest.position},
            url=hand_url(record.biggest.session_id, record.biggest.position),
        )
        for record in players
        if record.biggest is not None
    )


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
        "figures": [(label, [show(record) for record in players]) for label, show in FIGURES],
        "biggest": biggest_lines(players, page_language()),
    }
    return render(request, "ledger/stats/stats.html", context)


urlpatterns = [path("groups/<ledger_id:group_id>/stats/", group_stats_page, name="group-stats")]
