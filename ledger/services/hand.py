"""The hand in progress.

One row per session (``HandInProgress``) keeps the engine's ``HandDraft`` of the session's table
(settlement/engine/draft.py); ``hand_write`` is the pipeline of every write, in this order:
1. the hand read with its session and the actor's role in one query, without a lock: the actor may
   write, the revision he saw is a whole number, and the write's key is his ``Idempotency-Key`` or,
   without one, the server's own made from that revision (``HAND_KEY_PREFIX``: Chinese characters, which
   no HTTP header can carry, so no client key ever takes one);
2. a retry of the last write (same key, same request) is answered with what it did;
3. a closed session or a stale revision is refused;
4. the draft's transition settles the hand once (the session's rules, the coin balances before it);
   any refusal leaves everything as it was;
5. when the hand is finished (or an undo takes a finished hand back), under the session's lock: one read
   of the session's last position, whether a round of it has the write's key, and the hand's revision,
   which must still be the one read in step 1; then the round recorded (for a hand ``hand_undo``
   reopened, a new version of that round) and the next hand started: a client key another round of the
   session already has is refused (422), never left to the unique constraint;
6. the row keeps the new draft in one ``UPDATE … WHERE revision = <the one read>``, and the revision
   moves on.

Every change of the hand or of the session's ledger moves its revision (``HandInProgress``), so the
revision read in step 1 vouches for everything read with it: the events, the coins before the hand,
whether the session is open. An ordinary event takes no lock: its one conditional ``UPDATE`` is the
check, and on PostgreSQL it waits for a concurrent writer's and then finds the row moved. A write whose
revision moved after step 1 (0 rows in step 6, or the read of step 5) is rolled back and goes through
the pipeline once more, where what came first answers it: a retry's answer, or the stale revision's
refusal (tests/ledger/test_hand_concurrency.py, on both databases). Nothing in step 5 is read in the
locking query: on PostgreSQL that query's other tables are seen as they were before it waited.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, Subquery, Value
from django.utils import timezone

from settlement.engine import KEPT, Drafted, DraftRefusal, HandDraft, RoundResult, Settle, StaleDraft

from .. import selectors
from ..errors import (
    Forbidden,
    HandRefusedError,
    IdempotencyKeyReusedError,
    LedgerError,
    SessionClosedError,
    StaleHandError,
)
from ..models import WRITER_ROLES, HandInProgress, Round, Session
from .checks import MAX_ID, _check_dealer, _fingerprint, _is_whole, _note, _refuse_unstorable
from .rounds import _next_version, _round_insert, _settle, _void
from .sessions import _locked

HAND_KEY_PREFIX = "本手-r"  # a write's own key when the client sent none: the revision it was made at

Transition = Callable[[HandDraft, Settle], Drafted]

# What a write stores of the hand (step 6): every column but the row's own keys.
STORED = (
    "number",
    "dealer",
    "void_suits",
    "events",
    "notes",
    "undone",
    "revision",
    "last_key",
    "last_fingerprint",
    "last_round_id",
    "reopened_id",
    "updated",
)


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What a write to the hand in progress did: the hand as it now stands; the round it recorded when it
    finished the hand (None otherwise); whether it was a retry answered without applying anything; the
    settlement the write made (of the hand in progress, or of the hand it finished; None on a retry); the
    round an undo right after a finished hand reopened; and the hand it finished, notes included (None on
    a retry)."""

    hand: HandInProgress
    round: Round | None = None
    replayed: bool = False
    result: RoundResult | None = None
    reopened: Round | None = None
    finished: HandDraft | None = None


class _Moved(Exception):
    """The hand's revision moved after the write read it (step 5 or 6): everything is rolled back."""


@dataclass(frozen=True, slots=True)
class _Write:
    """One write as asked: the revision seen, its key (the client's or the server's), the request's
    fingerprint, the transition, and the client's key alone (None when the server made ``key``)."""

    seen: int
    key: str
    fingerprint: str
    transition: Transition
    client_key: str | None


