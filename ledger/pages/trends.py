"""A session's trends in words and lines: the running totals hand by hand, their chart, the biggest hands.

The numbers are the ledger's, summed in the database (a voided hand moves nothing, a corrected one counts
as its latest version): each person's running total after each hand the chart page draws (``chart.py``,
``selectors.session_running_totals``, added up by the database from the nets each round keeps), each
hand's net per seat for the last hands of the live board of a viewer link (``live.py``,
``selectors.session_hand_nets``, added up here), and the points each winner took
(``selectors.session_biggest_wins``). This module words them and draws them (``web.charts``). No URLs
here, so either page imports it.

Both pages show a column per person (the seats now, then whoever left: the order of
``SessionTotals.players``): the chart's sums are by person already (the database counts each hand's seat
nets for who sat there), the board's seat nets are counted for who sat there for that hand
(``by_person``; docs/ledger.md, "Substitutes").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import accumulate

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from web.charts import line_chart
from web.entry.events import notes_of, table_rules, win_situation
from web.entry.explain import score_text

from .. import selectors
from ..models import SEATS, Session, Sitting, WinRecord


@dataclass(frozen=True, slots=True)
class HandRow:
    """A row of the hand-by-hand table (``templates/ledger/chart/_hands.html``): a hand and a number per
    seat, its running totals on the 走势 page, its own nets on a viewer's live board."""

    number: int
    voided: bool
    corrected: bool
    values: tuple[int, ...]
    adjustment: bool = False  # 罚分 between hands: a row of its own, named so, not a hand


@dataclass(frozen=True, slots=True)
class BigHand:
    number: int
    winner: str
    how: str  # 自摸, 老张点炮, 抢老张的杠
    score: str  # 清一色 3 + 1根 = 4番 ×8
    points: int


def by_person(
    hands: Sequence[selectors.HandNet], spells: Sequence[Sitting], people: Sequence[int]
) -> list[selectors.HandNet]:
    """``hands`` with a net per person of ``people`` (player ids) instead of per seat: each seat's net goes
    to who sat there for that hand. A session whose seats never changed keeps one map for every hand."""
    column = {player: index for index, player in enumerate(people)}

    def columns(number: int) -> tuple[int, ...]:
        sat = (selectors.sitter(spells, seat, number) for seat in range(SEATS))
        return tuple(column[spell.player_id] for spell in sat if spell is not None)

    fixed = columns(1) if len(spells) == SEATS else None
    if fixed == tuple(range(SEATS)) and len(people) == SEATS:
        return list(hands)
    moved = []
    for hand in hands:
        nets = [0] * len(people)
        for seat_column, net in zip(fixed or columns(hand.number), hand.nets, strict=True):
            nets[seat_column] += net
        moved.append(replace(hand, nets=tuple(nets)))
    return moved


def running_totals(hands: Sequence[selectors.HandNet], *, start: Sequence[int] = ()) -> list[HandRow]:
    """Each hand with the totals after it: the nets added up in order, from ``start`` (the totals before
    the first of ``hands``; zero by default, the session's start)."""
    sums = accumulate((hand.nets for hand in hands), _added, initial=tuple(start) or None)
    if start:
        next(sums)  # accumulate yields its initial value first: the totals before any hand shown
    return [
        HandRow(hand.number, hand.voided, hand.corrected, totals, hand.adjustment)
        for hand, totals in zip(hands, sums, strict=True)
    ]


def total_rows(totals: Sequence[selectors.RunningTotal]) -> list[HandRow]:
    """The 走势 page's rows: each hand drawn with the totals after it and its marks, as the database
    added them up (``selectors.session_running_totals``)."""
    return [
        HandRow(hand.position, hand.mark.voided, hand.mark.corrected, hand.totals, hand.mark.adjustment)
        for hand in totals
    ]


def newest_nets(hands: Sequence[selectors.HandNet]) -> list[HandRow]:
    """Each hand with its own nets, the newest first: what a live board lists."""
    return [
        HandRow(hand.number, hand.voided, hand.corrected, hand.nets, hand.adjustment)
        for hand in reversed(hands)
    ]


def _added(total: tuple[int, ...], nets: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(before + net for before, net in zip(total, nets, strict=True))


def trend_chart(names: Sequence[str], rows: Sequence[HandRow], *, start: Sequence[int] = ()) -> SafeString:
    """The running totals (``running_totals``) as lines (x = 第N手), from ``start`` before the first row
    (0 before the first hand by default)."""
    before = tuple(start) or (0,) * len(names)
    series = [(name, [before[seat], *(row.values[seat] for row in rows)]) for seat, name in enumerate(names)]
    return line_chart(
        series,
        [str(rows[0].number - 1) if rows else "0", *(str(row.number) for row in rows)],
        title=_("Running totals, hand by hand"),
    )


def how_won(win: WinRecord, summary: dict[str, object]) -> str:
    if win.discarder is None:
        return _("self-draw")
    if summary.get("robbing_kong"):
        return _("robbed %(name)s's kong") % {"name": win.discarder.name}
    return _("%(name)s dealt in") % {"name": win.discarder.name}


def big_hand(win: WinRecord, seat: int, session: Session, language: str) -> BigHand:
    """One win in words, ``seat`` the winner's for that hand: the version's settle result says how it
    scored, its note what the picker tapped."""
    version = win.round_version
    assert version.result is not None  # noqa: S101 - a win is recorded from a settled version, never a void
    summary = next(event for event in version.result["events"] if event["index"] == win.event_index)
    score = next(score for score in summary["scores"] if score["player"] == seat)
    notes = version.notes or []
    entry = notes_of(notes[win.event_index] or "" if win.event_index < len(notes) else "").get(seat)
    return BigHand(
        number=win.round.position,
        winner=win.winner.name,
        how=how_won(win, summary),
        score=score_text(score, entry, win_situation(summary), table_rules(session.rules), language),
        points=win.points,
    )
