"""Every write of the ledger app: keyword-only, typed, one transaction each (HackSoft style).

Objects arrive already scoped to the actor's groups (the selectors return 404 for anything else);
services check the actor's role and refuse with ``PermissionDenied``. Bad input raises ``EngineError``
(a 400 naming the field), a closed session or a reused idempotency key a ``LedgerRefusal`` (409/422).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.db.models.functions import Greatest
from django.utils import timezone, translation

from calculator.engine import PATTERN_BY_KEY, EngineError, Rules, request_object
from settlement.engine import DraftRefusal, RoundResult, Transfer, WinSummary

from . import bounds, integrity, selectors
from .errors import (
    Forbidden,
    HandRefusedError,
    IdempotencyKeyReusedError,
    InvitationAnsweredError,
    InviteUnusableError,
    LedgerError,
    RoundVoidedError,
    SessionClosedError,
    StaleHandError,
    StaleRoundError,
)
from .models import (
    INVITE_ROLES,
    SEATS,
    WRITER_ROLES,
    CoinEntry,
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
    VersionKind,
    WinRecord,
)
from .names import InvisibleCharacter, normal_name

ROUND_FIELDS = frozenset({"dealer", "void_suits", "events"})
ROUND_REQUIRED = ("dealer", "events")
MAX_COINS = 10**12
MAX_ROOM_COEFFICIENT = 1_000_000  # coins per point
MAX_ID = 10**18  # ids beyond any database's integer column are simply not found
# The most points one transfer may carry: the engine allows fan 64 at any base, which no database column
# holds; 10**15 keeps even 2,000 rounds of the largest transfers inside a 64-bit sum.
MAX_TRANSFER_POINTS = 10**15


# --- accounts and groups -------------------------------------------------------------------------------


def account_create(*, username: str, password: str) -> AbstractBaseUser:
    """A new login. Password rules are Django's validators; a taken name is a 400 on ``username``."""
    user_model = get_user_model()
    username = username.strip()
    if not username:
        raise LedgerError("username_missing", field="username")
    if user_model.objects.filter(username__iexact=username).exists():
        raise _name_taken()
    refusal = _password_refusal(password, user_model(username=username))
    if refusal is not None:
        raise refusal
    with _unique_or(_name_taken):
        return user_model.objects.create_user(username=username, password=password)


def _password_refusal(password: str, user: AbstractBaseUser) -> EngineError | None:
    """Django's password validators' verdict, worded in English and in Chinese (they word their messages
    in the active language, so each language is asked for in turn)."""
    worded = {}
    for language in ("en", "zh-hans"):
        with translation.override(language):
            try:
                validate_password(password, user)
            except DjangoValidationError as error:
                worded[language] = " ".join(error.messages)
    return (
        LedgerError("password_refused", field="password", reason=worded["en"], reason_zh=worded["zh-hans"])
        if worded
        else None
    )


def _name_taken() -> EngineError:
    return LedgerError("username_taken", field="username")


@contextmanager
def _unique_or(refusal: Callable[[], EngineError]) -> Iterator[None]:
    """The insert inside, in a savepoint; a unique constraint it trips becomes ``refusal()``.

    The check before it answers the usual case; this answers a twin request that passed the same check
    at the same moment (the database's constraint decides, and the loser gets the same 400, not a 500).
    """
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise refusal() from None


@transaction.atomic
def group_create(*, actor: AbstractBaseUser, name: str) -> Group:
    """A new group; its creator is its first owner."""
    group = Group.objects.create(name=_required_text(name, "name", 100))
    Membership.objects.create(user=actor, group=group, role=Role.OWNER)
    return group


def require_role(*, actor: AbstractBaseUser, group: Group, roles: Sequence[str]) -> None:
    """403 unless the actor holds one of ``roles`` in ``group``."""
    if not Membership.objects.filter(user=actor, group=group, role__in=roles).exists():
        raise Forbidden("role_forbids")


@transaction.atomic
def member_invite(*, actor: AbstractBaseUser, group: Group, username: str, role: str) -> GroupInvitation:
    """Ask an account to join ``group``: it becomes a member only when it accepts (``invitation_accept``).

    Owners only. The API throttles this per owner, so user names cannot be probed in bulk.
    """
    require_role(actor=actor, group=group, roles=(Role.OWNER,))
    _check_role(role)
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise LedgerError("no_such_account", field="username", username=username)

    def already_asked() -> EngineError:
        return LedgerError("already_invited", field="username", username=user.get_username())

    if Membership.objects.filter(user=user, group=group).exists():
        raise LedgerError("already_a_member_named", field="username", username=user.get_username())
    if GroupInvitation.objects.filter(user=user, group=group, status=InvitationStatus.PENDING).exists():
        raise already_asked()
    with _unique_or(already_asked):
        return GroupInvitation.objects.create(group=group, user=user, role=role, invited_by=actor)