def hand_write(
    *,
    actor: User,
    session: Session,
    revision: object,
    asked: Mapping[str, Any],
    transition: Transition,
    idempotency_key: str | None = None,
    table: selectors.SessionTable | None = None,
) -> HandOutcome:
    """Apply one transition of the engine's draft to the session's hand (the pipeline above). ``asked``
    says what was asked, for recognising a retry; ``table``, the session's table as the caller read it
    for ``actor`` in this request (``selectors.session_table``), saves step 1 its read. An undo with
    nothing to undo right after the write that finished a hand (nothing written in the new one yet, no
    round recorded beside it) takes that hand back: its round is voided, and the hand is in progress
    again with its finishing event undone."""
    seen = _revision(revision)
    write = _Write(
        seen=seen,
        key=idempotency_key if idempotency_key is not None else f"{HAND_KEY_PREFIX}{seen}",
        fingerprint=_fingerprint({**asked, "revision": seen}),
        transition=transition,
        client_key=idempotency_key,
    )
    try:
        return _written(actor, session, write, table)
    except _Moved:
        # Another write came first. The revision only grows, so this pass reads another than ``seen``:
        # it answers a retry of that write or refuses a stale one before settling anything.
        return _written(actor, session, write, None)


def _written(
    actor: User, session: Session, write: _Write, table: selectors.SessionTable | None
) -> HandOutcome:
    hand, players = _read(actor, session, table)
    retried = _retried(hand, write.key, write.fingerprint, own_key=write.client_key is not None)
    if retried is not None:
        return retried
    session = hand.session
    if not session.is_open:
        raise SessionClosedError()
    try:
        draft = selectors.hand_draft(hand).at(write.seen)
    except StaleDraft:
        raise StaleHandError() from None
    coins_before = selectors.coin_balances(session, before=_reopened_position(hand))
    try:
        draft, result = _applied(session, draft, write.transition, coins_before)
    except HandRefusedError as refused:
        # An undo with nothing to undo right after a finished hand takes that hand back.
        if refused.error.code != "nothing_to_undo" or hand.last_round_id is None:
            raise
        return _reopened(actor, hand, write, refused)
    hand.revision = write.seen + 1
    hand.last_key, hand.last_fingerprint = write.key, write.fingerprint
    if not result.finished:
        _keep(hand, draft, reopened=hand.reopened)
        hand.last_round = None
        _store(hand, write.seen)
        return HandOutcome(hand=hand, result=result)
    with transaction.atomic():
        locked = _locked(session)
        hand.last_round = _record_finished(actor, locked, hand, draft, result, write, coins_before, players)
        _store(hand, write.seen)
    return HandOutcome(hand=hand, round=hand.last_round, result=result, finished=draft)


def _applied(
    session: Session, draft: HandDraft, transition: Transition, coins_before: list[int] | None
) -> Drafted:
    """The transition, settled once against the coins before the hand (a reopened hand's: before its
    round); the engine's refusal of the draft itself (nothing to undo...) is a conflict with the hand."""

    def settle(candidate: HandDraft) -> RoundResult:
        _refuse_unstorable(candidate.body(), "")
        return _settle(session, candidate.body(), coins_before)

    try:
        return transition(draft, settle)
    except DraftRefusal as refusal:
        raise HandRefusedError(refusal) from None


def _reopened_position(hand: HandInProgress) -> int | None:
    """Where the round the hand reopened stands (its coins are counted before it), or None."""
    return None if hand.reopened is None else hand.reopened.position


def _keep(hand: HandInProgress, draft: HandDraft, *, reopened: Round | None) -> None:
    hand.dealer = draft.dealer
    hand.void_suits = None if draft.void_suits is None else list(draft.void_suits)
    hand.events, hand.notes = list(draft.events), list(draft.notes)
    hand.undone = [{"event": undone.event, "note": undone.note} for undone in draft.undone]
    hand.reopened = reopened


def _store(hand: HandInProgress, seen: int) -> None:
    """Step 6: the hand as the write leaves it, if its row is still at the revision the write read; else
    ``_Moved`` (inside a transaction, which rolls back what the write recorded)."""
    hand.updated = timezone.now()
    stored = HandInProgress.objects.filter(pk=hand.pk, revision=seen).update(
        **{field: getattr(hand, field) for field in STORED}
    )
    if not stored:
        raise _Moved()


