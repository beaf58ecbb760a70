"""The hand in progress as one value: ``HandDraft`` and its transitions (ARCHITECTURE.md, "The hand in
progress").

A draft is the hand a table is entering: its dealer and void suits, the events so far (the settle API's
event objects) with one note each, the events 撤销 took back (most recent last: what 重做 replays) and a
revision that grows with every change. Each transition returns a ``Drafted``: the new draft and the
engine's settlement of its events, made exactly once by the ``settle`` the caller gives (the rules and,
for a table with coins, the balances before the hand). Any ``EngineError`` from that settlement refuses
the transition as a whole, so nothing a store keeps is ever a hand the engine does not accept.

Every store of a hand (the ledger's session, ``/round/``'s evening, a correction) loads its draft, checks
the revision its writer saw (``at``), applies one transition and keeps what comes back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from calculator.engine import EngineError, Rules

from .checks import robbed_kong_voided
from .events import EventKind
from .settle import RoundResult, settle_round


class DraftRefusal(EngineError):
    """A transition the draft cannot take as it stands (nothing to undo, an event that is not there):
    worded by the engine's catalogue like any refusal, so every store says the same thing."""


class StaleDraft(Exception):
    """The writer saw another revision than the draft's: someone changed the hand first."""

    def __init__(self, current: HandDraft) -> None:
        super().__init__(f"the hand is at revision {current.revision}")
        self.current = current


@dataclass(frozen=True, slots=True)
class Undone:
    """An event 撤销 took back, with its note: what 重做 replays."""

    event: Any
    note: str | None = None


Settle = Callable[["HandDraft"], RoundResult]
KEPT: Any = object()  # ``set_up``'s "leave this as it is"


class Drafted(NamedTuple):
    """What a transition made: the new draft, and the engine's settlement of its events."""

    draft: HandDraft
    result: RoundResult


