"""A group's statistics: its standings session by session and each player's record, all database aggregates.

What counts, read once here for the statistics page and the API alike:

1. A hand counts when its round is not voided and is a hand: a round of adjustments only (罚分 between
   hands, ``Round.adjustment``) is none, though its points count (rule 2). A player played it when he sat
   at the table for it (his ``Sitting``s: a substitute played the hands from his first on, the player he
   replaced those before); a session counts once it has a round that counts.
2. Points are plain sums of a player's ledger rows: reversals cancel what they reverse, so a corrected hand
   counts as corrected and a voided one not at all.
3. Wins, self-draws, deal-ins and the biggest hand are the ``WinRecord`` rows of each round's current
   version, one per winner of each win event, so under 血流成河 a player may win several times in a hand
   (a void writes none; a correction or a re-coining writes the current ones again). A deal-in is one
   per winner paid: a discard won by two is two deal-ins.
4. Kong money (刮风下雨) is the net of a player's kong rows: what his kongs took, minus what he paid for
   the others', what he handed over (呼叫转移) and what he refunded (退税).
5. 花猪 and 查叫 count hands: those in which one of the player's live rows (neither a reversal nor
   reversed) paid for 查花猪, or for 查大叫.
6. The standings: each counted session's net per player, added up session by session in the order the
   sessions were played.
7. Over a period (``ledger.periods``): the same rules over the sessions started in it, its standings
   added up from 0 at its first session.

The figures are read from ``models.Figures``, which every round write keeps (``ledger.figures``: these
rules as the rows a session adds up to), never from the ledger itself: a group's statistics cost six
queries whatever the number of sessions or hands. Their sums over all time (the standings, each player's
record, what passed between each pair) are the group's own rows, ``models.GroupFigures``, kept with them:
a few a player whatever the number of sessions. What grows with the sessions is only what is shown per
session (each player's net in it), never what grows with its hands; a period sums its sessions' rows (each
query narrowed by its sessions, as a subquery). Python only merges their rows by player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypedDict

from django.db.models import Count, F, Model, OuterRef, Q, QuerySet, Subquery, Sum

from .models import Figures, Group, GroupFigures, Player, Session, Sitting, WinRecord
from .names import session_title
from .selectors import player_names

AVERAGE_PLACES = Decimal("0.1")


@dataclass(frozen=True, slots=True)
class SessionNet:
    session_id: int
    name: str
    points: int


@dataclass(frozen=True, slots=True)
class BiggestHand:
    """A player's win with the most fan (the first of equals): its ``WinRecord``, with its round, version
    (the settle result and notes that explain it), session, winner and discarder, and ``points`` (what he
    took for it); and his seat in that session, where the result names him."""

    win: WinRecord
    seat: int

    @property
    def score(self) -> Mapping[str, Any]:
        """The engine's score of this winner: fan, points per payer, the pattern when scored from tiles."""
        result = self.win.round_version.result
        assert result is not None  # noqa: S101 - a win is recorded only from a settled version, never a void
        summary = next(e for e in result["events"] if e["index"] == self.win.event_index)
        return next(score for score in summary["scores"] if score["player"] == self.seat)

    @property
    def fan(self) -> int:
        return self.win.fan

    @property
    def pattern(self) -> str | None:
        """The engine's pattern key; None when the hand was entered by its fan."""
        pattern = self.score.get("pattern")
        return str(pattern) if pattern else None

    @property
    def session_id(self) -> int:
        return self.win.session_id

    @property
    def position(self) -> int:
        """The hand's number in its session (第N手)."""
        return self.win.round.position


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    player_id: int
    name: str
    sessions: int  # sessions played (rule 1)
    hands: int  # hands played
    wins: int
    self_draws: int
    deal_ins: int
    kong_points: int
    huazhu: int  # hands in which he paid for 查花猪
    chajiao: int  # hands in which he paid for 查大叫
    net: int
    biggest: BiggestHand | None
    session_nets: tuple[SessionNet, ...]  # his net in each session he played, in the order played

    @property
    def average_net(self) -> Decimal | None:
        """Net per session played, to one decimal (points are integers; an average need not be)."""
        if not self.sessions:
            return None
        return (Decimal(self.net) / self.sessions).quantize(AVERAGE_PLACES, rounding=ROUND_HALF_UP)


@dataclass(frozen=True, slots=True)
class SessionStanding:
    """One counted session: each seated player's net in it, and every player's total after it."""

    session_id: int
    name: str
    created: datetime
    hands: int
    nets: Mapping[int, int]  # player id -> net in this session, for the four who sat
    totals: Mapping[int, int]  # player id -> total so far, for every player of the group


