"""Rounds: recorded, corrected and voided, each a version of rows the engine's result decides."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Max

from calculator.engine import request_object
from settlement.engine import RoundResult, Transfer, WinSummary

from .. import bounds, debts, figures, integrity, selectors
from ..errors import (
    IdempotencyKeyReusedError,
    LedgerError,
    RoundVoidedError,
    SessionClosedError,
    StaleRoundError,
)
from ..models import (
    KEPT_NETS,
    WRITER_ROLES,
    CoinEntry,
    LedgerEntry,
    Round,
    RoundVersion,
    Session,
    VersionKind,
    WinRecord,
    kept_net_field,
)
from .checks import _check_dealer, _fingerprint, _note, _refuse_unstorable, require_role
from .sessions import _hand_follows_ledger, _locked

ROUND_FIELDS = frozenset({"dealer", "void_suits", "events"})
ROUND_REQUIRED = ("dealer", "events")


# The most points one transfer may carry: the engine allows fan 64 at any base, which no database column
# holds; 10**15 keeps even 2,000 rounds of the largest transfers inside a 64-bit sum.
MAX_TRANSFER_POINTS = 10**15


def round_record(
    *,
    actor: User,
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
    actor: User, session: Session, body: dict[str, Any], fingerprint: str, key: str | None
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
    actor: User,
    session: Session,
    body: Mapping[str, Any],
    result: RoundResult,
    coins_before: list[int] | None,
    *,
    key: str | None,
    fingerprint: str,
    position: int | None = None,
    seats: Mapping[int, int] | None = None,
) -> Round:
    """The round at the end of the session, settled already: its row, its first version and their rows.
    ``position``: the session's next one, when the caller has read it already under the lock; ``seats``:
    each seat's player, when the caller has read the table now (a new round's: seats change only
    between hands, ledger/services/seats.py)."""
    if position is None:
        position = (Round.objects.filter(session=session).aggregate(last=Max("position"))["last"] or 0) + 1
    round_ = _new_round(session, position, body, result, key=key, fingerprint=fingerprint)
    round_.save(force_insert=True)
    moved = _write_version(
        actor, session, round_, VersionKind.RECORDED, 1, body, result, coins_before, seats=seats
    )
    bounds.check_moved(*moved, field="events")
    debts.moved(session.group_id)  # the session's transfers move with its totals
    return round_


def _new_round(
    session: Session,
    position: int,
    body: Mapping[str, Any],
    result: RoundResult,
    *,
    key: str | None,
    fingerprint: str,
) -> Round:
    """The row of a round recorded at ``position``, not yet stored (a group file's import stores it in
    bulk: services/bulk.py)."""
    return Round(
        session=session,
        position=position,
        dealer=body["dealer"],
        void_suits=body.get("void_suits"),
        events=body["events"],
        adjustment=result.adjustment_round,
        idempotency_key=key,
        request_fingerprint=fingerprint,
        **kept_nets(result),
    )


def kept_nets(result: RoundResult | None) -> dict[str, int]:
    """The round's ``kept_net_*`` columns for a version settled so (None: voided, nothing): what the rows
    ``_entries`` writes for its transfers add up to per seat and for the house, so the round's live rows
    and its kept nets agree (``selectors.round_net``; ``verify_ledger`` checks it)."""
    nets = dict.fromkeys(KEPT_NETS, 0)
    for transfer in () if result is None else result.transfers:
        nets[kept_net_field(transfer.payer)] -= transfer.points
        nets[kept_net_field(transfer.payee)] += transfer.points
    return nets


def keep_nets(round_: Round, result: RoundResult | None) -> None:
    """The round's kept nets set for its new current version, to be saved with its other fields."""
    for name, net in kept_nets(result).items():
        setattr(round_, name, net)


def _replayed(existing: Round, fingerprint: str) -> Round:
    if existing.request_fingerprint != fingerprint:
        raise IdempotencyKeyReusedError()
    return existing


@transaction.atomic
def round_correct(
    *,
    actor: User,
    round_: Round,
    body: object,
    notes: Sequence[object] | None = None,
    version: int | None = None,
    reinstate: bool = False,
) -> Round:
    """Replace a round's events: reversing entries for the current version, then the new version's rows.

    ``notes`` (one per event, as a page entered them) are kept with the new version for its explanation.
    ``version``, when given, is the version the correction was made on: if the round has moved on since
    (someone else corrected it), the correction is refused rather than silently replacing theirs.
    ``reinstate`` lets a voided round take a new version and count again: a hand taken back after it
    finished and finished anew is stored so, and a group file replays it so.
    """
    require_role(actor=actor, group=round_.session.group, roles=WRITER_ROLES)
    round_body = _round_body(body)
    round_body["notes"] = _notes_for(notes, round_body["events"])
    session, round_ = _locked_round(round_)
    if round_.voided and not reinstate:
        raise RoundVoidedError()
    if version is not None and version != round_.version:
        raise StaleRoundError()
    coins_before = selectors.coin_balances(session, before=round_.position)
    result = _settle(session, round_body, coins_before)
    _next_version(actor, session, round_, round_body, result, coins_before)
    _hand_follows_ledger(session)
    return round_