@dataclass(frozen=True, slots=True)
class HandDraft:
    """The hand in progress; ``notes`` has one entry per event (None where there is none)."""

    dealer: int
    void_suits: tuple[str | None, ...] | None = None  # None: not chosen (定缺 unknown)
    events: tuple[Any, ...] = ()
    notes: tuple[str | None, ...] = ()
    undone: tuple[Undone, ...] = ()
    revision: int = 0

    @classmethod
    def of(
        cls,
        *,
        dealer: int,
        void_suits: Sequence[str | None] | None = None,
        events: Sequence[Any] = (),
        notes: Sequence[str | None] = (),
        undone: Sequence[Undone] = (),
        revision: int = 0,
    ) -> HandDraft:
        """A draft from what a store kept: notes cut or padded to one per event."""
        padded = (tuple(notes) + (None,) * len(events))[: len(events)]
        return cls(dealer, _suits(void_suits), tuple(events), padded, tuple(undone), revision)

    # -- reading ---------------------------------------------------------------------------------------

    def body(self) -> dict[str, Any]:
        """The round as ``POST rounds/`` takes it (the settle body without rules and coins)."""
        suits = None if self.void_suits is None else list(self.void_suits)
        return {"dealer": self.dealer, "void_suits": suits, "events": list(self.events)}

    def at(self, revision: int) -> HandDraft:
        """This draft, if it is the revision the writer saw; else ``StaleDraft``."""
        if revision != self.revision:
            raise StaleDraft(self)
        return self

    # -- the transitions -------------------------------------------------------------------------------

    def record(self, event: Any, note: str | None, *, settle: Settle) -> Drafted:
        """One more event; whatever was undone is forgotten (a new event replaces it)."""
        return self._settled(settle, events=(*self.events, event), notes=(*self.notes, note), undone=())

    def _robbed_kong(self, event: Any) -> int | None:
        """The index of the added kong ``event`` robs (RULES.md 4.5: that kong is void), when it is the
        last play entered; else None. At the table the 弯杠 is entered as it is declared, before anyone
        says 抢杠; an adjustment entered since is looked past (RULES.md 4.8)."""
        plays = [index for index, entered in enumerate(self.events) if not _is_adjustment(entered)]
        if plays and robbed_kong_voided(self.events[plays[-1]], event):
            return plays[-1]
        return None

    def replace_robbed_kong(self, event: Any, note: str | None, *, settle: Settle) -> Drafted:
        """The robbing win in place of the robbed kong, in one step: the kong never happened, so it goes
        nowhere (not onto the redo list) and whatever followed it stays; ``record`` when ``event`` robs no
        kong entered last."""
        robbed = self._robbed_kong(event)
        if robbed is None:
            return self.record(event, note, settle=settle)
        events = (*self.events[:robbed], *self.events[robbed + 1 :], event)
        notes = (*self.notes[:robbed], *self.notes[robbed + 1 :], note)
        return self._settled(settle, events=events, notes=notes, undone=())

    def undo(self, *, settle: Settle) -> Drafted:
        """The last event taken back, onto the redo list."""
        if not self.events:
            raise DraftRefusal("nothing_to_undo", field="events")
        taken = Undone(self.events[-1], self.notes[-1])
        return self._settled(
            settle, events=self.events[:-1], notes=self.notes[:-1], undone=(*self.undone, taken)
        )

    def redo(self, *, settle: Settle) -> Drafted:
        """The event undone last, replayed (and checked again like any event)."""
        if not self.undone:
            raise DraftRefusal("nothing_to_redo", field="undone")
        again = self.undone[-1]
        return self._settled(
            settle,
            events=(*self.events, again.event),
            notes=(*self.notes, again.note),
            undone=self.undone[:-1],
        )

    def edit(self, index: int, event: Any, note: str | None, *, settle: Settle) -> Drafted:
        """Event ``index`` replaced in place (a wrong fan, winner or discarder), the ones after it kept;
        the hand is settled again as a whole."""
        self._check_index(index)
        events = (*self.events[:index], event, *self.events[index + 1 :])
        notes = (*self.notes[:index], note, *self.notes[index + 1 :])
        return self._settled(settle, events=events, notes=notes)

    def remove(self, index: int, *, settle: Settle) -> Drafted:
        """Event ``index`` taken out, the ones after it kept; the hand is settled again as a whole."""
        self._check_index(index)
        events = (*self.events[:index], *self.events[index + 1 :])
        notes = (*self.notes[:index], *self.notes[index + 1 :])
        return self._settled(settle, events=events, notes=notes)

    def set_up(self, *, settle: Settle, dealer: Any = KEPT, void_suits: Any = KEPT) -> Drafted:
        """The dealer and void suits (定缺), chosen before the first event; either may be ``KEPT``. The
        undone events belonged to the old seating: redo could mislead, so they go."""
        if self.events:
            raise DraftRefusal("hand_started", field="events")
        return self._settled(
            settle,
            dealer=self.dealer if dealer is KEPT else dealer,
            void_suits=self.void_suits if void_suits is KEPT else _suits(void_suits),
            undone=(),
        )

    @classmethod
    def reopened(
        cls,
        *,
        dealer: int,
        void_suits: Sequence[str | None] | None,
        events: Sequence[Any],
        notes: Sequence[str | None],
        revision: int,
        settle: Settle,
    ) -> Drafted:
        """A finished hand in progress again: all its events but the one that finished it, which is
        undone (redo records it again)."""
        finished = cls.of(dealer=dealer, void_suits=void_suits, events=events, notes=notes, revision=revision)
        return finished.undo(settle=settle)

    # -- the one way to the next draft -------------------------------------------------------------------

    def _settled(self, settle: Settle, **changes: Any) -> Drafted:
        draft = replace(self, revision=self.revision + 1, **changes)
        return Drafted(draft, settle(draft))

    def _check_index(self, index: int) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.events):
            raise DraftRefusal("no_such_event", field="event", index=index, count=len(self.events))


def _is_adjustment(event: Any) -> bool:
    """罚分 and the like: no play, invisible to the adjacency rules (RULES.md 4.8)."""
    return isinstance(event, Mapping) and event.get("type") == EventKind.ADJUST


def _suits(value: Any) -> Any:
    """Void suits as a tuple when they are a list; anything else as given, for the engine to refuse."""
    return tuple(value) if isinstance(value, list | tuple) else value


def settler(rules: Rules | Mapping[str, Any] | None, coins: Mapping[str, Any] | None = None) -> Settle:
    """The ``settle`` of a table: its rules and, with coins on, its balances before the hand."""

    def settle(draft: HandDraft) -> RoundResult:
        return settle_round(
            dealer=draft.dealer, void_suits=draft.void_suits, events=draft.events, rules=rules, coins=coins
        )

    return settle
