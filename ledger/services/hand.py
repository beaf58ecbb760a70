"""The hand in progress.

One row per session (``HandInProgress``) keeps the engine's ``HandDraft`` of the session's table
(settlement/engine/draft.py); ``hand_write`` is the pipeline of every write, in this order, under the
session's lock:
1. the session locked and read with its hand and the actor's role in one query: the actor may write,
   the revision he saw is a whole number, and the write's key is his
   ``Idempotency-Key`` or, without one, the server's own made from that revision (``HAND_KEY_PREFIX``:
   Chinese characters, which no HTTP header can carry, so no client key ever takes one);
2. a retry of the last write (same key, same request) is answered with what it did;
3. a closed session or a stale revision is refused;
4. the draft's transition settles the hand once (the session's rules, the coin balances before it);
   any refusal leaves everything as it was;
5. when the hand is finished, its round is recorded (for a hand ``hand_undo`` reopened, a new version
   of that round) and the next hand starts: a client key another round of the session already has is
   refused (422), never left to the unique constraint;
6. the row keeps the new draft, and the revision moves on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Max, OuterRef, Q, Subquery

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
from ..models import WRITER_ROLES, HandInProgress, Membership, Round, Session
from .checks import MAX_ID, _check_dealer, _fingerprint, _is_whole, _note, _refuse_unstorable
from .rounds import _next_version, _round_insert, _settle, _void

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations  # only mypy reads it: the annotations are never evaluated

HAND_KEY_PREFIX = "本手-r"  # a write's own key when the client sent none: the revision it was made at

Transition = Callable[[HandDraft, Settle], Drafted]


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


def hand_write(
    *,
    actor: User,
    session: Session,
    revision: object,
    asked: Mapping[str, Any],
    transition: Transition,
    idempotency_key: str | None = None,
) -> HandOutcome:
    """Apply one transition of the engine's draft to the session's hand (the pipeline above). ``asked``
    says what was asked, for recognising a retry. An undo with nothing to undo right after the write that
    finished a hand (nothing written in the new one yet, no round recorded beside it) takes that hand back:
    its round is voided, and the hand is in progress again with its finishing event undone."""
    with transaction.atomic():
        session, hand = _locked_with_hand(actor, session)
        seen = _revision(revision)
        key = idempotency_key if idempotency_key is not None else f"{HAND_KEY_PREFIX}{seen}"
        fingerprint = _fingerprint({**asked, "revision": seen})
        retried = _retried(hand, key, fingerprint, own_key=idempotency_key is not None)
        if retried is not None:
            return retried
        if not session.is_open:
            raise SessionClosedError()
        try:
            draft = selectors.hand_draft(hand).at(seen)
        except StaleDraft:
            raise StaleHandError() from None
        reopened = None
        try:
            draft, result = _applied(session, hand, draft, transition)
        except HandRefusedError as refused:
            # An undo with nothing to undo right after a finished hand takes that hand back.
            reopened = _last_finished(session, hand) if refused.error.code == "nothing_to_undo" else None
            if reopened is None:
                raise
            draft, result = _reopen(actor, session, reopened, seen)
        recorded = (
            _record_finished(actor, session, hand, draft, result, idempotency_key)
            if result.finished
            else None
        )
        if recorded is None:
            _keep(hand, draft, reopened=reopened or hand.reopened)
        if reopened is not None:
            hand.number = reopened.position
        hand.revision = seen + 1
        hand.last_key, hand.last_fingerprint, hand.last_round = key, fingerprint, recorded or reopened
        hand.save()
        finished = draft if recorded is not None else None
        return HandOutcome(hand=hand, round=recorded, result=result, reopened=reopened, finished=finished)


def _applied(session: Session, hand: HandInProgress, draft: HandDraft, transition: Transition) -> Drafted:
    """The transition, settled once against the coins before the hand (a reopened hand's: before its
    round); the engine's refusal of the draft itself (nothing to undo...) is a conflict with the hand."""
    coins_before = selectors.coin_balances(session, before=_reopened_position(hand))

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