@dataclass(frozen=True, slots=True)
class GroupStatistics:
    players: tuple[PlayerRecord, ...]  # every player of the group, by id
    sessions: tuple[SessionStanding, ...]  # the counted sessions, in the order played


# --- the figures of a scope: one read for the statistics, the standings and a period's figures -----------


@dataclass(frozen=True, slots=True)
class Scope:
    """The sessions counted (rule 7): a queryset of them, or None for every session of the group."""

    group: Group
    sessions: QuerySet[Session] | None = None

    def rows[M: Model](self, rows: QuerySet[M], via: str = "session") -> QuerySet[M]:
        """``rows`` of the counted sessions only, ``via`` naming the path to a row's session."""
        if self.sessions is None:
            return rows.filter(**{f"{via}__group": self.group} if via != "pk" else {"group": self.group})
        return rows.filter(**{f"{via}__in": self.sessions.values("id")})


class _SessionRow(TypedDict):
    id: int
    name: str
    day: date
    day_number: int
    created: datetime
    hands: int


@dataclass(frozen=True, slots=True)
class Figured:
    """What five queries read of a scope's figures: the players, the counted sessions in the order
    played, each player's net in each he played, and the figures added up per player and per pair."""

    players: tuple[tuple[int, str], ...]  # (id, name) of every player of the group, by id
    sessions: tuple[_SessionRow, ...]
    nets: Mapping[int, Mapping[int, int]]  # session -> player -> his net, for those who played it
    own: Mapping[int, Mapping[str, Any]]  # player -> his figures added up, and the sessions he played
    pairs: Mapping[tuple[int, int], Mapping[str, Any]]  # (player, other) -> paid, fed

    def of(self, player: int, name: str) -> int:
        return int(self.own.get(player, {}).get(name) or 0)


def figured(scope: Scope) -> Figured:
    """The scope's figures (five queries, whatever the number of its sessions or hands)."""
    players = tuple(Player.objects.filter(group=scope.group).order_by("id").values_list("id", "name"))
    sessions = tuple(
        scope.rows(Session.objects.filter(counted_rounds__gt=0), via="pk")
        .order_by("created", "id")
        .annotate(hands=F("counted_hands"))
        .values("id", "name", "day", "day_number", "created", "hands")
    )
    own_rows = scope.rows(Figures.objects.filter(player=F("other")))
    nets: dict[int, dict[int, int]] = {}  # by session, as the standings and the runs walk them
    # Each session's players by id (the order the answers list them in), by the columns themselves: the
    # model's ordering by (session, player, other) joined the players to sort by the last.
    for session, player, net in (
        own_rows.filter(rounds__gt=0)
        .values_list("session", "player", "net")
        .order_by("session_id", "player_id")
    ):
        nets.setdefault(session, {})[player] = int(net)
    own_sums, pair_sums = _added_up(scope)
    own: dict[int, Mapping[str, Any]] = {row["player"]: row for row in own_sums.order_by()}
    pairs: dict[tuple[int, int], Mapping[str, Any]] = {
        (row["player"], row["other"]): row for row in pair_sums.order_by()
    }
    return Figured(players, sessions, nets, own, pairs)


def _added_up(scope: Scope) -> tuple[QuerySet[Any, Any], QuerySet[Any, Any]]:
    """Each player's own figures added up over the scope with the sessions he played (``OWN`` and
    ``sessions``), and each pair's ``paid`` and ``fed``: for all time the group's kept rows, a few a player
    whatever the number of sessions; over a period the sum of its sessions' rows."""
    if scope.sessions is None:
        kept = GroupFigures.objects.filter(group=scope.group)
        return (
            kept.filter(player=F("other")).values("player", "sessions", *OWN),
            kept.exclude(player=F("other")).values("player", "other", "paid", "fed"),
        )
    # Two sums, not one grouped by (player, other): each sorts only the rows and columns it adds up, the
    # pairs' two of the ten (SQLite at 1,000 sessions, 16,000 rows: 23 -> 6 + 10 ms, the least of 25 runs).
    return (
        scope.rows(Figures.objects.filter(player=F("other")))
        .values("player")
        .annotate(sessions=Count("id", filter=Q(rounds__gt=0)), **{name: Sum(name) for name in OWN}),
        scope.rows(Figures.objects.exclude(player=F("other")))
        .values("player", "other")
        .annotate(paid=Sum("paid"), fed=Sum("fed")),
    )


# What a player's own rows add up to; a pair's add up ``paid`` and ``fed``.
OWN = ("hands", "net", "kong_points", "huazhu", "chajiao", "wins", "self_draws")


