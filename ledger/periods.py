"""A group's figures over a period (this month, last month, this year, a date range), and the pairwise ones
a table argues about: who fed whom (点炮), the net between each pair of players, 杠王, 花猪王 and the
longest run of winning sessions.

What counts is ``ledger.statistics``'s rules 1-6, read over the sessions started in the period (by the
date they started, in the site's time zone):

1. a session counts once it has a hand that counts (not voided);
2. nets are plain sums of a player's ledger rows, reversals cancelling what they reverse;
3. 点炮: the current ``WinRecord`` rows with a discarder, one per winner paid, counted by (discarder, winner);
4. the net between two players: every transfer still paid (neither a reversal nor reversed) from one to
   the other, the payer's row matched to the payee's by its version and place in the settle result;
   player A's net against B is what B paid A minus what A paid B;
5. 杠王: the most kong money (刮风下雨, the rows of the kong reasons); 花猪王: the most hands in which a
   player paid for 查花猪; the longest run: the most sessions in a row, in the order played, that a player
   ended ahead (a session he sat out does not break his run). Ties name every player tied; nobody is
   named when the best is not above 0.

All of it is read from the period's figures (``statistics.figured``: ``ledger.figures`` keeps them, a
pair's rows holding what one player paid the other and the wins he fed him): five queries whatever the
number of sessions or hands (tests assert it at two sizes), shared with the period's statistics; Python
only merges their rows by player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from .errors import LedgerError
from .models import Group, Session
from .statistics import Figured, GroupStatistics, Scope, figured, statistics_of

PERIODS = ("all", "this_month", "last_month", "this_year", "range")


@dataclass(frozen=True, slots=True)
class Period:
    key: str  # one of PERIODS
    start: date | None  # the first day counted; None: from the beginning
    end: date | None  # the first day not counted; None: up to now

    @property
    def bounded(self) -> bool:
        return self.start is not None or self.end is not None

    def sessions(self, group: Group) -> QuerySet[Session]:
        sessions = Session.objects.filter(group=group)
        if self.start is not None:
            sessions = sessions.filter(created__gte=_midnight(self.start))
        if self.end is not None:
            sessions = sessions.filter(created__lt=_midnight(self.end))
        return sessions


ALL_TIME = Period("all", None, None)


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def _month_start(day: date) -> date:
    return day.replace(day=1)


def next_month(first: date) -> date:
    return first.replace(year=first.year + first.month // 12, month=first.month % 12 + 1)


# The days a period may name: far enough from date's limits that the day after the last, and midnight of
# the first in any time zone, still exist (9999-12-31 + 1 day, or 0001-01-01 in UTC+8, overflow).
FIRST_DAY = date(1970, 1, 1)
LAST_DAY = date(9998, 12, 31)


def within_days(day: date) -> bool:
    return FIRST_DAY <= day <= LAST_DAY


def _day(raw: object, field: str) -> date:
    try:
        day = date.fromisoformat(str(raw))
    except ValueError as error:
        raise LedgerError("period_date", field=field, value=str(raw)[:40]) from error
    if not within_days(day):
        raise LedgerError(
            "period_out_of_range", field=field, value=str(day), first=str(FIRST_DAY), last=str(LAST_DAY)
        )
    return day


def period_of(data: Mapping[str, Any], today: date) -> Period:
    """The period ``data`` asks for (``period``, and ``from`` / ``to`` for a range, both days counted);
    a key or a day that cannot be read is a ``LedgerError`` naming its field."""
    key = str(data.get("period") or "all")
    if key not in PERIODS:
        raise LedgerError("period_unknown", field="period", choices=", ".join(PERIODS))
    this_month = _month_start(today)
    if key == "this_month":
        return Period(key, this_month, next_month(this_month))
    if key == "last_month":
        last = _month_start(this_month - timedelta(days=1))
        return Period(key, last, this_month)
    if key == "this_year":
        return Period(key, today.replace(month=1, day=1), today.replace(year=today.year + 1, month=1, day=1))
    if key == "range":
        start, last = _day(data.get("from"), "from"), _day(data.get("to"), "to")
        if last < start:
            raise LedgerError("period_backwards", field="to")
        return Period(key, start, last + timedelta(days=1))
    return ALL_TIME


@dataclass(frozen=True, slots=True)
class PeriodPlayer:
    player_id: int
    name: str
    sessions: int  # counted sessions of the period he sat in
    net: int
    kong_points: int
    huazhu: int
    winning_run: int  # the longest run of sessions in a row he ended ahead


@dataclass(frozen=True, slots=True)
class PeriodFigures:
    period: Period
    sessions: int
    players: tuple[PeriodPlayer, ...]  # every player of the group, by id
    fed: Mapping[tuple[int, int], int]  # (discarder, winner) -> wins he fed him (点炮)
    between: Mapping[tuple[int, int], int]  # (a, b) with a < b -> a's net against b
    kong_kings: tuple[int, ...]
    huazhu_kings: tuple[int, ...]
    longest_run: tuple[int, ...]


def period_scope(group: Group, period: Period) -> Scope:
    return Scope(group, period.sessions(group) if period.bounded else None)


def period_statistics(group: Group, period: Period) -> GroupStatistics:
    """``statistics.group_statistics`` over the period's sessions: the records and standings of 统计's
    tables and the API's ``period.records`` and ``period.standings`` (six queries)."""
    return period_report(group, period)[1]


