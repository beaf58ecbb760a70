"""The hand in progress.

One row per session (``HandInProgress``). Every write below takes the ``revision`` the writer saw and
runs under the session's lock: (1) a retry of the last write is answered with what it did, (2) a closed
session or a stale revision is refused, (3) the change is checked by settling the events it leaves,
(4) when those events finish the hand, the round is recorded and the next hand starts, in the same
transaction; (5) the revision moves on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from settlement.engine import DraftRefusal, RoundResult

from .. import selectors
from ..errors import (
    HandRefusedError,
    IdempotencyKeyReusedError,
    LedgerError,
    SessionClosedError,
    StaleHandError,
)
from ..models import WRITER_ROLES, HandInProgress, Round, Session
from .checks import MAX_ID, _check_dealer, _fingerprint, _is_whole, _note, _refuse_unstorable, require_role
from .rounds import _round_insert, _settle
from .sessions import _locked

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


def _revision(value: object) -> int:
    if not _is_whole(value, 0, MAX_ID):
        raise LedgerError("revision_not_whole", field="revision")
    return value  # type: ignore[return-value]