def _next_version(
    actor: User,
    session: Session,
    round_: Round,
    body: Mapping[str, Any],
    result: RoundResult,
    coins_before: list[int] | None,
) -> None:
    """The round's next version from a settled body: its rows, the round's own fields (counting again if
    it was voided) and the coins of the rounds after it settled again."""
    round_.version += 1
    _write_version(actor, session, round_, VersionKind.CORRECTED, round_.version, body, result, coins_before)
    round_.dealer = body["dealer"]
    round_.void_suits = body.get("void_suits")
    round_.events = body["events"]
    round_.adjustment = result.adjustment_round
    round_.voided = False
    keep_nets(round_, result)
    round_.save(
        update_fields=["dealer", "void_suits", "events", "adjustment", "version", "voided", *KEPT_NETS]
    )
    _resettle_later_coins(actor, session, round_)
    bounds.check_session(session, "events")
    debts.moved(session.group_id)


@transaction.atomic
def round_void(*, actor: User, round_: Round) -> Round:
    """Cancel a round: a ``voided`` version whose rows reverse the current version's; nothing else."""
    require_role(actor=actor, group=round_.session.group, roles=WRITER_ROLES)
    session, round_ = _locked_round(round_)
    if round_.voided:
        return round_
    _void(actor, session, round_)
    _hand_follows_ledger(session)
    return round_


def _void(actor: User, session: Session, round_: Round) -> list[Any]:
    """The voided version of a round (under the session's lock); the notes of the version it reverses."""
    notes = _current_notes(round_)
    version = round_.version + 1
    _write_version(
        actor, session, round_, VersionKind.VOIDED, version, {**_body_of(round_), "notes": notes}, None, None
    )
    round_.voided = True
    round_.version = version
    keep_nets(round_, None)
    round_.save(update_fields=["voided", "version", *KEPT_NETS])
    _resettle_later_coins(actor, session, round_)
    bounds.check_session(session, "round")
    debts.moved(session.group_id)
    return notes


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


def _resettle_later_coins(actor: User, session: Session, changed: Round) -> None:
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
        assert stored_result is not None  # noqa: S101 - only a void has none (round_version_result_unless_void)
        body = {**_body_of(round_), "notes": notes}
        result = _settle(session, body, balances)
        coins = result.coins
        assert coins is not None  # noqa: S101 - the session has coins, so the engine settled them
        stored = stored_result["coins"]
        if (list(coins.change), coins.house) != (list(stored["change"]), int(stored["house"])):
            round_.version += 1
            _write_version(
                actor, session, round_, VersionKind.RECOINED, round_.version, body, result, balances
            )
            round_.save(update_fields=["version"])
        balances = list(coins.balances)


def version_row(
    round_: Round,
    kind: VersionKind,
    number: int,
    body: Mapping[str, Any],
    answer: dict[str, Any] | None,
    coins_before: list[int] | None,
) -> RoundVersion:
    """The version a round's body and its settle response (``answer``, as the API answered it) make,
    not yet stored: ``_write_version`` stores it, the group file's bulk import collects it."""
    return RoundVersion(
        round=round_,
        version=number,
        kind=kind,
        dealer=body["dealer"],
        void_suits=body.get("void_suits"),
        events=body["events"],
        notes=list(body.get("notes") or ()),
        result=answer,
        coin_balances_before=coins_before,
    )


def _write_version(
    actor: User,
    session: Session,
    round_: Round,
    kind: VersionKind,
    version: int,
    body: Mapping[str, Any],
    result: RoundResult | None,
    coins_before: list[int] | None,
    *,
    seats: Mapping[int, int] | None = None,
) -> tuple[int, int]:
    """A version of the round and its rows, written from the engine's typed result; its settle response
    is kept beside them as JSON, as the API answered it; the figures it changes (``figures.follow``).
    ``session``: the round's, as read under its lock (the seal moves its head). The rows are made first,
    so the version is stored with its seal; ``seats``: each seat's player, read here unless the caller
    has. The points and coins the session has moved since it began, this version included
    (``integrity.seal``)."""
    answer = None if result is None else result.to_dict()
    stored = version_row(round_, kind, version, body, answer, coins_before)
    stored.created_by = actor if actor.is_authenticated else None
    moves_points = kind != VersionKind.RECOINED  # a re-settlement of coins leaves the points as they are
    entries, coins = _reversals(round_, stored, points=moves_points)
    wins: list[WinRecord] = []
    if result is not None:
        if seats is None:  # as the table sat for this hand (a correction's is its own)
            seats = selectors.seat_map(round_.session_id, round_.position)
        if moves_points:
            entries += _entries(round_, stored, seats, result.transfers, LedgerEntry)
        coins += _coin_entries(round_, stored, result, CoinEntry)
        wins = _win_records(round_, stored, seats, result, WinRecord)
    change = figures.NOT_COUNTED
    if moves_points:  # a re-coined version changes neither points nor wins: no figure moves
        before = (
            figures.NOT_COUNTED
            if version == 1
            else figures.Counted.of(voided=round_.voided, adjustment=round_.adjustment)
        )
        after = figures.Counted.of(
            voided=result is None, adjustment=result is not None and result.adjustment_round
        )
        change = after - before
    moved = integrity.seal(stored, integrity.Written(entries, coins, wins), head=session, counted=change)
    stored.save(force_insert=True)
    LedgerEntry.objects.bulk_create(entries)  # an empty list is no query
    CoinEntry.objects.bulk_create(coins)
    WinRecord.objects.bulk_create(wins)
    if moves_points:
        figures.follow(stored, change)  # after the rows: it adds up what they moved
    return moved