def _ledger_now(hand: HandInProgress, seen: int, key: str | None = None) -> tuple[int, bool]:
    """Step 5's read, under the session's lock: the session's last position and whether one of its rounds
    has ``key``; ``_Moved`` when the hand's revision is no longer ``seen`` (the lock was waited for)."""
    rounds = Round.objects.filter(session=OuterRef("session_id"))
    now = (
        HandInProgress.objects.filter(pk=hand.pk)
        .annotate(
            last=Subquery(rounds.order_by("-position").values("position")[:1]),
            taken=Exists(rounds.filter(idempotency_key=key)) if key is not None else Value(False),
        )
        .values_list("revision", "last", "taken")
        .get()
    )
    revision, last, taken = now
    if revision != seen:
        raise _Moved()
    return last or 0, bool(taken)


def _reopened(actor: User, hand: HandInProgress, write: _Write, refused: HandRefusedError) -> HandOutcome:
    """The finished hand in progress again, under the session's lock: the round this hand's last write
    recorded, while it is still the session's last round and counts, is voided (a reversal version: the
    ledger only grows), and its events come back with the one that finished it undone, so redo records it
    again. A round recorded beside the hand (``POST rounds/``) is not the hand's: the refusal stands."""
    finished = hand.last_round
    assert finished is not None  # noqa: S101 - the caller reopens only a hand whose last write recorded one
    with transaction.atomic():
        session = _locked(hand.session)
        last, _taken = _ledger_now(hand, write.seen)
        if finished.voided or finished.position != last:
            raise refused
        notes = _void(actor, session, finished)
        coins_before = selectors.coin_balances(session, before=finished.position)
        draft, result = HandDraft.reopened(
            dealer=finished.dealer,
            void_suits=finished.void_suits,
            events=finished.events,
            notes=notes,
            revision=write.seen,
            settle=lambda draft: _settle(session, draft.body(), coins_before),
        )
        _keep(hand, draft, reopened=finished)
        hand.number = finished.position
        hand.revision = write.seen + 1
        hand.last_key, hand.last_fingerprint, hand.last_round = write.key, write.fingerprint, finished
        _store(hand, write.seen)
    return HandOutcome(hand=hand, result=result, reopened=finished)


def _record_finished(
    actor: User,
    session: Session,
    hand: HandInProgress,
    draft: HandDraft,
    result: RoundResult,
    write: _Write,
    coins_before: list[int] | None,
    players: tuple[int, ...],
) -> Round:
    """The finished hand as a round, and the next hand started (under the session's lock). A hand
    reopened by undo becomes a new version of its round; any other a new round, keyed by the client's
    key (refused when another round of the session has it) or else by the server's own, which is its
    revision's."""
    body = {**draft.body(), "notes": list(draft.notes)}
    recorded = hand.reopened
    if recorded is not None:
        last, _taken = _ledger_now(hand, write.seen)
        _next_version(actor, session, recorded, body, result, coins_before)
    else:
        key: str | None = write.key
        last, taken = _ledger_now(hand, write.seen, key)
        if taken:
            if write.client_key is not None:
                raise IdempotencyKeyReusedError()
            key = None  # only a crafted group file can hold the server's key: record without one
        last += 1
        recorded = _round_insert(
            actor,
            session,
            body,
            result,
            coins_before,
            key=key,
            fingerprint=_fingerprint(draft.body()),  # as POST rounds/ would fingerprint the same round
            position=last,
            seats=dict(enumerate(players)),
        )
    _start_next_hand(hand, last + 1, result)
    return recorded


