"""Every read of the ledger app but a group's statistics (``ledger/statistics.py``). Totals are database
aggregates, never loops over rows.

The ``*_for`` functions scope querysets to the groups a user belongs to: fetching through them makes
another group's objects simply absent (404), never "found, then refused".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session as Login
from django.db import connection
from django.db.models import (
    Aggregate,
    BigIntegerField,
    Count,
    Exists,
    F,
    JSONField,
    Max,
    Model,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.functions import Coalesce
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from calculator.engine import rules_from
from settlement.engine import (
    FeeSplit,
    HandDraft,
    Reason,
    RoundResult,
    Undone,
    fee_shares,
    settle_round,
    settle_up,
)

from .models import (
    SEATS,
    CoinEntry,
    Figures,
    Group,
    GroupInvitation,
    HandInProgress,
    InvitationStatus,
    LedgerEntry,
    Membership,
    Player,
    Role,
    Round,
    RoundVersion,
    Session,
    SessionInvite,
    SessionSeat,
    SessionStatus,
    Sitting,
    VersionKind,
    WinRecord,
    kept_net_field,
)

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations  # only mypy reads it: the annotations are never evaluated

WIN_REASONS = (Reason.WIN.value, Reason.SELF_DRAW_BONUS.value)  # what a winner takes for his hand


# --- scoping ------------------------------------------------------------------------------------------


def groups_for(user: User) -> QuerySet[Group]:
    return Group.objects.filter(memberships__user=user)


def group_get(*, user: User, group_id: int) -> Group:
    return get_object_or_404(groups_for(user), pk=group_id)


def sessions_for(user: User) -> QuerySet[Session]:
    return (
        Session.objects.filter(group__memberships__user=user)
        .select_related("group")
        .prefetch_related("seats__player")
    )


def session_get(*, user: User, session_id: int) -> Session:
    return get_object_or_404(sessions_for(user), pk=session_id)


def session_alone(*, user: User, session_id: int) -> Session:
    """``session_get`` without its seats read beside it (two queries fewer), for a page that reads them
    with the totals (``session_totals``)."""
    return get_object_or_404(
        Session.objects.filter(group__memberships__user=user).select_related("group"), pk=session_id
    )


@dataclass(frozen=True, slots=True)
class SessionTable:
    """The session's table as a tap needs it, read in one query: the session (with its group), the user's
    role in it, each seat's player, name and running points in seat order, and the hand in progress
    (None before the session's first write), its session set."""

    session: Session
    role: str
    players: tuple[int, ...]
    names: tuple[str, ...]
    points: tuple[int, ...]
    hand: HandInProgress | None


# Every tap reads this, so it is written in SQL: the ORM's building of the same query (a join through the
# memberships, the points' subquery, three models selected with it) cost a quarter of the tap, the
# statement itself a few hundredths of a millisecond (bench/bench_session_page.py). It is the scoping of
# ``sessions_for`` (a session of a group the user is a member of) with the user's role; the rows come
# back as the models Django would have made (``_loaded``). A seat's points are its player's kept figure
# (``sessions_totals``), one row whatever the session's length. Tested on SQLite and PostgreSQL.
def _table_sql() -> str:
    tables = {alias: model._meta.db_table for alias, model in TABLE_MODELS.items()}
    columns = ", ".join(
        f"{alias}.{connection.ops.quote_name(field.column)}"
        for alias, model in TABLE_MODELS.items()
        for field in _fields(model)
    )
    return f"""
    SELECT seat.seat, seat.player_id, player.name, membership.role,
        COALESCE(figures.net, 0),
        {columns}
    FROM {SessionSeat._meta.db_table} AS seat
    JOIN {tables["session"]} AS session ON session.id = seat.session_id
    JOIN {tables["grp"]} AS grp ON grp.id = session.group_id
    JOIN {Membership._meta.db_table} AS membership
        ON membership.group_id = session.group_id AND membership.user_id = %s
    JOIN {Player._meta.db_table} AS player ON player.id = seat.player_id
    LEFT JOIN {Figures._meta.db_table} AS figures ON figures.session_id = seat.session_id
        AND figures.player_id = seat.player_id AND figures.other_id = seat.player_id
    LEFT JOIN {tables["hand"]} AS hand ON hand.session_id = session.id
    WHERE seat.session_id = %s
    ORDER BY seat.seat
    """  # noqa: S608 - the tables and columns are the models' own names; every value is a parameter


TABLE_MODELS: Mapping[str, type[Model]] = {"session": Session, "grp": Group, "hand": HandInProgress}


def _fields(model: type[Model]) -> list[Any]:
    return list(model._meta.concrete_fields)


def _loaded(model: type[Model], alias: str, values: Sequence[Any]) -> Any:
    """A model instance from its columns as the database returned them, converted as the ORM converts
    them (its backend's converters, then the field's own: JSON, dates, booleans); None for a row the
    LEFT JOIN found none of (its primary key NULL)."""
    fields = _fields(model)
    if values[fields.index(model._meta.pk)] is None:
        return None
    converted = []
    for field, value in zip(fields, values, strict=True):
        column = field.get_col(alias)
        for converter in (*connection.ops.get_db_converters(column), *field.get_db_converters(connection)):
            value = converter(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, [field.attname for field in fields], converted)


def table_of(*, user: User, session_id: int) -> SessionTable | None:
    """``session_table``, or None when the session is not one of the user's groups'."""
    with connection.cursor() as cursor:
        cursor.execute(_table_sql(), [user.pk, session_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    models, start = {}, 5
    for alias, model in TABLE_MODELS.items():
        width = len(_fields(model))
        models[alias] = _loaded(model, alias, rows[0][start : start + width])
        start += width
    session, hand = models["session"], models["hand"]
    session.group = models["grp"]
    if hand is not None:
        hand.session = session
    return SessionTable(
        session=session,
        role=rows[0][3],
        players=tuple(row[1] for row in rows),
        names=tuple(row[2] for row in rows),
        points=tuple(int(row[4]) for row in rows),
        hand=hand,
    )


def session_table(*, user: User, session_id: int) -> SessionTable:
    """One of the user's sessions as its page shows it and a tap writes to it (another group's is a 404,
    as ``session_get``)."""
    table = table_of(user=user, session_id=session_id)
    if table is None:
        raise Http404("no such session")
    return table


def rounds_for(user: User) -> QuerySet[Round]:
    return Round.objects.filter(session__group__memberships__user=user).select_related("session__group")


def round_get(*, user: User, round_id: int) -> Round:
    return get_object_or_404(rounds_for(user), pk=round_id)


class WithRole(TypedDict):
    role: str  # the user's role in the group


def groups_with_role(user: User) -> QuerySet[WithAnnotations[Group, WithRole]]:
    """The user's groups, each with ``role``: the user's role in it."""
    return Group.objects.filter(memberships__user=user).annotate(role=F("memberships__role")).order_by("id")


def group_members(group: Group) -> QuerySet[Membership]:
    return Membership.objects.filter(group=group).select_related("user").order_by("id")


def member_get(*, group: Group, member_id: int) -> Membership:
    return get_object_or_404(Membership.objects.select_related("user", "group"), group=group, pk=member_id)


def group_players(group: Group) -> QuerySet[Player]:
    return Player.objects.filter(group=group).select_related("user").order_by("id")


def player_names(group: Group) -> dict[int, str]:
    """The group's players' names by id."""
    return dict(Player.objects.filter(group=group).values_list("pk", "name"))


def group_sessions(group: Group) -> QuerySet[Session]:
    """The group's sessions newest first, each with its seats and their players (one query for both)."""
    seats = Prefetch("seats", queryset=SessionSeat.objects.select_related("player"))
    return Session.objects.filter(group=group).prefetch_related(seats).order_by("-id")


# --- invites -----------------------------------------------------------------------------------------


def session_invites(session: Session) -> QuerySet[SessionInvite]:
    """A session's links, newest first (who may see them is the services' call: they grant access)."""
    return SessionInvite.objects.filter(session=session).select_related("created_by").order_by("-id")


def group_invites(group: Group) -> QuerySet[SessionInvite]:
    """The links to the group's sessions that still work (neither revoked nor expired), newest first."""
    return (
        SessionInvite.objects.filter(
            session__group=group, revoked_at__isnull=True, expires_at__gt=timezone.now()
        )
        .select_related("session", "created_by")
        .order_by("-id")
    )


def invite_get(*, user: User, invite_id: int) -> SessionInvite:
    return get_object_or_404(
        SessionInvite.objects.filter(session__group__memberships__user=user).select_related("session__group"),
        pk=invite_id,
    )


def invite_by_token(token: str) -> SessionInvite:
    """The invite a link names, whoever opens it: the token is the only key (404 when unknown)."""
    return get_object_or_404(
        SessionInvite.objects.select_related("session__group", "created_by"), token=token
    )


# Asked every two seconds by every watching phone, so written in SQL as ``MEMBER_HAND_REVISION_SQL``
# below is (the reason is there): the link's unique token, still a viewer link, neither revoked nor
# expired, joined to the session's one hand row.
INVITE_HAND_REVISION_SQL = f"""
    SELECT hand.revision
    FROM {SessionInvite._meta.db_table} AS invite
    JOIN {HandInProgress._meta.db_table} AS hand ON hand.session_id = invite.session_id
    WHERE invite.token = %s AND invite.role = %s AND invite.revoked_at IS NULL AND invite.expires_at > %s
"""  # noqa: S608 - the tables are the models' own names; every value is a parameter


def invite_hand_revision(token: str) -> int | None:
    """The revision of the hand a viewer link shows, in one indexed query; None once the link is revoked
    or expired (or never was)."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(INVITE_HAND_REVISION_SQL, [token, Role.VIEWER.value, now])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def invitations_for(user: User) -> QuerySet[GroupInvitation]:
    """Invitations waiting for ``user``'s answer, newest first."""
    return (
        GroupInvitation.objects.filter(user=user, status=InvitationStatus.PENDING)
        .select_related("group", "invited_by", "user")
        .order_by("-id")
    )


def invitation_get(*, user: User, invitation_id: int) -> GroupInvitation:
    """An invitation addressed to ``user`` or to a group of his (an owner may withdraw it); else 404."""
    visible = GroupInvitation.objects.filter(Q(user=user) | Q(group__memberships__user=user)).distinct()
    return get_object_or_404(visible.select_related("group", "invited_by", "user"), pk=invitation_id)


# --- a session ---------------------------------------------------------------------------------------


def session_seats(session: Session) -> list[SessionSeat]:
    return list(SessionSeat.objects.filter(session=session).select_related("player").order_by("seat"))


def seat_map(session_id: int, position: int) -> dict[int, int]:
    """Seat -> player id as the table sat for the hand at ``position`` (one query over its sittings):
    whom a round's rows and wins name, when it is recorded and whenever it is corrected."""
    return dict(
        Sitting.objects.filter(session_id=session_id, first__lte=position)
        .filter(Q(last__isnull=True) | Q(last__gte=position))
        .values_list("seat", "player_id")
    )


def seated_at(session_id: int, position: int) -> tuple[tuple[int, str], ...]:
    """Each seat's (player id, name) in seat order, as the table sat for the hand at ``position`` (one
    query): how a recorded hand names its seats, whoever sits there now."""
    rows = (
        Sitting.objects.filter(session_id=session_id, first__lte=position)
        .filter(Q(last__isnull=True) | Q(last__gte=position))
        .order_by("seat")
        .values_list("player_id", "player__name")
    )
    return tuple((player, name) for player, name in rows)


@dataclass(frozen=True, slots=True)
class SeatTotal:
    seat: int
    player_id: int
    player_name: str
    points: int
    coins: int | None


@dataclass(frozen=True, slots=True)
class SessionTotals:
    """A session's totals, each a person's (docs/ledger.md, "Substitutes"): ``seats`` the four at the table
    now in seat order, ``away`` whoever played earlier and has left (in the order they left, each at the
    seat he left), ``players`` all of them: what the settle-up, the debts and the picture count."""

    seats: tuple[SeatTotal, ...]
    house: int
    house_coins: int | None
    rounds: int
    away: tuple[SeatTotal, ...] = ()

    @property
    def players(self) -> tuple[SeatTotal, ...]:
        return self.seats + self.away


def _per(rows: QuerySet[Any], key: str, aggregate: Aggregate) -> dict[Any, Any]:
    """``aggregate`` of ``rows`` for each value of ``key``, as a dict: one GROUP BY query, no ordering."""
    return dict(rows.values(key).annotate(total=aggregate).values_list(key, "total").order_by())


def session_totals(session: Session) -> SessionTotals:
    """Running totals per person (two queries: sittings, and the kept figures; a third for coins)."""
    return sessions_totals([session])[session.pk]


def sessions_totals(sessions: Sequence[Session]) -> dict[int, SessionTotals]:
    """``session_totals`` of many sessions at once, by session id: the same queries whatever their number
    and their length (an export reads a whole group's; a session of 10,000 hands costs what one of 10 does).

    A person's points are his kept figure (``models.Figures``, his own row: ledger/figures.py), which every
    round write moves in its own transaction, and the rounds the session's counted rounds, read in the
    same statement, so the two always agree; the house holds what the players' points leave, since every
    round balances with it (``integrity``'s seal). Points are a person's, so a seat's total is its player's
    and a substitute's hands count for him. Coins are summed by seat from their entries (a session with
    coins never changes its players)."""
    ids = [session.pk for session in sessions]
    points: dict[tuple[int, int | None], int] = {}
    rounds: dict[int, int] = {}
    for session_id, player_id, net, counted in Figures.objects.filter(
        session_id__in=ids, other_id=F("player_id")
    ).values_list("session_id", "player_id", "net", "session__counted_rounds"):
        points[session_id, player_id] = net
        points[session_id, None] = points.get((session_id, None), 0) - net  # the house
        rounds[session_id] = counted
    with_coins = [session.pk for session in sessions if session.coins_enabled]
    coins = (
        _per_pair(CoinEntry.objects.filter(session_id__in=with_coins), ("session_id", "seat"), Sum("coins"))
        if with_coins
        else {}
    )
    sat = sittings(sessions)
    return {
        session.pk: _totals_of(session, sat.get(session.pk, ()), points, coins, rounds.get(session.pk, 0))
        for session in sessions
    }


def sittings(sessions: QuerySet[Session] | Sequence[Session]) -> dict[int, list[Sitting]]:
    """Each session's sittings with their players, in the order they began, by session id. One query."""
    found: dict[int, list[Sitting]] = {}
    for sitting in (
        Sitting.objects.filter(session__in=sessions).select_related("player").order_by("first", "seat")
    ):
        found.setdefault(sitting.session_id, []).append(sitting)
    return found


def table_and_away(spells: Iterable[Sitting]) -> tuple[list[Sitting], list[Sitting]]:
    """The sittings open now in seat order, and the last sitting of each player who has left, in the
    order they left: the people of a session as its totals list them."""
    spells = list(spells)
    table = sorted((spell for spell in spells if spell.last is None), key=lambda spell: spell.seat)
    here = {spell.player_id for spell in table}
    last: dict[int, Sitting] = {}
    for spell in spells:
        gone = spell.player_id not in here and spell.last is not None
        if gone and (spell.player_id not in last or (spell.last or 0) > (last[spell.player_id].last or 0)):
            last[spell.player_id] = spell
    return table, sorted(last.values(), key=lambda spell: (spell.last or 0, spell.seat))


def _per_pair(rows: QuerySet[Any], keys: tuple[str, str], aggregate: Aggregate) -> dict[Any, Any]:
    """``aggregate`` of ``rows`` for each pair of values of ``keys``: one GROUP BY query."""
    return {
        (first, second): total
        for first, second, total in rows.values(*keys)
        .annotate(total=aggregate)
        .values_list(*keys, "total")
        .order_by()
    }


def _totals_of(
    session: Session,
    spells: Iterable[Sitting],
    points: Mapping[tuple[int, int | None], Any],
    coins: Mapping[tuple[int, int | None], Any],
    rounds: int,
) -> SessionTotals:
    starting = session.starting_balances or [0] * SEATS
    key = session.pk

    def total(spell: Sitting, *, here: bool) -> SeatTotal:
        return SeatTotal(
            seat=spell.seat,
            player_id=spell.player_id,
            player_name=spell.player.name,
            points=int(points.get((key, spell.player_id)) or 0),
            coins=int(starting[spell.seat]) + int(coins.get((key, spell.seat)) or 0)
            if session.coins_enabled and here
            else None,
        )

    table, away = table_and_away(spells)
    return SessionTotals(
        seats=tuple(total(spell, here=True) for spell in table),
        house=int(points.get((key, None)) or 0),
        house_coins=int(coins.get((key, None)) or 0) if session.coins_enabled else None,
        rounds=int(rounds),
        away=tuple(total(spell, here=False) for spell in away),
    )


def _players_points() -> Subquery:
    """The running points in its session of the player an outer seat row names (his kept figure: they
    follow the person, whichever seats he sat at), for a seat row's annotation."""
    return Subquery(
        Figures.objects.filter(
            session=OuterRef("session_id"), player=OuterRef("player_id"), other=OuterRef("player_id")
        ).values("net")[:1]
    )


def ledger_points(session: Session) -> tuple[list[int], int]:
    """Each seat's ledger sum, whoever sat there, and the house's, summed from the rows themselves (one
    query): what a replay of the rounds, seat by seat, reaches (``verify_ledger``: the totals' kept
    figures would be checking themselves). The table's totals are a person's (``seat_points``)."""
    points = _per(LedgerEntry.objects.filter(session=session), "seat", Sum("points"))  # the house: no seat
    return [int(points.get(seat) or 0) for seat in range(SEATS)], int(points.get(None) or 0)


def seat_points(session: Session) -> tuple[int, ...]:
    """Each seat's running points, its player's (one query): what the table's seats show beside this
    hand's part."""
    points = dict(
        SessionSeat.objects.filter(session=session)
        .annotate(points=Coalesce(_players_points(), 0))
        .values_list("seat", "points")
    )
    return tuple(int(points.get(seat) or 0) for seat in range(SEATS))


def coin_balances(session: Session, *, before: int | None = None) -> list[int] | None:
    """The coin balances a round is settled against: the starting balances plus the coins of every round
    before position ``before`` (of every round when None: a new round comes last). None without coins."""
    if not session.coins_enabled:
        return None
    entries = CoinEntry.objects.filter(session=session, is_house=False)
    if before is not None:
        entries = entries.filter(round__position__lt=before)
    moved = _per(entries, "seat", Sum("coins"))
    return [
        int(start) + int(moved.get(seat) or 0) for seat, start in enumerate(session.starting_balances or ())
    ]


def session_settle(
    session: Session, *, dealer: object, void_suits: object, events: object, coins_before: list[int] | None
) -> RoundResult:
    """Settle events by the session's stored rules (and its coins against ``coins_before``): the one call
    behind recording, correcting, re-coining and the preview of the hand in progress."""
    coins = None
    if coins_before is not None:
        coins = {"balances": coins_before, "room_coefficient": session.room_coefficient}
    return settle_round(
        dealer=dealer, events=events, rules=rules_from(session.rules), void_suits=void_suits, coins=coins
    )


def session_settle_up(session: Session) -> dict[str, Any]:
    """Who pays whom to bring every total to zero; burned points appear as a payment to the house."""
    return points_settle_up(session, session_totals(session))


def session_coin_settle_up(session: Session) -> dict[str, Any] | None:
    """With coins on, who hands whom coins: the fewest transfers of each seat's coin change since the start
    (what actually moved; a loser who ran short paid only what they held), the house owed its take.
    The points' settle-up beside it would ask a short loser for more than they lost. None without coins."""
    return coin_settle_up(session, session_totals(session))


def session_money_settle_up(session: Session) -> dict[str, Any]:
    """What is to be paid after the session: its coins' settle-up when it plays for coins, else its
    points'. The one reading of "what the table owes" (the settle page, the picture, debts)."""
    return money_settle_up(session, session_totals(session))


def points_settle_up(session: Session, totals: SessionTotals) -> dict[str, Any]:
    """The points' settle-up over everyone who played (``totals.players``: the seats now, then whoever
    left), so its balances and its payments' ``from``/``to`` index them, the four seats first; the table
    fee enters it when the session settles in points."""
    fee = None if session.coins_enabled else session
    return _settled([person.points for person in totals.players], totals.house, totals, fee)


def coin_settle_up(session: Session, totals: SessionTotals) -> dict[str, Any] | None:
    if totals.house_coins is None:
        return None
    starting = session.starting_balances or [0] * SEATS
    changes = [int(seat.coins or 0) - int(starting[seat.seat]) for seat in totals.seats]
    return _settled(changes, totals.house_coins, totals, session)


def money_settle_up(session: Session, totals: SessionTotals) -> dict[str, Any]:
    return coin_settle_up(session, totals) or points_settle_up(session, totals)


def table_fee(session: Session, nets: Sequence[int], totals: SessionTotals) -> dict[str, Any] | None:
    """The session's table fee against ``nets`` (docs/ledger.md, "The table fee"): each player's share (in
    the order of ``totals.players``), and the place there of who paid the room (``paid_by_seat``; None:
    the house is owed it). None without a fee."""
    if not session.fee_amount:
        return None
    seat_of = {person.player_id: place for place, person in enumerate(totals.players)}
    return {
        "amount": session.fee_amount,
        "split": session.fee_split,
        "paid_by": session.fee_paid_by_id,
        "paid_by_seat": seat_of.get(session.fee_paid_by_id) if session.fee_paid_by_id else None,
        "shares": list(fee_shares(nets, session.fee_amount, FeeSplit(session.fee_split))),
    }


def fee_moves(fee: Mapping[str, Any] | None, seats: int) -> list[int]:
    """What the fee does to each seat's balance, then to the house's: each seat bears its share, and
    whoever paid the room (else the house) is owed the whole fee. All zeros without a fee."""
    if fee is None:
        return [0] * (seats + 1)
    paid_by = seats if fee["paid_by_seat"] is None else fee["paid_by_seat"]
    return [
        (fee["amount"] if place == paid_by else 0) - (fee["shares"][place] if place < seats else 0)
        for place in range(seats + 1)
    ]


def _settled(
    nets: list[int], house: int, totals: SessionTotals, fee_of: Session | None = None
) -> dict[str, Any]:
    """The fewest payments that square ``nets`` and the house, the table fee of ``fee_of`` taken in first:
    each seat bears its share, and whoever paid the room (else the house) is owed the fee."""
    fee = table_fee(fee_of, nets, totals) if fee_of is not None else None
    *moved, to_house = fee_moves(fee, len(nets))
    balances = [net + change for net, change in zip(nets, moved, strict=True)]
    house += to_house
    people = totals.players
    payments = []
    for payment in settle_up([*balances, house] if house else balances):
        payments.append(
            {
                "from": _party(payment.payer, people),
                "from_name": _party_name(payment.payer, people),
                "from_player": _party_player(payment.payer, people),
                "to": _party(payment.payee, people),
                "to_name": _party_name(payment.payee, people),
                "to_player": _party_player(payment.payee, people),
                "amount": payment.amount,
            }
        )
    return {"balances": balances, "house": house, "payments": payments, "fee": fee}


def _party(index: int, people: Sequence[SeatTotal]) -> int | str:
    return "house" if index == len(people) else index


def _party_name(index: int, people: Sequence[SeatTotal]) -> str:
    return "房间 house" if index == len(people) else people[index].player_name


def _party_player(index: int, people: Sequence[SeatTotal]) -> int | None:
    return None if index == len(people) else people[index].player_id


def ledger_entries(session: Session) -> QuerySet[LedgerEntry]:
    return (
        LedgerEntry.objects.filter(session=session)
        .select_related("round", "round_version", "player")
        .order_by("id")
    )


class WithResult(TypedDict):
    result: dict[str, Any] | None  # the current version's settle response (none for a void)


def session_rounds(session: Session) -> QuerySet[WithAnnotations[Round, WithResult]]:
    """The session's rounds in order, each with ``result``: its current version's settle response."""
    current = RoundVersion.objects.filter(round=OuterRef("pk"), version=OuterRef("version")).values("result")[
        :1
    ]
    return (
        Round.objects.filter(session=session)
        .annotate(result=Subquery(current, output_field=JSONField()))
        .order_by("position")
    )


class WithNets(TypedDict):
    """What round_net annotates by a fixed name; the columns named by seat are read with getattr."""

    net_house: int | None


def round_net(session: Session) -> QuerySet[WithAnnotations[Round, WithNets]]:
    """Each round with its net points per seat and for the house (``net_0`` .. ``net_3``, ``net_house``)
    and, with coins on, its coin change per seat (``coins_0`` .. ``coins_3``): one query, streamable."""
    sums = {f"net_{seat}": Sum("entries__points", filter=Q(entries__seat=seat)) for seat in range(SEATS)}
    rounds = Round.objects.filter(session=session).annotate(
        **sums, net_house=Sum("entries__points", filter=Q(entries__is_house=True))
    )
    if session.coins_enabled:
        # subqueries, not a second join: joining both entries and coin entries would multiply the rows
        rounds = rounds.annotate(**{f"coins_{seat}": _round_coins(seat) for seat in range(SEATS)})
    return rounds.order_by("position")


def _round_coins(seat: int) -> Subquery:
    moved = (
        CoinEntry.objects.filter(round=OuterRef("pk"), seat=seat)
        .order_by()
        .values("round")
        .annotate(total=Sum("coins"))
        .values("total")
    )
    return Subquery(moved, output_field=BigIntegerField())


def iter_round_net(session: Session) -> Iterator[WithAnnotations[Round, WithNets]]:
    return round_net(session).iterator(chunk_size=100)


def iter_round_person_net(
    session: Session, people: Sequence[int]
) -> Iterator[WithAnnotations[Round, WithNets]]:
    """``round_net`` by person, not seat: ``net_<i>`` is what ``people[i]`` (a player id) netted in each
    round, whichever seat he sat at (a substitute's column is his own)."""
    sums = {
        f"net_{place}": Sum("entries__points", filter=Q(entries__player_id=player))
        for place, player in enumerate(people)
    }
    rounds = Round.objects.filter(session=session).annotate(
        **sums, net_house=Sum("entries__points", filter=Q(entries__is_house=True))
    )
    if session.coins_enabled:  # a session with coins never changes its players: its seats are its people
        rounds = rounds.annotate(**{f"coins_{seat}": _round_coins(seat) for seat in range(SEATS)})
    return rounds.order_by("position").iterator(chunk_size=100)


def names_at(spells: Sequence[Sitting], position: int) -> tuple[str, ...]:
    """Each seat's player name, in seat order, for the hand at ``position`` (from sittings read already)."""
    sat = (sitter(spells, seat, position) for seat in range(SEATS))
    return tuple(spell.player.name if spell is not None else "" for spell in sat)


def sitter(spells: Iterable[Sitting], seat: int, position: int) -> Sitting | None:
    """Who sat at ``seat`` for the hand at ``position``, among a session's sittings (read already)."""
    return next(
        (
            spell
            for spell in spells
            if spell.seat == seat
            and spell.first <= position
            and (spell.last is None or spell.last >= position)
        ),
        None,
    )


@dataclass(frozen=True, slots=True)
class HandNet:
    """One hand of a session as the ledger sums it: each seat's net (0 everywhere once voided)."""

    number: int  # its position, 第N手
    voided: bool
    corrected: bool
    nets: tuple[int, ...]
    adjustment: bool = False  # a round of adjustments only (罚分 between hands): no hand, its points count


def session_hand_nets(session: Session, *, after: int = 0) -> list[HandNet]:
    """Every hand in order (those after position ``after``) with each seat's net: the ledger's sums, so a
    voided hand moves nothing and a corrected one counts as its latest version. One query, whatever the
    number of hands."""
    return [
        HandNet(
            row.position,
            row.voided,
            row.was_corrected,
            tuple(int(getattr(row, f"net_{seat}") or 0) for seat in range(SEATS)),
            row.adjustment,
        )
        for row in round_net(session)
        .filter(position__gt=after)
        .only("position", "voided", "adjustment")  # not the events: decoding them was most of a long read
        .annotate(was_corrected=_was_corrected())
    ]


def _was_corrected() -> Exists:
    """A round's 改过: a version of it corrects it (a re-coined one changes no points, a void is 作废)."""
    return Exists(RoundVersion.objects.filter(round=OuterRef("pk"), kind=VersionKind.CORRECTED))


@dataclass(frozen=True, slots=True)
class HandMark:
    """What a hand's row says beside its numbers."""

    voided: bool  # 作废
    corrected: bool  # 改过
    adjustment: bool  # 罚分 between hands, not a hand


@dataclass(frozen=True, slots=True)
class RunningTotal:
    """A hand, its marks and what each person stands at after it (``session_running_totals``)."""

    position: int
    mark: HandMark
    totals: tuple[int, ...]


RUNNING_TOTALS_SQL = """
    SELECT hand.position, hand.voided,
           EXISTS (SELECT 1 FROM {version} AS version WHERE version.round_id = hand.id AND version.kind = %s),
           hand.adjustment, {totals}
    FROM (
        SELECT round.id, round.position, round.voided, round.adjustment, {running}
        FROM {round} AS round
        WHERE round.session_id = %s
    ) AS hand
    WHERE hand.position IN ({positions})
    ORDER BY hand.position
"""  # the tables and columns are the models' own names, the rest placeholders: every value is a parameter
# A person's net in a hand: the kept net of the seat he sat at then, one term per spell of his.
HELD_THEN = {
    True: "CASE WHEN round.position >= %s THEN round.{net} ELSE 0 END",  # he sits there now
    False: "CASE WHEN round.position BETWEEN %s AND %s THEN round.{net} ELSE 0 END",
}


def _held(spells: Sequence[Sitting]) -> tuple[str, list[int]]:
    """The SQL of a person's net in each hand, summing ``HELD_THEN`` over ``spells`` (his), and its
    parameters; 0 for someone who never sat."""
    terms = [HELD_THEN[spell.last is None].format(net=kept_net_field(spell.seat)) for spell in spells]
    limits = [limit for spell in spells for limit in (spell.first, spell.last) if limit is not None]
    return " + ".join(terms) or "0", limits


def session_running_totals(
    session: Session, people: Sequence[int], positions: Sequence[int], *, spells: Sequence[Sitting]
) -> list[RunningTotal]:
    """The session's hands at ``positions``, in order, each with its marks (作废, 改过, 罚分) and what each
    of ``people`` (player ids) stands at after it, whichever seats he sat at: ``spells``, the session's
    sittings (``sittings``), say which seat was his at each hand, and the round keeps each seat's current
    net (``Round.kept_net_*``, the sums of its live ledger rows), so a voided hand moves nothing and a
    corrected one counts as its latest version; the house's net is nobody's. One query, as long as
    ``positions`` whatever the session's length: the database reads one row a hand down the rounds'
    (session, position) index, with no sort, no join and no ledger row, adds each person's nets up in
    order (a window, which the filter on positions stays outside of) and returns the hands asked for
    only. Summing the 16 ledger rows of every hand instead grew 2.7x from 2,000 to 10,000 hands (issue
    16)."""
    if not positions:
        return []
    held = [_held([spell for spell in spells if spell.player_id == person]) for person in people]
    sql = RUNNING_TOTALS_SQL.format(
        version=RoundVersion._meta.db_table,
        round=Round._meta.db_table,
        totals=", ".join(f"hand.total_{place}" for place in range(len(people))),
        running=", ".join(
            f"SUM({terms}) OVER (ORDER BY round.position) AS total_{place}"
            for place, (terms, _) in enumerate(held)
        ),
        positions=", ".join(["%s"] * len(positions)),
    )
    limits = [limit for _, person_limits in held for limit in person_limits]
    with connection.cursor() as cursor:
        cursor.execute(sql, [VersionKind.CORRECTED.value, *limits, session.pk, *positions])
        rows = cursor.fetchall()
    return [RunningTotal(row[0], HandMark(*map(bool, row[1:4])), tuple(map(int, row[4:]))) for row in rows]


def session_biggest_wins(session: Session, *, limit: int = 5) -> list[WinRecord]:
    """The session's biggest wins, by the points each winner took for his hand (the win and its 自摸加底,
    ``WinRecord.points``), largest first, each with its round, its version (the settle result and notes
    that say the pattern), winner and discarder. Current versions only: a corrected hand counts as
    corrected, a voided one not at all. Two queries: which wins, read down the index of (session, points
    desc), then those with their rows. In one, PostgreSQL without fresh statistics (a bulk-seeded session)
    joined both players to every win of the session before sorting: 3.3 s at 10,000 hands."""
    top = list(
        WinRecord.objects.filter(session=session, version=F("round__version"), round__voided=False)
        .order_by("-points", "round__position", "event_index", "id")
        .values_list("id", flat=True)[:limit]
    )
    found = WinRecord.objects.select_related("round", "round_version", "winner", "discarder").in_bulk(top)
    return [found[pk] for pk in top]


def session_last_position(session: Session) -> int:
    """The position of the session's latest round (0 before the first): one indexed read."""
    return Round.objects.filter(session=session).aggregate(last=Max("position"))["last"] or 0


def session_history(session: Session, *, newest: int, count: int) -> list[Round]:
    """The ``count`` rounds of the session from position ``newest`` down, newest first, each with its
    versions (oldest first) and their creators: one page of what the history page explains. Two queries,
    whatever the session's length (positions run 1, 2, 3 … with no gap, voided rounds keeping theirs)."""
    versions = RoundVersion.objects.select_related("created_by").order_by("version")
    return list(
        Round.objects.filter(session=session, position__lte=newest, position__gt=newest - count)
        .prefetch_related(Prefetch("versions", queryset=versions))
        .order_by("-position")
    )


def session_round_get(*, session: Session, round_id: int) -> Round:
    """One round of ``session`` (already scoped to the user's groups): 404 for any other id."""
    return get_object_or_404(Round.objects.select_related("session__group"), session=session, pk=round_id)


# --- the hand in progress ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandState:
    """The hand in progress as a table sees it: its events and notes, and ``result``, the engine's
    settlement of the events so far (``preview`` is its JSON, the settle response)."""

    session_id: int
    number: int
    dealer: int
    void_suits: list[str | None] | None
    events: tuple[Any, ...]
    notes: tuple[str | None, ...]
    revision: int
    can_redo: bool
    result: RoundResult

    @property
    def can_undo(self) -> bool:
        return bool(self.events)

    @property
    def preview(self) -> dict[str, Any]:
        return self.result.to_dict()


def session_hand(session: Session) -> HandState:
    """The session's hand in progress with its preview (with coins on, settled against the balances now)."""
    hand = hand_row(session)
    result = session_settle(
        session,
        dealer=hand.dealer,
        void_suits=hand.void_suits,
        events=hand.events,
        coins_before=coin_balances(session),
    )
    return HandState(
        session_id=session.pk,
        number=hand.number,
        dealer=hand.dealer,
        void_suits=hand.void_suits,
        events=tuple(hand.events),
        notes=tuple(hand.notes),
        revision=hand.revision,
        can_redo=bool(hand.undone),
        result=result,
    )


def session_hand_revision(session: Session) -> int:
    """The hand's revision alone (one indexed read): what an ETag or a poller compares."""
    revision = HandInProgress.objects.filter(session=session).values_list("revision", flat=True).first()
    return 0 if revision is None else revision


# The member's poll asks this every two seconds from every phone at the table, so it is written in SQL:
# building the same query through the ORM (four joins and an EXISTS) cost more than the rest of the
# request together (bench/bench_session_page.py). It is the scoping of ``sessions_for`` (a session of a
# group the user is a member of) plus what Django's auth checks on every request (the login row still
# there and not expired, the account active). Tested on SQLite and PostgreSQL (test_session_live.py).
MEMBER_HAND_REVISION_SQL = f"""
    SELECT COALESCE(hand.revision, 0)
    FROM {Session._meta.db_table} AS session
    JOIN {Membership._meta.db_table} AS membership ON membership.group_id = session.group_id
    JOIN {get_user_model()._meta.db_table} AS account ON account.id = membership.user_id
    LEFT JOIN {HandInProgress._meta.db_table} AS hand ON hand.session_id = session.id
    WHERE session.id = %s AND membership.user_id = %s AND account.is_active = %s
      AND EXISTS (SELECT 1 FROM {Login._meta.db_table} AS login
                  WHERE login.session_key = %s AND login.expire_date > %s)
"""  # noqa: S608 - the tables are the models' own names; every value is a parameter


def member_hand_revision(*, user_id: int, session_id: int, login_key: str) -> int | None:
    """The hand's revision for a member's poll, in one indexed query that is also the whole check: the
    session is one of a group the user is a member of, the user is active, and the login (the
    ``django_session`` row his cookie names) still exists and has not expired, so logging out ends it.
    None when any of that fails; 0 for a session with no hand row yet (as ``session_hand_revision``)."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(MEMBER_HAND_REVISION_SQL, [session_id, user_id, True, login_key, now])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def hand_row(session: Session) -> HandInProgress:
    """The stored hand, or (for a session that has none yet) the one it would start with, unsaved."""
    return HandInProgress.objects.filter(session=session).first() or fresh_hand(session)


def hand_draft(hand: HandInProgress) -> HandDraft:
    """The stored hand as the engine's value: what every hand write changes (``settlement.engine.draft``)."""
    return HandDraft.of(
        dealer=hand.dealer,
        void_suits=hand.void_suits,
        events=hand.events,
        notes=hand.notes,
        undone=[Undone(entry["event"], entry["note"]) for entry in hand.undone],
        revision=hand.revision,
    )


def fresh_hand(session: Session, *, dealer: int | None = None) -> HandInProgress:
    """The hand after the session's last round: its number, and the dealer that round suggested (the same
    dealer when it suggested none: the dice rule, or a round recorded unfinished); seat 0 to begin with."""
    last = session_rounds(session).filter(voided=False).last()
    if dealer is None:
        dealer = 0 if last is None else _suggested_dealer(last)
    number = (Round.objects.filter(session=session).aggregate(last=Max("position"))["last"] or 0) + 1
    return HandInProgress(session=session, number=number, dealer=dealer)


def _suggested_dealer(round_: WithAnnotations[Round, WithResult]) -> int:
    suggested = (round_.result or {}).get("next_dealer")
    return round_.dealer if suggested is None else int(suggested)


# --- the pages: home, a group ------------------------------------------------------------------------


def role_in(*, user: User, group: Group) -> str | None:
    """The user's role in the group (None when not a member): what the page offers him."""
    return Membership.objects.filter(user=user, group=group).values_list("role", flat=True).first()


@dataclass(frozen=True, slots=True)
class OpenSession:
    session: Session
    totals: SessionTotals
    hand_number: int  # the hand being played (第N手)


@dataclass(frozen=True, slots=True)
class GroupCard:
    """One group on the home page: the user's role, how many players, each open session with its totals."""

    group: Group
    role: str
    players: int
    open_sessions: tuple[OpenSession, ...]


# The groups home draws as cards, newest activity first: a phone's few screens. A parlour's player in a
# hundred groups gets the rest as one line each, so home costs what a dozen cards do (issue 16).
HOME_CARDS = 12


@dataclass(frozen=True, slots=True)
class HomeGroups:
    cards: tuple[GroupCard, ...]  # the ``HOME_CARDS`` groups played in most recently
    others: tuple[Group, ...]  # the rest, in the same order, each with ``role``


def home_groups(user: User) -> HomeGroups:
    """The user's groups, newest activity first: the first ``HOME_CARDS`` with their open sessions and
    those sessions' running totals, the others by name. The same queries whatever the number of groups
    and open sessions."""
    # Each a subquery by its own index: joined, the players and the sessions multiplied each other's rows
    # (a group of 1,000 sessions made 6,000 for one count; issue 16).
    players = Player.objects.filter(group=OuterRef("pk")).order_by().values("group")
    newest = Session.objects.filter(group=OuterRef("pk")).order_by("-id").values("id")[:1]
    groups = list(
        groups_with_role(user).annotate(
            player_count=Coalesce(Subquery(players.annotate(n=Count("id")).values("n")), 0),
            last=Subquery(newest),
        )
    )
    groups.sort(key=lambda group: (group.last or 0, group.pk), reverse=True)
    groups, others = groups[:HOME_CARDS], groups[HOME_CARDS:]
    playing = list(Session.objects.filter(group__in=groups, status=SessionStatus.OPEN).order_by("-id"))
    totals = sessions_totals(playing)
    numbers = hand_numbers(playing)
    open_by_group: dict[int, list[OpenSession]] = {}
    for session in playing:
        open_by_group.setdefault(session.group_id, []).append(
            OpenSession(session, totals[session.pk], numbers[session.pk])
        )
    cards = tuple(
        GroupCard(group, group.role, group.player_count, tuple(open_by_group.get(group.pk, ())))
        for group in groups
    )
    return HomeGroups(cards, tuple(others))


def hand_numbers(sessions: Sequence[Session]) -> dict[int, int]:
    """The hand each session is playing (第N手), as ``hand_row`` numbers it: its stored hand's, or (none
    stored yet) the one after its last round. One query, two when a session has no hand yet."""
    ids = [session.pk for session in sessions]
    numbers = dict(HandInProgress.objects.filter(session__in=ids).values_list("session", "number"))
    missing = [pk for pk in ids if pk not in numbers]
    if missing:
        last = _per(Round.objects.filter(session__in=missing), "session", Max("position"))
        numbers.update({pk: (last.get(pk) or 0) + 1 for pk in missing})
    return numbers


@dataclass(frozen=True, slots=True)
class SeatNet:
    seat: int
    name: str
    points: int


@dataclass(frozen=True, slots=True)
class SessionLine:
    """A session on the group page: its four players with each one's net, and how many hands counted."""

    session: Session
    seats: tuple[SeatNet, ...]
    rounds: int


SESSIONS_PER_PAGE = 20  # the group page's sessions at a time, newest first


@dataclass(frozen=True, slots=True)
class SessionPage:
    """A page of the group's sessions, and the id to ask for the older ones from (None: none are older)."""

    lines: tuple[SessionLine, ...]
    older: int | None


def group_session_lines(group: Group, *, before: int | None = None) -> SessionPage:
    """The group's sessions newest first, ``SESSIONS_PER_PAGE`` of them (those older than session
    ``before`` when given), each player's net in each: three queries, whatever the group has played, as
    each reads only the rows of the sessions shown (their seats as names: no seat or player is made)."""
    sessions = Session.objects.filter(group=group).order_by("-id")
    if before is not None:
        sessions = sessions.filter(pk__lt=before)
    shown = list(sessions[: SESSIONS_PER_PAGE + 1])
    older = shown[SESSIONS_PER_PAGE - 1].pk if len(shown) > SESSIONS_PER_PAGE else None
    shown = shown[:SESSIONS_PER_PAGE]
    seated: dict[int, list[tuple[int, str]]] = {session.pk: [] for session in shown}
    for session_id, seat, name in (
        SessionSeat.objects.filter(session__in=shown)
        .order_by("seat")
        .values_list("session_id", "seat", "player__name")
    ):
        seated[session_id].append((seat, name))
    # A seat's rows are the house's others (``ledger_entry_seat_or_house``): asked by their seat, the sum is
    # read from the index of (session, seat, points) alone, where ``is_house`` sent it to every row.
    nets = {
        (row["session"], row["seat"]): row["total"]
        for row in LedgerEntry.objects.filter(session__in=shown, seat__isnull=False)
        .values("session", "seat")
        .annotate(total=Sum("points"))
        .order_by()
    }
    lines = tuple(
        SessionLine(
            session,
            tuple(
                SeatNet(seat, name, int(nets.get((session.pk, seat)) or 0))
                for seat, name in seated[session.pk]
            ),
            session.counted_rounds,  # kept by every round write (integrity's seal)
        )
        for session in shown
    )
    return SessionPage(lines, older)


def group_open_sessions(group: Group) -> QuerySet[Session]:
    """The group's open sessions, newest first: those an invite link can be made to."""
    return Session.objects.filter(group=group, status=SessionStatus.OPEN).order_by("-id")


def group_last_session(group: Group) -> Session | None:
    """The group's newest session: its seating, rules and coins prefill tonight's."""
    return group_sessions(group).first()


# --- what if: hands replayed under other rules (ledger/pages/whatif.py) --------------------------------


def counted_versions(sessions: QuerySet[Session]) -> list[RoundVersion]:
    """The current version of every counted (unvoided) round of ``sessions``, in the order played, each
    with its round and session: what a replay reads. One query."""
    return list(
        RoundVersion.objects.filter(
            round__session__in=sessions, round__voided=False, version=F("round__version")
        )
        .select_related("round__session")
        .order_by("round__session__created", "round__session_id", "round__position")
    )