def group_standings(group: Group, *, names: Mapping[int, str] | None = None) -> list[dict[str, Any]]:
    """Every player's points across the group's sessions and the sessions he played, best first (two
    queries: the players, their kept group rows; one when the caller has read the group's ``names``,
    ``selectors.player_names``): a few rows a player whatever the number of sessions."""
    played = {
        player: (int(points), sessions)
        for player, points, sessions in GroupFigures.objects.filter(group=group, player=F("other"))
        .values_list("player", "net", "sessions")
        .order_by()
    }
    rows: list[dict[str, Any]] = [
        {
            "id": player_id,
            "name": name,
            "points": played.get(player_id, (0, 0))[0],
            "sessions": played.get(player_id, (0, 0))[1],
        }
        for player_id, name in (player_names(group) if names is None else names).items()
    ]
    # Most points first, a player who never sat at a round after, then by name.
    rows.sort(key=lambda row: (row["id"] not in played, -row["points"], row["name"]))
    return rows


# --- the statistics --------------------------------------------------------------------------------------


def group_statistics(group: Group, within: QuerySet[Session] | None = None) -> GroupStatistics:
    """The group's standings session by session and every player's record (six queries), over the
    sessions ``within`` (a period's, rule 7) or all of them."""
    scope = Scope(group, within)
    return statistics_of(scope, figured(scope))


def statistics_of(scope: Scope, figures: Figured) -> GroupStatistics:
    """``group_statistics`` from the scope's figures already read (one query more: the biggest hands)."""
    biggest = _biggest_hands(scope)
    player_ids = [player for player, _ in figures.players]
    standings = _standings(figures.sessions, figures.nets, player_ids)
    deal_ins: dict[int, int] = {}
    for (player, _), pair in figures.pairs.items():
        deal_ins[player] = deal_ins.get(player, 0) + int(pair["fed"] or 0)
    # one walk of the standings for every player, not one a player
    session_nets: dict[int, list[SessionNet]] = {player: [] for player in player_ids}
    for standing in standings:
        for player, net in standing.nets.items():
            session_nets[player].append(SessionNet(standing.session_id, standing.name, net))
    return GroupStatistics(
        players=tuple(
            PlayerRecord(
                player_id=player,
                name=name,
                sessions=figures.of(player, "sessions"),
                hands=figures.of(player, "hands"),
                wins=figures.of(player, "wins"),
                self_draws=figures.of(player, "self_draws"),
                deal_ins=deal_ins.get(player, 0),
                kong_points=figures.of(player, "kong_points"),
                huazhu=figures.of(player, "huazhu"),
                chajiao=figures.of(player, "chajiao"),
                net=figures.of(player, "net"),
                biggest=biggest.get(player),
                session_nets=tuple(session_nets[player]),
            )
            for player, name in figures.players
        ),
        sessions=standings,
    )


def _biggest_hands(scope: Scope) -> dict[int, BiggestHand]:
    """Each player's win with the most fan, the first of equals: one query, one row per player who won,
    each read down the index of (winner, fan, id) to his first win that is current."""
    current: QuerySet[WinRecord] = WinRecord.objects.filter(version=F("round__version"))
    if scope.sessions is not None:
        current = scope.rows(current)
    # All time, a player's wins are all his group's: naming the group too made PostgreSQL join every
    # session and sort each player's wins (90 ms at 1,000 sessions) instead of walking the index.
    best = current.filter(winner=OuterRef("pk")).order_by("-fan", "id").values("id")[:1]
    best_ids = Player.objects.filter(group=scope.group).annotate(best=Subquery(best)).values("best")
    # his seat for that hand: the sitting its position falls in
    seat = (
        Sitting.objects.filter(
            session=OuterRef("session"), player=OuterRef("winner"), first__lte=OuterRef("round__position")
        )
        .filter(Q(last__isnull=True) | Q(last__gte=OuterRef("round__position")))
        .values("seat")
    )
    wins = (
        WinRecord.objects.filter(pk__in=best_ids)
        .annotate(seat=Subquery(seat[:1]))
        .select_related("round", "round_version", "session", "winner", "discarder")
    )
    return {win.winner_id: BiggestHand(win, win.seat) for win in wins}


def _standings(
    sessions: Sequence[_SessionRow], nets: Mapping[int, Mapping[int, int]], player_ids: list[int]
) -> tuple[SessionStanding, ...]:
    """Rule 6: each session's nets and the running totals after it (a player who sat out keeps his)."""
    totals = dict.fromkeys(player_ids, 0)
    standings = []
    for session in sessions:
        played = nets.get(session["id"], {})
        totals = totals | {player: totals[player] + net for player, net in played.items()}
        standings.append(
            SessionStanding(
                session["id"],
                session_title(session["name"], session["day"], session["day_number"]),
                session["created"],
                session["hands"],
                played,
                totals,
            )
        )
    return tuple(standings)
