"""The hand store: where a page keeps the hand being entered (docs/pages.md, "The hand store").

The hand itself is the engine's ``HandDraft`` (settlement/engine/draft.py), with its transitions; a store
only keeps it. ``/round/`` keeps its draft in the Django session (``evening.py``), the session page in the
ledger's hand in progress (``ledger.pages.session``), a correction in the Django session beside the round
being corrected (``ledger.pages.history``). A write hands the store one transition: the store checks the
revision the page saw, applies the transition (which settles the hand once), keeps the new draft and
answers with the settlement the transition made, which the page renders as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from settlement.engine import Drafted, HandDraft, RoundResult, Settle

SEATS = 4


@dataclass(frozen=True, slots=True)
class Change:
    """One tap's change of the hand: what was asked (the ledger recognises a retried tap by it) and the
    draft's transition that does it, settled by the store's ``settle``."""

    asked: Mapping[str, Any]
    apply: Callable[[HandDraft, Settle], Drafted]


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand as a store holds it: the table's names and rules, the draft, and the totals before it."""

    number: int
    names: tuple[str, ...]
    draft: HandDraft
    rules: Mapping[str, Any]  # the API's ``rules`` object
    totals: tuple[int, ...] = (0, 0, 0, 0)  # each seat's running total before this hand

    @property
    def dealer(self) -> int:
        return self.draft.dealer

    @property
    def void_suits(self) -> tuple[str | None, ...]:
        suits = self.draft.void_suits
        return tuple(suits) if isinstance(suits, tuple) and len(suits) == SEATS else (None,) * SEATS

    @property
    def events(self) -> tuple[Any, ...]:
        return self.draft.events

    @property
    def notes(self) -> tuple[str, ...]:
        """One per event: how it was entered (``events.py``), "" for none."""
        return tuple(note or "" for note in self.draft.notes)

    @property
    def revision(self) -> int:
        return self.draft.revision

    @property
    def can_redo(self) -> bool:
        return bool(self.draft.undone)


@dataclass(frozen=True, slots=True)
class Written:
    """What a write did: the hand now in progress with its settlement (None while it has no event: an
    empty hand needs none) and, when the write ended a hand, that hand with its settlement (the same hand
    for a store that keeps a finished hand open until 下一手, the one just stored as a round for a store
    that starts the next hand at once)."""

    hand: Hand
    result: RoundResult | None
    finished: Hand | None = None
    finished_result: RoundResult | None = None


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
    """``write`` takes the revision the page saw and raises ``StaleHand`` if it is not the current one;
    an event the engine refuses raises the engine's ``EngineError`` (a ``DraftRefusal`` for nothing to
    undo and the like), a write the store refuses for its own reasons ``StoreRefusal``; either changes
    nothing. ``settle`` is the store's table (its rules and coins), for a page that shows the hand."""

    @property
    def rules(self) -> Mapping[str, Any]:
        """The table's rules (the API's ``rules`` object), known without reading the hand."""
        ...

    def load(self) -> Hand: ...

    def settle(self, draft: HandDraft) -> RoundResult: ...

    def write(self, change: Change, *, revision: int) -> Written: ...

    def next_hand(self, *, revision: int) -> Written: ...


def kept_open(hand: Hand, result: RoundResult) -> Written:
    """The answer of a store that keeps a finished hand open until 下一手 (/round/, a correction)."""
    return Written(hand, result, hand if result.finished else None, result if result.finished else None)
