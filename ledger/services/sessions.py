"""Sessions: started (four players, the rules, the coins, the first hand) and closed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from calculator.engine import PATTERN_BY_KEY, Rules
from settlement.engine import FeeSplit

from .. import bounds, debts
from ..errors import LedgerError
from ..models import (
    SEATS,
    WRITER_ROLES,
    Group,
    HandInProgress,
    Player,
    Round,
    Session,
    SessionSeat,
    SessionStatus,
    Sitting,
)
from .checks import MAX_ID, _check_dealer, _is_whole, _optional_text, _required_text, require_role
from .groups import player_add

MAX_COINS = 10**12
MAX_ROOM_COEFFICIENT = 1_000_000  # coins per point


@transaction.atomic
def session_start(
    *,
    actor: User,
    group: Group,
    name: object = "",
    player_ids: Sequence[int],
    rules: Mapping[str, Any] | None = None,
    coins: Mapping[str, Any] | None = None,
    dealer: object = 0,
    fee: Mapping[str, Any] | None = None,
) -> Session:
    """A new open session: four of the group's players in seat order, the rules, optional coins, an
    optional table fee (``session_fee_set``'s fields), and its first hand in progress with ``dealer`` (a
    seat) dealing. A blank ``name`` names it by its day (``Session.title``)."""
    require_role(actor=actor, group=group, roles=WRITER_ROLES)
    seat = _check_dealer(dealer)
    bounds.check_group(group)
    players = _seat_players(group, player_ids)
    session = session_row(group=group, name=name, rules=rules, coins=coins)
    if fee is not None:
        session.fee_amount, session.fee_split, session.fee_paid_by_id = _start_fee(fee, players)
    session.day = timezone.localdate()
    Group.objects.select_for_update().filter(pk=group.pk).first()  # one day number per session
    session.day_number = Session.objects.filter(group=group, day=session.day).count() + 1
    session.save(force_insert=True)
    SessionSeat.objects.bulk_create(
        SessionSeat(session=session, seat=seat, player=player) for seat, player in enumerate(players)
    )
    Sitting.objects.bulk_create(
        Sitting(session=session, seat=seat, player=player) for seat, player in enumerate(players)
    )
    HandInProgress.objects.create(session=session, number=1, dealer=seat)
    debts.moved(group.pk)  # a fee paid by a player is owed him before any hand
    return session


def _start_fee(fee: Mapping[str, Any], players: Sequence[Player]) -> tuple[Any, Any, Any]:
    """The fee a session starts with, checked as ``session_fee_set`` checks it, each field named under
    ``fee`` (``fee.paid_by``: one of the four players' ids, or null)."""
    try:
        return fee_checked(
            amount=fee.get("amount"),
            split=fee.get("split", FeeSplit.AA.value),
            paid_by=fee.get("paid_by"),
            seated={player.pk for player in players},
        )
    except LedgerError as error:
        raise error.within("fee") from None


def session_row(
    *, group: Group | None, name: object, rules: Mapping[str, Any] | None, coins: Mapping[str, Any] | None
) -> Session:
    """A new session's row, checked and not yet stored: its name (blank: named by its day), every value of
    its rules, its coins; its day and day number are the caller's (a group file's import takes them from
    the file and stores the row in bulk: services/bulk.py)."""
    full_rules = _every_value(Rules.from_dict(rules))
    room_coefficient, balances = _parse_coins(coins)
    return Session(
        group=group,
        name=_optional_text(name, "name", 100),
        rules=full_rules,
        coins_enabled=coins is not None,
        room_coefficient=room_coefficient,
        starting_balances=balances,
    )


@transaction.atomic
def session_start_by_names(
    *,
    actor: User,
    group: Group,
    name: str = "",
    player_names: Sequence[str],
    rules: Mapping[str, Any] | None = None,
    coins: Mapping[str, Any] | None = None,
    dealer: object = 0,
    fee: Mapping[str, Any] | None = None,
) -> Session:
    """``session_start`` with the four players named in seat order: a name the group does not know yet
    becomes a new player. One transaction: a refused session leaves no new player behind."""
    require_role(actor=actor, group=group, roles=WRITER_ROLES)
    names = _seat_names(player_names)
    known = {player.name: player for player in Player.objects.filter(group=group, name__in=names)}
    players = [
        known.get(seat_name) or player_add(actor=actor, group=group, name=seat_name) for seat_name in names
    ]
    return session_start(
        actor=actor,
        group=group,
        name=name,
        player_ids=[player.pk for player in players],
        rules=rules,
        coins=coins,
        dealer=dealer,
        fee=fee,
    )


def _seat_names(player_names: Sequence[str]) -> list[str]:
    if isinstance(player_names, str) or len(player_names) != SEATS:
        raise LedgerError("player_names", field="players")
    names = [_required_text(seat_name, f"players[{seat}]", 50) for seat, seat_name in enumerate(player_names)]
    if len(set(names)) != SEATS:
        raise LedgerError("players_not_different", field="players")
    return names


def _every_value(rules: Rules) -> dict[str, Any]:
    """The rules as stored with a session: every option's value, each pattern's fan included (to_dict
    gives only the overridden fans), so a later change of a preset or of a default never changes a
    session already played. Sessions stored before this hold overrides; they still load (from_dict)."""
    stored = rules.to_dict()
    stored["pattern_fan"] = {pattern: rules.pattern_value(pattern) for pattern in PATTERN_BY_KEY}
    return stored


def _seat_players(group: Group, player_ids: Sequence[int]) -> list[Player]:
    seat_ids_check(player_ids)
    found = Player.objects.in_bulk(list(player_ids))
    for index, player_id in enumerate(player_ids):
        player = found.get(player_id)
        if player is None or player.group_id != group.pk:
            raise LedgerError("no_such_player", field=f"players[{index}]", value=player_id)
    return [found[player_id] for player_id in player_ids]


def seat_ids_check(player_ids: Sequence[int]) -> None:
    """Four different player ids, one a seat."""
    if not isinstance(player_ids, Sequence) or len(player_ids) != SEATS:
        raise LedgerError("player_ids", field="players")
    for index, player_id in enumerate(player_ids):
        if not _is_whole(player_id, 1, MAX_ID):
            raise LedgerError("not_a_player_id", field=f"players[{index}]", value=player_id)
    if len(set(player_ids)) != SEATS:
        raise LedgerError("players_not_different", field="players")


def _parse_coins(coins: Mapping[str, Any] | None) -> tuple[int | None, list[int] | None]:
    if coins is None:
        return None, None
    if not isinstance(coins, Mapping):
        raise LedgerError("session_coins", field="coins")
    coefficient = coins.get("room_coefficient")
    if not _is_whole(coefficient, 1, MAX_ROOM_COEFFICIENT):
        raise LedgerError(
            "session_room_coefficient", field="coins.room_coefficient", maximum=MAX_ROOM_COEFFICIENT
        )
    balances = coins.get("starting_balances")
    if (
        not isinstance(balances, list)
        or len(balances) != SEATS
        or not all(_is_whole(b, 0, MAX_COINS) for b in balances)
    ):
        raise LedgerError("starting_balances", field="coins.starting_balances")
    return coefficient, list(balances)


@transaction.atomic
def session_close(*, actor: User, session: Session) -> Session:
    require_role(actor=actor, group=session.group, roles=WRITER_ROLES)
    session = _locked(session)
    if session.is_open:
        session.status = SessionStatus.CLOSED
        session.closed = timezone.now()
        session.save(update_fields=["status", "closed"])
        _hand_follows_ledger(session)
    return session


MAX_FEE = 10**12  # far above any room's price in points or coins, far below the ledger's bounds


@transaction.atomic
def session_fee_set(
    *, actor: User, session: Session, amount: object, split: object, paid_by: object
) -> Session:
    """Set the session's table fee (docs/ledger.md, "The table fee"): ``amount`` 0 (none) to MAX_FEE in
    the session's unit, ``split`` one of ``FeeSplit``'s values, ``paid_by`` the id of a player who sat in
    the session (a substitute or one who left included) and paid the room, or None while the house is
    still to be paid. Open or closed: the fee is often known only when the evening ends, and it changes
    the settle-up, not the ledger."""
    require_role(actor=actor, group=session.group, roles=WRITER_ROLES)
    seated = set(Sitting.objects.filter(session=session).values_list("player_id", flat=True))  # who played
    fee = fee_checked(amount=amount, split=split, paid_by=paid_by, seated=seated)
    session = _locked(session)
    session.fee_amount, session.fee_split, session.fee_paid_by_id = fee
    session.save(update_fields=["fee_amount", "fee_split", "fee_paid_by"])
    debts.moved(session.group_id)
    return session


def fee_checked(*, amount: object, split: object, paid_by: object, seated: set[Any]) -> tuple[Any, Any, Any]:
    """A table fee as ``session_fee_set`` takes it: (amount, split, paid_by), each checked, ``paid_by``
    one of the ``seated`` players' ids or None."""
    if not _is_whole(amount, 0, MAX_FEE):
        raise LedgerError("fee_amount", field="amount", maximum=MAX_FEE)
    # compared, not hashed: a body's list or object is refused, not a TypeError
    splits = [choice.value for choice in FeeSplit]
    if split not in splits:
        raise LedgerError("fee_split", field="split", choices=", ".join(splits))
    if paid_by is not None and not any(paid_by == player for player in seated):
        raise LedgerError("fee_paid_by", field="paid_by")
    return amount, split, paid_by


def _locked(session: Session) -> Session:
    """The session row, locked until the transaction ends (PostgreSQL; SQLite's IMMEDIATE already is)."""
    return Session.objects.select_for_update().select_related("group").get(pk=session.pk)


def _hand_follows_ledger(session: Session, *, recorded: Round | None = None) -> None:
    """The session's ledger changed (under its lock): the hand's revision moves on, so a poller sees it
    and a writer who saw the old totals is told; a round recorded beside the hand (``POST rounds/``)
    moves the hand's number past it."""
    hands = HandInProgress.objects.filter(session=session)
    if recorded is None:
        hands.update(revision=F("revision") + 1)
    else:
        hands.update(revision=F("revision") + 1, number=Greatest("number", recorded.position + 1))