@transaction.atomic
def invitation_accept(*, actor: AbstractBaseUser, invitation: GroupInvitation) -> Membership:
    """The account asked says yes: it joins with the role it was offered (or keeps a higher one)."""
    invitation = _pending_invitation(invitation)
    if invitation.user_id != actor.pk:
        raise Forbidden("only_the_invited_accepts")
    invitation.status = InvitationStatus.ACCEPTED
    invitation.answered = timezone.now()
    invitation.save(update_fields=["status", "answered"])
    return _join(user=actor, group=invitation.group, role=invitation.role)


@transaction.atomic
def invitation_decline(*, actor: AbstractBaseUser, invitation: GroupInvitation) -> GroupInvitation:
    """The account asked says no, or an owner of the group withdraws the question."""
    invitation = _pending_invitation(invitation)
    if invitation.user_id != actor.pk:
        require_role(actor=actor, group=invitation.group, roles=(Role.OWNER,))
    invitation.status = InvitationStatus.DECLINED
    invitation.answered = timezone.now()
    invitation.save(update_fields=["status", "answered"])
    return invitation


def _pending_invitation(invitation: GroupInvitation) -> GroupInvitation:
    locked = GroupInvitation.objects.select_for_update().select_related("group").get(pk=invitation.pk)
    if locked.status != InvitationStatus.PENDING:
        raise InvitationAnsweredError()
    return locked


ROLE_RANK = {Role.VIEWER: 0, Role.SCOREKEEPER: 1, Role.OWNER: 2}


def _join(*, user: AbstractBaseUser, group: Group, role: str) -> Membership:
    """``user`` in ``group`` with at least ``role``: an existing member is raised to it, never lowered."""
    membership = Membership.objects.select_for_update().filter(user=user, group=group).first()
    if membership is None:
        with _unique_or(lambda: LedgerError("already_a_member", field="user")):
            return Membership.objects.create(user=user, group=group, role=role)
    if ROLE_RANK[Role(role)] > ROLE_RANK[Role(membership.role)]:
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


INVITE_TOKEN_BYTES = 32  # 256 bits: a link cannot be guessed
DEFAULT_INVITE_HOURS = 24
MAX_INVITE_HOURS = 24 * 30


@transaction.atomic
def invite_create(
    *, actor: AbstractBaseUser, session: Session, role: str, expires_in_hours: int | None = None
) -> SessionInvite:
    """A link to ``session`` for a viewer or a scorekeeper (owners and scorekeepers make them)."""
    require_role(actor=actor, group=session.group, roles=WRITER_ROLES)
    if role not in INVITE_ROLES:
        raise LedgerError("invite_role", field="role")
    hours = DEFAULT_INVITE_HOURS if expires_in_hours is None else expires_in_hours
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= MAX_INVITE_HOURS:
        raise LedgerError("invite_hours", field="expires_in_hours", maximum=MAX_INVITE_HOURS)
    return SessionInvite.objects.create(
        session=session,
        role=role,
        token=secrets.token_urlsafe(INVITE_TOKEN_BYTES),
        created_by=actor,
        expires_at=timezone.now() + timedelta(hours=hours),
    )


@transaction.atomic
def invite_revoke(*, actor: AbstractBaseUser, invite: SessionInvite) -> SessionInvite:
    """The link stops working at once. An owner revokes any link of the group; a scorekeeper his own."""
    if invite.created_by_id != actor.pk:
        require_role(actor=actor, group=invite.session.group, roles=(Role.OWNER,))
    else:
        require_role(actor=actor, group=invite.session.group, roles=WRITER_ROLES)
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


@transaction.atomic
def invite_join(*, actor: AbstractBaseUser, invite: SessionInvite) -> Membership:
    """A logged-in visitor accepts a scorekeeper link: he joins the session's group as scorekeeper."""
    locked = SessionInvite.objects.select_for_update().select_related("session__group").get(pk=invite.pk)
    refusal = invite_refusal(locked)
    if refusal is not None:
        raise refusal
    if locked.role != Role.SCOREKEEPER:
        raise LedgerError("viewer_link_does_not_join", field="role")
    return _join(user=actor, group=locked.session.group, role=Role.SCOREKEEPER)


def invite_refusal(invite: SessionInvite) -> InviteUnusableError | None:
    """Why the link no longer works (revoked, expired), or None while it does."""
    state = invite.state(timezone.now())
    return None if state == "active" else InviteUnusableError(state)