def period_report(group: Group, period: Period) -> tuple[PeriodFigures, GroupStatistics]:
    """The period's figures and its statistics from one read of its figures (six queries)."""
    scope = period_scope(group, period)
    figures = figured(scope)
    return figures_of(period, figures), statistics_of(scope, figures)


def _kings(values: Mapping[int, int]) -> tuple[int, ...]:
    best = max(values.values(), default=0)
    return tuple(sorted(player for player, value in values.items() if value == best)) if best > 0 else ()


def _longest_runs(order: list[int], nets: Mapping[int, Mapping[int, int]]) -> dict[int, int]:
    """Each player's longest run (rule 5), in one walk of the sessions for every player."""
    run: dict[int, int] = {}
    best: dict[int, int] = {}
    for session in order:
        for player, net in nets.get(session, {}).items():
            run[player] = run.get(player, 0) + 1 if net > 0 else 0
            best[player] = max(best.get(player, 0), run[player])
    return best


def period_figures(group: Group, period: Period) -> PeriodFigures:
    return figures_of(period, figured(period_scope(group, period)))


def figures_of(period: Period, figures: Figured) -> PeriodFigures:
    """The period's figures from its figures already read (rules 1-5 of the module's docstring)."""
    order = [session["id"] for session in figures.sessions]
    runs = _longest_runs(order, figures.nets)
    fed = {pair: int(row["fed"]) for pair, row in figures.pairs.items() if row["fed"]}
    between: dict[tuple[int, int], int] = {}
    for (paid_by, paid_to), row in figures.pairs.items():
        if not row["paid"]:  # the pair's row holds only wins fed, or payments a correction took back
            continue
        low, high = sorted((paid_by, paid_to))
        sign = 1 if paid_to == low else -1  # the lower id's net against the higher one
        between[(low, high)] = between.get((low, high), 0) + sign * int(row["paid"] or 0)
    records = tuple(
        PeriodPlayer(
            player_id=player,
            name=name,
            sessions=figures.of(player, "sessions"),
            net=figures.of(player, "net"),
            kong_points=figures.of(player, "kong_points"),
            huazhu=figures.of(player, "huazhu"),
            winning_run=runs.get(player, 0),
        )
        for player, name in figures.players
    )
    return PeriodFigures(
        period=period,
        sessions=len(order),
        players=records,
        fed=fed,
        between=between,
        kong_kings=_kings({record.player_id: record.kong_points for record in records}),
        huazhu_kings=_kings({record.player_id: record.huazhu for record in records}),
        longest_run=_kings({record.player_id: record.winning_run for record in records}),
    )
