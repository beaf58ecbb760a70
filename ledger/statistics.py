"""A group's statistics: its standings session by session and each player's record, all database aggregates.

What counts, read once here for the statistics page and the API alike:

1. A hand counts when its round is not voided and is a hand: a round of adjustments only (罚分 between
   hands, ``Round.adjustment``) is none, though its points count (rule 2). A player played it when he sat
   in its session (``SessionSeat``); a session counts once it has a round that counts.
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

Each figure comes from one of eight grouped queries, whatever the number of sessions or hands (a period
narrows each by its sessions, as a subquery); Python only merges their rows by player (one row per player,
or per session and player).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypedDict

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum

from settlement.engine import Reason

from .models import Group, LedgerEntry, Player, Round, Session, SessionSeat, WinRecord
from .names import session_title

KONG_REASONS = (
    Reason.DIRECT_KONG,
    Reason.ADDED_KONG,
    Reason.CONCEALED_KONG,
    Reason.KONG_TRANSFER,
    Reason.KONG_REFUND,
)
# A payment the current state of its round still makes: not a reversal, and not reversed since.
PAID_NOW = Q(points__lt=0, reverses__isnull=True, reversed_by__isnull=True)
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


# --- what a player played: one definition, for these statistics and the group's standings ---------------
#
# Plain aggregates, each one pass over the group's rows: a correlated subquery per player here once landed
# in the GROUP BY beside the ledger's join and ran once per ledger row (issue 16: 19 s at 100 sessions).


def _counted_sessions(group: Group) -> QuerySet[Round, int]:
    """The ids of the group's sessions that have a round that counts (rule 1)."""
    return Round.objects.filter(session__group=group, voided=False).values_list("session_id", flat=True)


def _sessions_played(group: Group) -> dict[int, int]:
    """Player id -> the counted sessions he sat in (one grouped query over the group's seats)."""
    rows = (
        SessionSeat.objects.filter(session__group=group, session_id__in=_counted_sessions(group))
        .values("player")
        .annotate(n=Count("session"))
        .values_list("player", "n")
        .order_by()
    )
    return dict(rows)


def _players_rows(group: Group) -> QuerySet[LedgerEntry]:
    """The group's rows of its players (the house's have none): read from the covering index of
    (player, session, points) alone, never the table."""
    return LedgerEntry.objects.filter(player__group=group)


def _points(group: Group) -> dict[int, int]:
    """Player id -> his net over the group's ledger (one grouped query; rule 2)."""
    rows = (
        _players_rows(group)
        .values("player")
        .annotate(points=Sum("points"))
        .values_list("player", "points")
        .order_by()
    )
    return {player: int(points) for player, points in rows}


def group_standings(group: Group) -> list[dict[str, Any]]:
    """Every player's points across the group's sessions and the sessions he played, best first (three
    queries: the players, their points, their sessions)."""
    points, sessions = _points(group), _sessions_played(group)
    players = Player.objects.filter(group=group).values("id", "name")
    rows: list[dict[str, Any]] = [
        {**player, "points": points.get(player["id"], 0), "sessions": sessions.get(player["id"], 0)}
        for player in players
    ]
    # As the database ordered them before: most points first, a player with no rows after, then by name.
    rows.sort(key=lambda row: (row["id"] not in points, -row["points"], row["name"]))
    return rows


# --- the statistics --------------------------------------------------------------------------------------


def group_statistics(group: Group, within: QuerySet[Session] | None = None) -> GroupStatistics:
    """The group's standings session by session and every player's record (eight queries), over the
    sessions ``within`` (a period's, rule 7) or all of them."""
    scope = Scope(within)
    players = list(Player.objects.filter(group=group).order_by("id").values("id", "name"))
    money = _money_by_player(group, scope)
    wins = _wins_by_player(group, scope)
    deal_ins = _deal_ins_by_player(group, scope)
    biggest = _biggest_hands(group, scope)
    sessions = _sessions(group, scope)
    seated = _seated(group, scope)
    player_ids = [player["id"] for player in players]
    standings = _standings(sessions, _session_nets(group, scope), seated, player_ids)
    played = _played(sessions, seated)
    return GroupStatistics(
        players=tuple(
            PlayerRecord(
                player_id=player["id"],
                name=player["name"],
                sessions=played.get(player["id"], (0, 0))[0],
                hands=played.get(player["id"], (0, 0))[1],
                wins=wins.get(player["id"], {}).get("wins", 0),
                self_draws=wins.get(player["id"], {}).get("self_draws", 0),
                deal_ins=deal_ins.get(player["id"], 0),
                kong_points=int(money.get(player["id"], {}).get("kong_points") or 0),
                huazhu=money.get(player["id"], {}).get("huazhu", 0),
                chajiao=money.get(player["id"], {}).get("chajiao", 0),
                net=int(money.get(player["id"], {}).get("net") or 0),
                biggest=biggest.get(player["id"]),
                session_nets=tuple(
                    SessionNet(standing.session_id, standing.name, standing.nets[player["id"]])
                    for standing in standings
                    if player["id"] in standing.nets
                ),
            )
            for player in players
        ),
        sessions=standings,
    )


