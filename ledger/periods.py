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

Seven queries whatever the number of sessions or hands (tests assert it at two sizes); Python only merges
their rows by player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.utils import timezone

from settlement.engine import Reason

from .errors import LedgerError
from .models import Group, LedgerEntry, Player, Session, SessionSeat, WinRecord
from .statistics import KONG_REASONS, PAID_NOW, GroupStatistics, group_statistics

PERIODS = ("all", "this_month", "last_month", "this_year", "range")
LIVE = Q(reverses__isnull=True, reversed_by__isnull=True)


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
    return Period(key, None, None)


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


def period_statistics(group: Group, period: Period) -> GroupStatistics:
    """``statistics.group_statistics`` over the period's sessions: the records and standings of 统计's
    tables and the API's ``period.records`` and ``period.standings`` (eight queries)."""
    return group_statistics(group, period.sessions(group) if period.bounded else None)


def _kings(values: Mapping[int, int]) -> tuple[int, ...]:
    best = max(values.values(), default=0)
    return tuple(sorted(player for player, value in values.items() if value == best)) if best > 0 else ()


def _longest_run(order: list[int], nets: Mapping[tuple[int, int], int], player: int) -> int:
    best = run = 0
    for session in order:
        if (session, player) not in nets:
            continue
        run = run + 1 if nets[(session, player)] > 0 else 0
        best = max(best, run)
    return best


def period_figures(group: Group, period: Period) -> PeriodFigures:
    players = list(Player.objects.filter(group=group).order_by("id").values_list("id", "name"))
    order = list(
        period.sessions(group)
        .filter(rounds__voided=False)
        .distinct()
        .order_by("created", "id")
        .values_list("id", flat=True)
    )
    entries = LedgerEntry.objects.filter(session__in=order, is_house=False)
    money: dict[int, Mapping[str, Any]] = {
        row["player"]: row
        for row in entries.values("player")
        .annotate(
            net=Sum("points"),
            kong_points=Sum("points", filter=Q(reason__in=KONG_REASONS)),
            huazhu=Count("round", distinct=True, filter=PAID_NOW & Q(reason=Reason.HUAZHU)),
        )
        .order_by()
    }
    nets = {
        (session, player): int(net)
        for session, player, net in entries.values("session", "player")
        .annotate(net=Sum("points"))
        .values_list("session", "player", "net")
        .order_by()
    }
    sat = dict(
        SessionSeat.objects.filter(session__in=order)
        .values("player")
        .annotate(n=Count("session", distinct=True))
        .values_list("player", "n")
        .order_by()
    )
    fed = {
        (discarder, winner): n
        for discarder, winner, n in WinRecord.objects.filter(
            session__in=order, version=F("round__version"), discarder__isnull=False
        )
        .values("discarder", "winner")
        .annotate(n=Count("id"))
        .values_list("discarder", "winner", "n")
        .order_by()
    }
    # The payer's row of the same transfer: the same version and place, live too (a correction's version
    # also holds, at the same places, the reversals of the rows it replaced).
    # The round is implied by the version; naming it lets the planner take the (round, reverses) index,
    # where alone SQLite walks every row of the database through the unique `reverses` one.
    payer = LedgerEntry.objects.filter(
        LIVE,
        round=OuterRef("round"),
        round_version=OuterRef("round_version"),
        transfer_index=OuterRef("transfer_index"),
        points__lt=0,
    ).values("player")[:1]
    between: dict[tuple[int, int], int] = {}
    for paid_by, paid_to, points in (
        entries.filter(LIVE, points__gt=0)
        .annotate(paid_by=Subquery(payer))
        .values("paid_by", "player")
        .annotate(total=Sum("points"))
        .values_list("paid_by", "player", "total")
        .order_by()
    ):
        if paid_by is None:  # a payment from the house (none is made today) has no pair
            continue
        low, high = sorted((paid_by, paid_to))
        sign = 1 if paid_to == low else -1  # the lower id's net against the higher one
        between[(low, high)] = between.get((low, high), 0) + sign * int(points)
    records = tuple(
        PeriodPlayer(
            player_id=player,
            name=name,
            sessions=sat.get(player, 0),
            net=int(money.get(player, {}).get("net") or 0),
            kong_points=int(money.get(player, {}).get("kong_points") or 0),
            huazhu=int(money.get(player, {}).get("huazhu") or 0),
            winning_run=_longest_run(order, nets, player),
        )
        for player, name in players
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
