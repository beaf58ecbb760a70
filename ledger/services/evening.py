"""An evening played on ``/round/`` without an account, kept as a session of one of the actor's groups.

The evening arrives as plain values (the page reads them from the Django session): its four names and
rules, the hands it finished (round bodies) and the hand being played. One transaction: a refusal of any
part stores nothing of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from .. import selectors
from ..models import Group, Session
from .hand import hand_event_add, hand_setup
from .rounds import round_record
from .sessions import session_start_by_names


@dataclass(frozen=True, slots=True)
class HandSoFar:
    """The hand being played when the evening is kept: its dealer, void suits, and events with their
    notes (one each, "" or None for none)."""

    dealer: int
    void_suits: Sequence[str | None]
    events: Sequence[Mapping[str, Any]]
    notes: Sequence[str | None]


@transaction.atomic
def evening_keep(
    *,
    actor: User,
    group: Group,
    name: str,
    player_names: Sequence[str],
    rules: Mapping[str, Any],
    rounds: Sequence[Mapping[str, Any]],
    hand: HandSoFar,
) -> Session:
    """A new session of ``group`` with the evening's players (a new name becomes a player) and rules,
    every finished hand recorded as a round, and the hand being played as its hand in progress."""
    session = session_start_by_names(
        actor=actor, group=group, name=name, player_names=player_names, rules=dict(rules)
    )
    for body in rounds:
        round_record(actor=actor, session=session, body=dict(body))
    revision = hand_setup(
        actor=actor,
        session=session,
        revision=selectors.session_hand_revision(session),
        dealer=hand.dealer,
        void_suits=list(hand.void_suits),
    ).hand.revision
    for event, note in zip(hand.events, hand.notes, strict=True):
        revision = hand_event_add(
            actor=actor, session=session, event=event, note=note or None, revision=revision
        ).hand.revision
    return session