@dataclass(frozen=True, slots=True)
class Scope:
    """The sessions counted (rule 7): a queryset of them, or None for every session of the group, whose
    queries then stay exactly as they were (no subquery beside the covering indexes)."""

    sessions: QuerySet[Session] | None

    def rows(self, rows: QuerySet[Any], via: str = "session") -> QuerySet[Any]:
        """``rows`` of the counted sessions only, ``via`` naming the path to a row's session."""
        if self.sessions is None:
            return rows
        return rows.filter(**{f"{via}__in": self.sessions.values("id")})


def _money_by_player(group: Group, scope: Scope) -> dict[int, Mapping[str, Any]]:
    """Net points, kong money and the 花猪 / 查叫 hands of each player (rules 2, 4 and 5)."""
    rows = (
        scope.rows(LedgerEntry.objects.filter(session__group=group, is_house=False))
        .values("player")
        .annotate(
            net=Sum("points"),
            kong_points=Sum("points", filter=Q(reason__in=KONG_REASONS)),
            huazhu=Count("round", distinct=True, filter=PAID_NOW & Q(reason=Reason.HUAZHU)),
            chajiao=Count("round", distinct=True, filter=PAID_NOW & Q(reason=Reason.CHAJIAO)),
        )
        .order_by()
    )
    return {row["player"]: row for row in rows}


def _current_wins(group: Group, scope: Scope) -> QuerySet[WinRecord]:
    return scope.rows(WinRecord.objects.filter(session__group=group, version=F("round__version")))


def _wins_by_player(group: Group, scope: Scope) -> dict[int, Mapping[str, Any]]:
    rows = (
        _current_wins(group, scope)
        .values("winner")
        .annotate(wins=Count("id"), self_draws=Count("id", filter=Q(self_draw=True)))
        .order_by()
    )
    return {row["winner"]: row for row in rows}


def _deal_ins_by_player(group: Group, scope: Scope) -> dict[int, int]:
    rows = (
        _current_wins(group, scope)
        .filter(discarder__isnull=False)
        .values("discarder")
        .annotate(n=Count("id"))
        .values_list("discarder", "n")
        .order_by()
    )
    return dict(rows)


def _biggest_hands(group: Group, scope: Scope) -> dict[int, BiggestHand]:
    """Each player's win with the most fan, the first of equals: one query, one row per player who won."""
    best = _current_wins(group, scope).filter(winner=OuterRef("pk")).order_by("-fan", "id").values("id")[:1]
    best_ids = Player.objects.filter(group=group).annotate(best=Subquery(best)).values("best")
    seat = SessionSeat.objects.filter(session=OuterRef("session"), player=OuterRef("winner")).values("seat")
    wins = (
        WinRecord.objects.filter(pk__in=best_ids)
        .annotate(seat=Subquery(seat[:1]))
        .select_related("round", "round_version", "session", "winner", "discarder")
    )
    return {win.winner_id: BiggestHand(win, win.seat) for win in wins}


class _SessionRow(TypedDict):
    id: int
    name: str
    day: date
    day_number: int
    created: datetime
    hands: int


def _sessions(group: Group, scope: Scope) -> list[_SessionRow]:
    """The counted sessions in the order played, each with its counted hands."""
    return list(
        scope.rows(Session.objects.filter(group=group, rounds__voided=False), via="pk")
        .annotate(hands=Count("rounds", filter=Q(rounds__adjustment=False)))
        .order_by("created", "id")
        .values("id", "name", "day", "day_number", "created", "hands")
    )


def _session_nets(group: Group, scope: Scope) -> dict[tuple[int, int], int]:
    rows = (
        scope.rows(_players_rows(group))
        .values("session", "player")
        .annotate(net=Sum("points"))
        .values_list("session", "player", "net")
        .order_by()
    )
    return {(session, player): int(net) for session, player, net in rows}


def _seated(group: Group, scope: Scope) -> set[tuple[int, int]]:
    return set(scope.rows(SessionSeat.objects.filter(session__group=group)).values_list("session", "player"))


def _played(sessions: list[_SessionRow], seated: set[tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """Rule 1 from rows already read: player id -> (counted sessions he sat in, their counted hands)."""
    hands = {session["id"]: session["hands"] for session in sessions}
    played: dict[int, tuple[int, int]] = {}
    for session_id, player in seated:
        if session_id in hands:
            count, total = played.get(player, (0, 0))
            played[player] = (count + 1, total + hands[session_id])
    return played


def _standings(
    sessions: list[_SessionRow],
    nets: Mapping[tuple[int, int], int],
    seated: set[tuple[int, int]],
    player_ids: list[int],
) -> tuple[SessionStanding, ...]:
    """Rule 6: each session's nets and the running totals after it (a player who sat out keeps his)."""
    totals = dict.fromkeys(player_ids, 0)
    standings = []
    for session in sessions:
        played = {
            player: nets.get((session["id"], player), 0)
            for player in player_ids
            if (session["id"], player) in seated
        }
        totals = {player: totals[player] + played.get(player, 0) for player in player_ids}
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