def _last_finished(session: Session, hand: HandInProgress) -> Round | None:
    """The round this hand's last write recorded, while it is still the session's last round and counts:
    what an undo takes back. A round recorded beside the hand (``POST rounds/``) is not the hand's."""
    finished = hand.last_round
    if finished is None or finished.voided:
        return None
    last = Round.objects.filter(session=session).aggregate(last=Max("position"))["last"]
    return finished if finished.position == last else None


def _reopen(actor: User, session: Session, round_: Round, seen: int) -> Drafted:
    """The finished hand in progress again: its round voided (a reversal version: the ledger only grows),
    its events back with the one that finished it undone, so redo records it again."""
    notes = _void(actor, session, round_)
    coins_before = selectors.coin_balances(session, before=round_.position)
    return HandDraft.reopened(
        dealer=round_.dealer,
        void_suits=round_.void_suits,
        events=round_.events,
        notes=notes,
        revision=seen,
        settle=lambda draft: _settle(session, draft.body(), coins_before),
    )


def _record_finished(
    actor: User,
    session: Session,
    hand: HandInProgress,
    draft: HandDraft,
    result: RoundResult,
    client_key: str | None,
) -> Round:
    """The finished hand as a round, and the next hand started. A hand reopened by undo becomes a new
    version of its round; any other a new round, keyed by the client's key (refused when another round
    of the session has it) or else by the server's own, which is its revision's."""
    body = {**draft.body(), "notes": list(draft.notes)}
    coins_before = selectors.coin_balances(session, before=_reopened_position(hand))
    rounds = Round.objects.filter(session=session)
    if hand.reopened is not None:
        recorded = hand.reopened
        _next_version(actor, session, recorded, body, result, coins_before)
        last = rounds.aggregate(last=Max("position"))["last"] or 0
    else:
        key: str | None = client_key if client_key is not None else f"{HAND_KEY_PREFIX}{draft.revision - 1}"
        # the session's last position and whether a round has the key, in one read
        found = rounds.aggregate(last=Max("position"), taken=Count("pk", filter=Q(idempotency_key=key)))
        if found["taken"]:
            if client_key is not None:
                raise IdempotencyKeyReusedError()
            key = None  # only a crafted group file can hold the server's key: record without one
        last = (found["last"] or 0) + 1
        recorded = _round_insert(
            actor,
            session,
            body,
            result,
            coins_before,
            key=key,
            fingerprint=_fingerprint(draft.body()),  # as POST rounds/ would fingerprint the same round
            position=last,
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


class WithActorRole(TypedDict):
    actor_role: str | None  # the writer's role in the session's group (None: not a member)


def _locked_with_hand(actor: User, session: Session) -> tuple[Session, HandInProgress]:
    """Step 1: the session row locked (as ``sessions._locked``: PostgreSQL locks it, SQLite's IMMEDIATE
    transaction already holds the database) with the actor's role, a role that may not write refused
    (403); then the hand, read once the lock is held. Not in the locking query: on PostgreSQL a writer
    that waited for the lock would get the hand as it was when its query began, before the writer it
    waited for committed (the hand's row is not the locked one), and two taps at one revision would both
    pass (tests/ledger/test_hand_concurrency.py). The hand is created if the session has none yet."""
    role = Membership.objects.filter(group=OuterRef("group_id"), user=actor).values("role")[:1]
    locked: WithAnnotations[Session, WithActorRole] = (
        Session.objects.select_for_update(of=("self",))
        .select_related("group")
        .annotate(actor_role=Subquery(role))
        .get(pk=session.pk)
    )
    if locked.actor_role not in WRITER_ROLES:
        raise Forbidden("role_forbids")
    hand = HandInProgress.objects.filter(session=locked).first()
    if hand is None:
        hand = selectors.fresh_hand(locked)
        hand.save()
    return locked, hand


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