def _reversals(
    round_: Round, new_version: RoundVersion, *, points: bool
) -> tuple[list[LedgerEntry], list[CoinEntry]]:
    """The rows cancelling every not-yet-reversed row of the round (the current version's own rows): its
    coin rows, and its points rows unless ``points`` is False; made, not yet stored."""
    if new_version.version == 1:
        return [], []
    live = {"round": round_, "reverses__isnull": True, "reversed_by__isnull": True}
    rows = LedgerEntry.objects.filter(**live) if points else ()
    entries = list(_entry_reversals(round_, new_version, rows, LedgerEntry))
    coins = list(_coin_reversals(round_, new_version, CoinEntry.objects.filter(**live), CoinEntry))
    return entries, coins


# The functions below make a version's rows by calling ``make`` with their fields: the model (LedgerEntry,
# CoinEntry, WinRecord) when a service stores them, or the lighter row of a group file's bulk import
# (services/bulk.py, ``Drafted``), which so stores, row for row, what the services store.


def _entry_reversals[R](
    round_: Round, new_version: RoundVersion, rows: Iterable[Any], make: Callable[..., R]
) -> Iterator[R]:
    """A row of ``new_version`` cancelling each of ``rows``: the same seat and reason, the points negated."""
    for row in rows:
        yield make(
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


def _coin_reversals[R](
    round_: Round, new_version: RoundVersion, rows: Iterable[Any], make: Callable[..., R]
) -> Iterator[R]:
    for row in rows:
        yield make(
            session_id=row.session_id,
            round=round_,
            round_version=new_version,
            seat=row.seat,
            is_house=row.is_house,
            coins=-row.coins,
            reverses=row,
        )


def _entries[R](
    round_: Round,
    version: RoundVersion,
    seats: Mapping[int, int],
    transfers: Sequence[Transfer],
    make: Callable[..., R],
) -> list[R]:
    """Two rows per transfer: the payer's points negative, the payee's (or, payee None, the house's)
    positive."""
    rows = []
    for index, transfer in enumerate(transfers):
        for seat, points in ((transfer.payer, -transfer.points), (transfer.payee, transfer.points)):
            rows.append(
                make(
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


def _coin_entries[R](
    round_: Round, version: RoundVersion, result: RoundResult, make: Callable[..., R]
) -> list[R]:
    """One row per seat whose coins moved, and one for the house's take."""
    if result.coins is None:
        return []
    row = {"session_id": round_.session_id, "round": round_, "round_version": version}
    rows = [make(**row, seat=seat, coins=change) for seat, change in enumerate(result.coins.change) if change]
    if result.coins.house:
        rows.append(make(**row, is_house=True, coins=result.coins.house))
    return rows


def _win_records[R](
    round_: Round,
    version: RoundVersion,
    seats: Mapping[int, int],
    result: RoundResult,
    make: Callable[..., R],
) -> list[R]:
    """One row per winner of each win event, from the engine's summary of that event, with what he took
    for it (``selectors.WIN_REASONS``)."""
    taken: dict[tuple[int, int], int] = {}
    for transfer in result.transfers:
        if transfer.reason.value in selectors.WIN_REASONS and transfer.payee is not None:
            key = (transfer.event, transfer.payee)
            taken[key] = taken.get(key, 0) + transfer.points
    records = []
    for summary in result.events:
        if not isinstance(summary, WinSummary):
            continue
        discarder = summary.discarder
        for score in summary.scores:
            if not score.won:
                continue
            records.append(
                make(
                    round=round_,
                    round_version=version,
                    version=version.version,
                    session_id=round_.session_id,
                    event_index=summary.index,
                    winner_id=seats[score.player],
                    discarder_id=None if discarder is None else seats[discarder],
                    self_draw=discarder is None,
                    fan=score.fan,
                    points=taken.get((summary.index, score.player), 0),
                )
            )
    return records