def hand_event_add(
    *,
    actor: User,
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
    return hand_write(
        actor=actor,
        session=session,
        revision=revision,
        asked={"add": event, "note": note},
        transition=lambda draft, settle: draft.record(event, note, settle=settle),
        idempotency_key=idempotency_key,
    )


def hand_event_edit(
    *,
    actor: User,
    session: Session,
    index: int,
    event: object,
    revision: object,
    note: object = None,
    idempotency_key: str | None = None,
) -> HandOutcome:
    """Replace event ``index`` in place, keeping the events after it; the whole hand is settled again."""
    note = _note(note)
    return hand_write(
        actor=actor,
        session=session,
        revision=revision,
        asked={"edit": index, "event": event, "note": note},
        transition=lambda draft, settle: draft.edit(index, event, note, settle=settle),
        idempotency_key=idempotency_key,
    )


def hand_event_remove(
    *,
    actor: User,
    session: Session,
    index: int,
    revision: object,
    idempotency_key: str | None = None,
) -> HandOutcome:
    """Take event ``index`` out, keeping the events after it; the whole hand is settled again."""
    return hand_write(
        actor=actor,
        session=session,
        revision=revision,
        asked={"remove": index},
        transition=lambda draft, settle: draft.remove(index, settle=settle),
        idempotency_key=idempotency_key,
    )


def hand_undo(
    *, actor: User, session: Session, revision: object, idempotency_key: str | None = None
) -> HandOutcome:
    """Take back the hand's last event (it goes onto the redo list); right after a finished hand, take
    that hand back (its round voided, the hand in progress again with its last event undone)."""
    return hand_write(
        actor=actor,
        session=session,
        revision=revision,
        asked={"undo": True},
        transition=lambda draft, settle: draft.undo(settle=settle),
        idempotency_key=idempotency_key,
    )


def hand_redo(
    *, actor: User, session: Session, revision: object, idempotency_key: str | None = None
) -> HandOutcome:
    """Replay the event undone last, checked by the engine again like any event."""
    return hand_write(
        actor=actor,
        session=session,
        revision=revision,
        asked={"redo": True},
        transition=lambda draft, settle: draft.redo(settle=settle),
        idempotency_key=idempotency_key,
    )


def hand_setup(
    *,
    actor: User,
    session: Session,
    revision: object,
    dealer: object = KEPT,
    void_suits: object = KEPT,
    idempotency_key: str | None = None,
) -> HandOutcome:
    """Choose the hand's dealer and void suits (定缺), before its first event; either may be left out."""
    if dealer is not KEPT:
        _check_dealer(dealer)
    if void_suits is not KEPT:
        _refuse_unstorable(void_suits, "void_suits")
    chosen = {
        key: value for key, value in (("dealer", dealer), ("void_suits", void_suits)) if value is not KEPT
    }
    return hand_write(
        actor=actor,
        session=session,
        revision=revision,
        asked={"setup": chosen},
        transition=lambda draft, settle: draft.set_up(dealer=dealer, void_suits=void_suits, settle=settle),
        idempotency_key=idempotency_key,
    )


def _read(
    actor: User, session: Session, table: selectors.SessionTable | None
) -> tuple[HandInProgress, tuple[int, ...]]:
    """Step 1: the hand with its session, the seats' players and the actor's role, from the session's
    table (one query,
    ``selectors.table_of``, without a lock: the revision read vouches for the rest, as the module's
    docstring says), or from ``table`` when the caller read it for ``actor`` in this request; a role
    that may not write is refused (403). A session without a hand row yet gets one, under its lock."""
    if table is None:
        table = selectors.table_of(user=actor, session_id=session.pk)
    if table is None or table.role not in WRITER_ROLES:
        raise Forbidden("role_forbids")
    if table.hand is not None:
        return table.hand, table.players
    with transaction.atomic():
        locked = _locked(session)
        if not HandInProgress.objects.filter(session=locked).exists():
            selectors.fresh_hand(locked).save()
    return _read(actor, session, None)


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
    if hand.last_round_id is not None and hand.last_round_id == hand.reopened_id:
        return HandOutcome(hand=hand, replayed=True, reopened=hand.reopened)
    return HandOutcome(hand=hand, round=hand.last_round, replayed=True)


def _start_next_hand(hand: HandInProgress, number: int, result: RoundResult) -> None:
    """The hand after the session's last round (``number``: its position plus one), with the dealer the
    engine suggests for the one just finished (the same dealer when it suggests none: the dice rule), no
    events, void suits to be chosen again."""
    hand.number = number
    if result.next_dealer is not None:
        hand.dealer = result.next_dealer
    hand.void_suits = None
    hand.events, hand.notes, hand.undone = [], [], []
    hand.reopened = None


def _revision(value: object) -> int:
    if not _is_whole(value, 0, MAX_ID):
        raise LedgerError("revision_not_whole", field="revision")
    return value
