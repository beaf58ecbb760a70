"""The hand store: where a page keeps the hand being entered (docs/pages.md, "The hand store").

The entry UI needs five things of its store and nothing else: load the hand, record an event, undo,
redo, start the next hand. ``/round/`` keeps its hand in the Django session (``settlement.views``), the
session page in the ledger's hand in progress (``ledger.pages.session``), a correction in the round being
corrected. Events are the settle API's event objects, so every store speaks the engine's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand as a store holds it: the table, the events so far, and the totals before it."""

    number: int
    names: tuple[str, ...]
    dealer: int
    void_suits: tuple[str | None, ...]
    rules: Mapping[str, Any]  # the API's ``rules`` object
    events: tuple[dict[str, Any], ...] = ()
    notes: tuple[str, ...] = ()  # one per event: how it was entered (``events.py``), "" for none
    totals: tuple[int, ...] = (0, 0, 0, 0)  # each seat's running total before this hand
    revision: int = 0  # grows with every change; a write against an older one is refused
    can_redo: bool = False
    coins: Mapping[str, Any] | None = field(default=None)

    def settle_body(self, events: tuple[dict[str, Any], ...] | None = None) -> dict[str, Any]:
        """The body of ``POST /api/v1/settle/`` for these events (the hand's own by default)."""
        body: dict[str, Any] = {
            "rules": dict(self.rules),
            "dealer": self.dealer,
            "void_suits": list(self.void_suits),
            "events": list(self.events if events is None else events),
        }
        return body


@dataclass(frozen=True, slots=True)
class Recorded:
    """What recording an event did: the hand now in progress and, when the event ended a hand, that hand
    (the same one for a store that keeps a finished hand open until 下一手, the one just stored as a round
    for a store that starts the next hand at once)."""

    hand: Hand
    finished: Hand | None = None


class StaleHand(Exception):
    """A write against a revision that is not the current one: someone else changed the hand first."""

    def __init__(self, current: Hand):
        super().__init__(f"the hand is at revision {current.revision}")
        self.current = current


class StoreRefusal(Exception):
    """A write the store itself refuses (a closed session, a viewer's role), in the page's language."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class HandStore(Protocol):
    """Every write takes the revision the page saw and raises ``StaleHand`` if it is not the current one;
    an event the engine refuses raises the engine's ``EngineError``, a write the store refuses for its own
    reasons ``StoreRefusal``, and either changes nothing."""

    def load(self) -> Hand: ...

    def record(self, event: dict[str, Any], note: str, *, revision: int) -> Recorded: ...

    def undo(self, *, revision: int) -> Hand: ...

    def redo(self, *, revision: int) -> Hand: ...

    def next_hand(self, *, revision: int) -> Hand: ...