@transaction.atomic
def member_set_role(*, actor: AbstractBaseUser, membership: Membership, role: str) -> Membership:
    require_role(actor=actor, group=membership.group, roles=(Role.OWNER,))
    _check_role(role)
    if membership.role == Role.OWNER and role != Role.OWNER:
        _keep_an_owner(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def member_remove(*, actor: AbstractBaseUser, membership: Membership) -> None:
    require_role(actor=actor, group=membership.group, roles=(Role.OWNER,))
    if membership.role == Role.OWNER:
        _keep_an_owner(membership)
    membership.delete()


def _keep_an_owner(membership: Membership) -> None:
    """400 unless another owner stays. The group row is locked first, so two owners demoting each other at
    the same moment are counted one after the other and the second is refused (on PostgreSQL; SQLite's
    IMMEDIATE transactions already run one at a time)."""
    Group.objects.select_for_update().filter(pk=membership.group_id).first()
    others = Membership.objects.filter(group_id=membership.group_id, role=Role.OWNER).exclude(
        pk=membership.pk
    )
    if not others.exists():
        raise LedgerError("last_owner", field="role")


def _check_role(role: str) -> None:
    if role not in Role.values:
        raise LedgerError("role_unknown", field="role", choices=", ".join(Role.values))


@transaction.atomic
def player_add(
    *, actor: AbstractBaseUser, group: Group, name: str, user: AbstractBaseUser | None = None
) -> Player:
    require_role(actor=actor, group=group, roles=WRITER_ROLES)
    name = _required_text(name, "name", 50)

    def name_taken() -> EngineError:
        return LedgerError("player_name_taken", field="name", name=name)

    if Player.objects.filter(group=group, name=name).exists():
        raise name_taken()
    with _unique_or(name_taken):
        return Player.objects.create(group=group, name=name, user=user)


# --- sessions ------------------------------------------------------------------------------------------


@transaction.atomic
def session_start(
    *,
    actor: AbstractBaseUser,
    group: Group,
    name: str,
    player_ids: Sequence[int],
    rules: Mapping[str, Any] | None = None,
    coins: Mapping[str, Any] | None = None,
    dealer: object = 0,
) -> Session:
    """A new open session: four of the group's players in seat order, the rules, optional coins, and its
    first hand in progress with ``dealer`` (a seat) dealing."""
    require_role(actor=actor, group=group, roles=WRITER_ROLES)
    _check_dealer(dealer)
    bounds.check_group(group)
    players = _seat_players(group, player_ids)
    full_rules = _every_value(Rules.from_dict(rules))
    room_coefficient, balances = _parse_coins(coins)
    session = Session.objects.create(
        group=group,
        name=_required_text(name, "name", 100),
        rules=full_rules,
        coins_enabled=coins is not None,
        room_coefficient=room_coefficient,
        starting_balances=balances,
    )
    SessionSeat.objects.bulk_create(
        SessionSeat(session=session, seat=seat, player=player) for seat, player in enumerate(players)
    )
    HandInProgress.objects.create(session=session, number=1, dealer=dealer)
    return session


@transaction.atomic
def session_start_by_names(
    *,
    actor: AbstractBaseUser,
    group: Group,
    name: str,
    player_names: Sequence[str],
    rules: Mapping[str, Any] | None = None,
    coins: Mapping[str, Any] | None = None,
    dealer: object = 0,
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
    if not isinstance(player_ids, Sequence) or len(player_ids) != SEATS:
        raise LedgerError("player_ids", field="players")
    for index, player_id in enumerate(player_ids):
        if not _is_whole(player_id, 1, MAX_ID):
            raise LedgerError("not_a_player_id", field=f"players[{index}]", value=player_id)
    if len(set(player_ids)) != SEATS:
        raise LedgerError("players_not_different", field="players")
    found = Player.objects.in_bulk(list(player_ids))
    for index, player_id in enumerate(player_ids):
        player = found.get(player_id)
        if player is None or player.group_id != group.pk:
            raise LedgerError("no_such_player", field=f"players[{index}]", value=player_id)
    return [found[player_id] for player_id in player_ids]


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


def _is_whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


@transaction.atomic
def session_close(*, actor: AbstractBaseUser, session: Session) -> Session:
    require_role(actor=actor, group=session.group, roles=WRITER_ROLES)
    session = _locked(session)
    if session.is_open:
        session.status = SessionStatus.CLOSED
        session.closed = timezone.now()
        session.save(update_fields=["status", "closed"])
        _hand_follows_ledger(session)
    return session


def _locked(session: Session) -> Session:
    """The session row, locked until the transaction ends (PostgreSQL; SQLite's IMMEDIATE already is)."""
    return Session.objects.select_for_update().select_related("group").get(pk=session.pk)


# --- rounds --------------------------------------------------------------------------------------------


def round_record(
    *,
    actor: AbstractBaseUser,
    session: Session,
    body: object,
    idempotency_key: str | None = None,
) -> tuple[Round, bool]:
    """Store a round at the end of the session; returns (round, created).

    The same ``idempotency_key`` with the same body returns the stored round (created False); with a
    different body it is refused. The position is the last one plus one, under the session's lock.
    """
    require_role(actor=actor, group=session.group, roles=WRITER_ROLES)
    round_body = _round_body(body)
    fingerprint = _fingerprint(round_body)
    try:
        with transaction.atomic():
            return _round_record_locked(actor, session, round_body, fingerprint, idempotency_key)
    except IntegrityError:
        # Only reachable if two writers slipped past the lock (a database without row locks): the
        # unique constraints kept the ledger right; answer as the winner of the race would.
        if idempotency_key is None:
            raise
        existing = Round.objects.filter(session=session, idempotency_key=idempotency_key).first()
        if existing is None:
            raise
        return _replayed(existing, fingerprint), False


def _round_record_locked(
    actor: AbstractBaseUser, session: Session, body: dict[str, Any], fingerprint: str, key: str | None
) -> tuple[Round, bool]:
    session = _locked(session)
    if key is not None:
        existing = Round.objects.filter(session=session, idempotency_key=key).first()
        if existing is not None:
            return _replayed(existing, fingerprint), False
    if not session.is_open:
        raise SessionClosedError()
    coins_before = selectors.coin_balances(session)
    result = _settle(session, body, coins_before)
    round_ = _round_insert(actor, session, body, result, coins_before, key=key, fingerprint=fingerprint)
    _hand_follows_ledger(session, recorded=round_)
    return round_, True


def _round_insert(
    actor: AbstractBaseUser,
    session: Session,
    body: Mapping[str, Any],
    result: RoundResult,
    coins_before: list[int] | None,
    *,
    key: str | None,
    fingerprint: str,
) -> Round:
    """The round at the end of the session, settled already: its row, its first version and their rows."""
    position = (Round.objects.filter(session=session).aggregate(last=Max("position"))["last"] or 0) + 1
    round_ = Round.objects.create(
        session=session,
        position=position,
        dealer=body["dealer"],
        void_suits=body.get("void_suits"),
        events=body["events"],
        idempotency_key=key,
        request_fingerprint=fingerprint,
    )
    _write_version(actor, round_, VersionKind.RECORDED, 1, body, result, coins_before)
    bounds.check_session(session, "events")
    return round_


def _replayed(existing: Round, fingerprint: str) -> Round:
    if existing.request_fingerprint != fingerprint:
        raise IdempotencyKeyReusedError()
    return existing


@transaction.atomic
def round_correct(
    *,
    actor: AbstractBaseUser,
    round_: Round,
    body: object,
    notes: Sequence[object] | None = None,
    version: int | None = None,
) -> Round:
    """Replace a round's events: reversing entries for the current version, then the new version's rows.

    ``notes`` (one per event, as a page entered them) are kept with the new version for its explanation.
    ``version``, when given, is the version the correction was made on: if the round has moved on since
    (someone else corrected it), the correction is refused rather than silently replacing theirs.
    """
    require_role(actor=actor, group=round_.session.group, roles=WRITER_ROLES)
    round_body = _round_body(body)
    round_body["notes"] = _notes_for(notes, round_body["events"])
    session, round_ = _locked_round(round_)
    if round_.voided:
        raise RoundVoidedError()
    if version is not None and version != round_.version:
        raise StaleRoundError()
    coins_before = selectors.coin_balances(session, before=round_.position)
    result = _settle(session, round_body, coins_before)
    version = round_.version + 1
    _write_version(actor, round_, VersionKind.CORRECTED, version, round_body, result, coins_before)
    round_.dealer = round_body["dealer"]
    round_.void_suits = round_body.get("void_suits")
    round_.events = round_body["events"]
    round_.version = version
    round_.save(update_fields=["dealer", "void_suits", "events", "version"])
    _resettle_later_coins(actor, session, round_)
    bounds.check_session(session, "events")
    _hand_follows_ledger(session)
    return round_


@transaction.atomic
def round_void(*, actor: AbstractBaseUser, round_: Round) -> Round:
    """Cancel a round: a ``voided`` version whose rows reverse the current version's; nothing else."""
    require_role(actor=actor, group=round_.session.group, roles=WRITER_ROLES)
    session, round_ = _locked_round(round_)
    if round_.voided:
        return round_
    body = {**_body_of(round_), "notes": _current_notes(round_)}
    version = round_.version + 1
    _write_version(actor, round_, VersionKind.VOIDED, version, body, None, None)
    round_.voided = True
    round_.version = version
    round_.save(update_fields=["voided", "version"])
    _resettle_later_coins(actor, session, round_)
    bounds.check_session(session, "round")
    _hand_follows_ledger(session)
    return round_


def _body_of(round_: Round) -> dict[str, Any]:
    return {"dealer": round_.dealer, "void_suits": round_.void_suits, "events": round_.events}


def _current_notes(round_: Round) -> list[Any]:
    return list(
        RoundVersion.objects.filter(round=round_, version=round_.version)
        .values_list("notes", flat=True)
        .get()
    )


def _notes_for(notes: Sequence[object] | None, events: object) -> list[str | None]:
    """One note per event (None where there is none), each a short text; no notes at all is fine."""
    count = len(events) if isinstance(events, list) else 0
    given = list(notes or ())
    if len(given) > count:
        raise LedgerError("too_many_notes", field="notes")
    return [_note(note, f"notes[{index}]") for index, note in enumerate(given)] + [None] * (
        count - len(given)
    )


def _locked_round(round_: Round) -> tuple[Session, Round]:
    session = _locked(round_.session)
    if not session.is_open:
        raise SessionClosedError()
    return session, Round.objects.select_related("session").get(pk=round_.pk)


def _round_body(body: object) -> dict[str, Any]:
    """The envelope of a stored round: the settle body without ``rules`` and ``coins`` (the session's)."""
    parsed = request_object(body, ROUND_FIELDS, ROUND_REQUIRED)
    _refuse_unstorable(parsed, "")
    _check_dealer(parsed["dealer"])
    return {"dealer": parsed["dealer"], "void_suits": parsed.get("void_suits"), "events": parsed["events"]}


def _check_dealer(dealer: object) -> None:
    if not _is_whole(dealer, 0, SEATS - 1):
        raise LedgerError("dealer_seat", field="dealer")


def _refuse_unstorable(value: object, field: str) -> None:
    """Text no database stores: a NUL character (PostgreSQL's jsonb refuses it) or a lone UTF-16 surrogate
    (not a character at all; jsonb refuses its escape). Neither ever means anything in a round."""
    if isinstance(value, str) and not _storable(value):
        raise LedgerError("unstorable_text", field=field or "body")
    if isinstance(value, Mapping):
        for key, item in value.items():
            _refuse_unstorable(key, field)
            _refuse_unstorable(item, f"{field}.{key}" if field else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _refuse_unstorable(item, f"{field}[{index}]")


def _storable(text: str) -> bool:
    return "\x00" not in text and not any("\ud800" <= char <= "\udfff" for char in text)


def _fingerprint(body: object) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # surrogatepass: any str hashes (a lone surrogate must never be a 500), and the fingerprints of
    # rounds already stored stay what they were.
    return hashlib.sha256(canonical.encode(errors="surrogatepass")).hexdigest()


def _settle(session: Session, body: Mapping[str, Any], coins_before: list[int] | None) -> RoundResult:
    """The engine's settlement of a round body, refused when one payment exceeds what the ledger stores."""
    result = selectors.session_settle(
        session,
        dealer=body["dealer"],
        void_suits=body.get("void_suits"),
        events=body["events"],
        coins_before=coins_before,
    )
    for transfer in result.transfers:
        if transfer.points > MAX_TRANSFER_POINTS:
            raise LedgerError(
                "transfer_too_large",
                field=f"events[{transfer.event}]",
                event=transfer.event,
                points=transfer.points,
                maximum=MAX_TRANSFER_POINTS,
            )
    return result


def _resettle_later_coins(actor: AbstractBaseUser, session: Session, changed: Round) -> None:
    """The rounds after ``changed`` were settled against balances that have just changed: settle each again,
    in order, and where its coins now come out differently append a ``recoined`` version (its coin rows
    reversed and rewritten; its points untouched). So every round's coins always follow from the balances
    before it, and no balance ever goes below zero (docs/ledger.md, "Coins across rounds")."""
    if not session.coins_enabled:
        return
    later = list(
        Round.objects.filter(session=session, position__gt=changed.position, voided=False).order_by(
            "position"
        )
    )
    if not later:
        return
    settled = {
        round_id: (result, notes)
        for round_id, result, notes in RoundVersion.objects.filter(
            round__in=later, version=F("round__version")
        ).values_list("round_id", "result", "notes")
    }
    balances = selectors.coin_balances(session, before=later[0].position)
    for round_ in later:
        stored_result, notes = settled[round_.pk]
        body = {**_body_of(round_), "notes": notes}
        result = _settle(session, body, balances)
        coins = result.coins
        assert coins is not None  # the session has coins, so the engine settled them
        stored = stored_result["coins"]
        if (list(coins.change), coins.house) != (list(stored["change"]), int(stored["house"])):
            round_.version += 1
            _write_version(actor, round_, VersionKind.RECOINED, round_.version, body, result, balances)
            round_.save(update_fields=["version"])
        balances = list(coins.balances)


def _write_version(
    actor: AbstractBaseUser,
    round_: Round,
    kind: VersionKind,
    version: int,
    body: Mapping[str, Any],
    result: RoundResult | None,
    coins_before: list[int] | None,
) -> RoundVersion:
    """A version of the round and its rows, written from the engine's typed result; its settle response
    is kept beside them as JSON, as the API answered it."""
    stored = RoundVersion.objects.create(
        round=round_,
        version=version,
        kind=kind,
        dealer=body["dealer"],
        void_suits=body.get("void_suits"),
        events=body["events"],
        notes=list(body.get("notes") or ()),
        result=None if result is None else result.to_dict(),
        coin_balances_before=coins_before,
        created_by=actor if actor.is_authenticated else None,
    )
    moves_points = kind != VersionKind.RECOINED  # a re-settlement of coins leaves the points as they are
    _reverse_current(round_, stored, points=moves_points)
    if result is not None:
        seats = dict(
            SessionSeat.objects.filter(session_id=round_.session_id).values_list("seat", "player_id")
        )
        if moves_points:
            LedgerEntry.objects.bulk_create(_entries(round_, stored, seats, result.transfers))
        CoinEntry.objects.bulk_create(_coin_entries(round_, stored, result))
        WinRecord.objects.bulk_create(_win_records(round_, stored, seats, result))
    integrity.seal(stored)
    return stored


def _reverse_current(round_: Round, new_version: RoundVersion, *, points: bool) -> None:
    """Cancel every not-yet-reversed row of the round (the current version's own rows): its coin rows,
    and its points rows unless ``points`` is False."""
    if new_version.version == 1:
        return
    live = {"round": round_, "reverses__isnull": True, "reversed_by__isnull": True}
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            session_id=row.session_id,
            round=round_,
            round_version=new_version,
            seat=row.seat,
            player_id=row.player_id,
            is_house=row.is_house,
            points=-row.points,
            reason=row.reason,
            event_index=row.event_index,
            transfer_index=row.transfer_index,
            reverses=row,
        )
        for row in (LedgerEntry.objects.filter(**live) if points else ())
    )
    CoinEntry.objects.bulk_create(
        CoinEntry(
            session_id=row.session_id,
            round=round_,
            round_version=new_version,
            seat=row.seat,
            is_house=row.is_house,
            coins=-row.coins,
            reverses=row,
        )
        for row in CoinEntry.objects.filter(**live)
    )


def _entries(
    round_: Round, version: RoundVersion, seats: Mapping[int, int], transfers: Sequence[Transfer]
) -> list[LedgerEntry]:
    """Two rows per transfer: the payer's points negative, the payee's (or, payee None, the house's)
    positive."""
    rows = []
    for index, transfer in enumerate(transfers):
        for seat, points in ((transfer.payer, -transfer.points), (transfer.payee, transfer.points)):
            rows.append(
                LedgerEntry(
                    session_id=round_.session_id,
                    round=round_,
                    round_version=version,
                    seat=seat,
                    player_id=None if seat is None else seats[seat],
                    is_house=seat is None,
                    points=points,
                    reason=transfer.reason.value,
                    event_index=transfer.event,
                    transfer_index=index,
                )
            )
    return rows


def _coin_entries(round_: Round, version: RoundVersion, result: RoundResult) -> list[CoinEntry]:
    """One row per seat whose coins moved, and one for the house's take."""
    if result.coins is None:
        return []
    row = {"session_id": round_.session_id, "round": round_, "round_version": version}
    rows = [
        CoinEntry(**row, seat=seat, coins=change) for seat, change in enumerate(result.coins.change) if change
    ]
    if result.coins.house:
        rows.append(CoinEntry(**row, is_house=True, coins=result.coins.house))
    return rows


def _win_records(
    round_: Round, version: RoundVersion, seats: Mapping[int, int], result: RoundResult
) -> list[WinRecord]:
    """One row per winner of each win event, from the engine's summary of that event."""
    records = []
    for summary in result.events:
        if not isinstance(summary, WinSummary):
            continue
        discarder = summary.discarder
        for score in summary.scores:
            if not score.won:
                continue
            records.append(
                WinRecord(
                    round=round_,
                    round_version=version,
                    version=version.version,
                    session_id=round_.session_id,
                    event_index=summary.index,
                    winner_id=seats[score.player],
                    discarder_id=None if discarder is None else seats[discarder],
                    self_draw=discarder is None,
                    fan=score.fan,
                )
            )
    return records


# --- the hand in progress ------------------------------------------------------------------------------
#
# One row per session (``HandInProgress``). Every write below takes the ``revision`` the writer saw and
# runs under the session's lock: (1) a retry of the last write is answered with what it did, (2) a closed
# session or a stale revision is refused, (3) the change is checked by settling the events it leaves,
# (4) when those events finish the hand, the round is recorded and the next hand starts, in the same
# transaction; (5) the revision moves on.

MAX_NOTE_LENGTH = 1000  # a quick-picker note of a four-player draw is about 200
HAND_KEY_PREFIX = "hand-r"  # a write's own key when the client sent none: the revision it was made at


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What a write to the hand in progress did: the hand as it now stands, the round it recorded when it
    finished the hand (None otherwise), and whether it was a retry answered without applying anything."""

    hand: HandInProgress
    round: Round | None = None
    replayed: bool = False


def hand_event_add(
    *,
    actor: AbstractBaseUser,
    session: Session,
    event: object,
    revision: object,
    note: object = None,
    idempotency_key: str | None = None,
) -> HandOutcome:
    """Append one settle event to the hand; when it finishes the hand, record the round and start the next.

    The engine checks the event against the ones before it (an EngineError names ``events[i]…``, and
    nothing changes). The redo list is cleared: a new event replaces whatever was undone.
    """
    note = _note(note)
    request = {"add": event, "note": note}

    def change(hand: HandInProgress) -> tuple[list[Any], list[Any], list[Any]]:
        _refuse_unstorable(event, f"events[{len(hand.events)}]")
        return [*hand.events, event], [*hand.notes, note], []

    return _hand_write(actor, session, revision, idempotency_key, request, change)


def hand_undo(
    *, actor: AbstractBaseUser, session: Session, revision: object, idempotency_key: str | None = None
) -> HandOutcome:
    """Take back the hand's last event (it goes onto the redo list). A finished hand is a round already:
    it is corrected from the history, not undone."""

    def change(hand: HandInProgress) -> tuple[list[Any], list[Any], list[Any]]:
        if not hand.events:
            raise HandRefusedError(DraftRefusal("nothing_to_undo", field="events"))
        undone = {"event": hand.events[-1], "note": hand.notes[-1]}
        return hand.events[:-1], hand.notes[:-1], [*hand.undone, undone]

    return _hand_write(actor, session, revision, idempotency_key, {"undo": True}, change)


def hand_redo(
    *, actor: AbstractBaseUser, session: Session, revision: object, idempotency_key: str | None = None
) -> HandOutcome:
    """Replay the event undone last, checked by the engine again like any event."""

    def change(hand: HandInProgress) -> tuple[list[Any], list[Any], list[Any]]:
        if not hand.undone:
            raise HandRefusedError(DraftRefusal("nothing_to_redo", field="undone"))
        redone = hand.undone[-1]
        return [*hand.events, redone["event"]], [*hand.notes, redone["note"]], hand.undone[:-1]

    return _hand_write(actor, session, revision, idempotency_key, {"redo": True}, change)


_UNCHANGED: Any = object()


def hand_setup(
    *,
    actor: AbstractBaseUser,
    session: Session,
    revision: object,
    dealer: object = _UNCHANGED,
    void_suits: object = _UNCHANGED,
    idempotency_key: str | None = None,
) -> HandOutcome:
    """Choose the hand's dealer and void suits (定缺), before its first event; either may be left out."""
    request = {
        "setup": {
            key: value
            for key, value in (("dealer", dealer), ("void_suits", void_suits))
            if value is not _UNCHANGED
        }
    }

    def change(hand: HandInProgress) -> tuple[list[Any], list[Any], list[Any]]:
        if hand.events:
            raise HandRefusedError(DraftRefusal("hand_started", field="events"))
        if dealer is not _UNCHANGED:
            _check_dealer(dealer)
            hand.dealer = dealer  # type: ignore[assignment]
        if void_suits is not _UNCHANGED:
            _refuse_unstorable(void_suits, "void_suits")
            hand.void_suits = void_suits
        return [], [], []  # the undone events belonged to the old seating: redo could mislead

    return _hand_write(actor, session, revision, idempotency_key, request, change)


def _hand_write(
    actor: AbstractBaseUser,
    session: Session,
    revision: object,
    idempotency_key: str | None,
    request: Mapping[str, Any],
    change: Callable[[HandInProgress], tuple[list[Any], list[Any], list[Any]]],
) -> HandOutcome:
    """The pipeline of every hand write (see above); ``change`` returns the events, notes and redo list the
    write leaves (or raises to refuse it)."""
    require_role(actor=actor, group=session.group, roles=WRITER_ROLES)
    seen = _revision(revision)
    key = idempotency_key if idempotency_key is not None else f"{HAND_KEY_PREFIX}{seen}"
    fingerprint = _fingerprint({**request, "revision": seen})
    with transaction.atomic():
        session = _locked(session)
        hand = _locked_hand(session)
        retried = _retried(hand, key, fingerprint, own_key=idempotency_key is not None)
        if retried is not None:
            return retried
        if not session.is_open:
            raise SessionClosedError()
        if seen != hand.revision:
            raise StaleHandError()
        events, notes, undone = change(hand)
        body = {"dealer": hand.dealer, "void_suits": hand.void_suits, "events": events}
        coins_before = selectors.coin_balances(session)
        result = _settle(session, body, coins_before)
        recorded = None
        if result.finished:
            recorded = _round_insert(
                actor,
                session,
                {**body, "notes": notes},
                result,
                coins_before,
                key=key,
                fingerprint=_fingerprint(body),  # as POST rounds/ would fingerprint the same round
            )
            _start_next_hand(hand, recorded, result)
        else:
            hand.events, hand.notes, hand.undone = events, notes, undone
        hand.revision += 1
        hand.last_key, hand.last_fingerprint, hand.last_round = key, fingerprint, recorded
        hand.save()
        return HandOutcome(hand=hand, round=recorded)


def _locked_hand(session: Session) -> HandInProgress:
    """The session's hand (under the session's lock, which the caller holds), created if it has none."""
    hand = HandInProgress.objects.filter(session=session).first()
    if hand is None:
        hand = selectors.fresh_hand(session)
        hand.save()
    return hand


def _retried(hand: HandInProgress, key: str, fingerprint: str, *, own_key: bool) -> HandOutcome | None:
    """The answer to a retry of the hand's last write (a double tap, a resent request), or None.

    A different request under the client's own key is a reused key (422); under the key made from the
    revision it is another writer who saw the same revision, and the revision check refuses it."""
    if hand.last_key != key:
        return None
    if hand.last_fingerprint != fingerprint:
        if own_key:
            raise IdempotencyKeyReusedError()
        return None
    return HandOutcome(hand=hand, round=hand.last_round, replayed=True)


def _start_next_hand(hand: HandInProgress, finished: Round, result: RoundResult) -> None:
    """The hand after ``finished``: the next number, the dealer the engine suggests (the same dealer when
    it suggests none: the dice rule), no events, void suits to be chosen again."""
    hand.number = finished.position + 1
    if result.next_dealer is not None:
        hand.dealer = result.next_dealer
    hand.void_suits = None
    hand.events, hand.notes, hand.undone = [], [], []


def _hand_follows_ledger(session: Session, *, recorded: Round | None = None) -> None:
    """The session's ledger changed (under its lock): the hand's revision moves on, so a poller sees it
    and a writer who saw the old totals is told; a round recorded beside the hand (``POST rounds/``)
    moves the hand's number past it."""
    hands = HandInProgress.objects.filter(session=session)
    if recorded is None:
        hands.update(revision=F("revision") + 1)
    else:
        hands.update(revision=F("revision") + 1, number=Greatest("number", recorded.position + 1))


def _revision(value: object) -> int:
    if not _is_whole(value, 0, MAX_ID):
        raise LedgerError("revision_not_whole", field="revision")
    return value  # type: ignore[return-value]


def _note(value: object, field: str = "note") -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_NOTE_LENGTH or not _storable(value):
        raise LedgerError("note_too_long", field=field, maximum=MAX_NOTE_LENGTH)
    return value


def _required_text(value: object, field: str, max_length: int) -> str:
    """A name as the ledger keeps and compares it (``ledger.names``: NFKC, trimmed, nothing invisible)."""
    try:
        text = normal_name(value) if isinstance(value, str) else ""
    except InvisibleCharacter as error:
        raise LedgerError("name_invisible", field=field, character=error.code) from None
    if not text or len(text) > max_length:
        raise LedgerError("text_length", field=field, name=field, maximum=max_length)
    return text
