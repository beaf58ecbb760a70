"""A hand store in the Django session: the evening of a table that keeps nothing on the server for good.

``/round/`` uses it so its evening survives a reload, Back and the language switch (the session cookie
carries it; nobody logs in). It keeps the table (names, void suits, rules), the hand in progress with what
撤销 took back, the totals, and every finished hand, so a logged-in player can later save the evening into
a group (``ledger.pages.evening``). A finished hand stays open until 下一手, so a mis-tapped win is undone
with one tap like any other event.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from calculator.engine import Preset, rules_from
from settlement.engine import HandDraft, RoundResult, StaleDraft, Undone, settle_round
from web.seats import DEFAULT_NAMES, SEATS, seat_names

from .store import Change, Hand, StaleHand, Written, kept_open

KEY = "sczmj.evening"


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A hand played this evening, as a session's round would record it."""

    dealer: int
    void_suits: tuple[str | None, ...]
    events: tuple[dict[str, Any], ...]
    notes: tuple[str, ...]


def _ints(raw: Any, length: int, default: int) -> tuple[int, ...]:
    values = raw if isinstance(raw, list) and len(raw) == length else [default] * length
    return tuple(
        value if isinstance(value, int) and not isinstance(value, bool) else default for value in values
    )


def _suits(raw: Any) -> tuple[str | None, ...]:
    values = raw if isinstance(raw, list) and len(raw) == len(SEATS) else [None] * len(SEATS)
    return tuple(value if value in ("m", "p", "s") else None for value in values)


class EveningStore:
    """The ``HandStore`` of ``/round/`` (web.entry.store), over ``request.session``."""

    def __init__(self, session: MutableMapping[str, Any]):
        self.session = session
        raw = session.get(KEY)
        self.data: dict[str, Any] = dict(raw) if isinstance(raw, Mapping) else {}

    # -- reading ---------------------------------------------------------------------------------------

    @property
    def rules(self) -> dict[str, Any]:
        rules = self.data.get("rules")
        return rules if isinstance(rules, dict) else {"preset": Preset.CHENGDU.value}

    def load(self) -> Hand:
        data = self.data
        events = tuple(event for event in data.get("events", ()) if isinstance(event, dict))
        notes = tuple(str(note) for note in data.get("notes", ()))
        dealer = data.get("dealer")
        number = data.get("number")
        revision = data.get("revision")
        draft = HandDraft.of(
            dealer=dealer if dealer in SEATS else 0,
            void_suits=_suits(data.get("void_suits")),
            events=events,
            notes=(notes + ("",) * len(events))[: len(events)],
            undone=self._undone(),
            revision=revision if isinstance(revision, int) and not isinstance(revision, bool) else 0,
        )
        return Hand(
            number=max(number, 1) if isinstance(number, int) else 1,
            names=seat_names(data.get("names") or ()),
            draft=draft,
            rules=self.rules,
            totals=_ints(data.get("totals"), len(SEATS), 0),
        )

    def settle(self, draft: HandDraft) -> RoundResult:
        """The evening's table: its own rules, no coins."""
        return settle_round(
            dealer=draft.dealer,
            void_suits=draft.void_suits,
            events=draft.events,
            rules=rules_from(self.rules),
        )

    def finished_hands(self) -> tuple[FinishedHand, ...]:
        """Every hand finished this evening with 下一手, oldest first."""
        hands = []
        for raw in self.data.get("hands", ()):
            if (
                isinstance(raw, Mapping)
                and raw.get("dealer") in SEATS
                and isinstance(raw.get("events"), list)
            ):
                hands.append(
                    FinishedHand(
                        raw["dealer"],
                        _suits(raw.get("void_suits")),
                        tuple(raw["events"]),
                        tuple(str(note) for note in raw.get("notes", ())),
                    )
                )
        return tuple(hands)

    def _undone(self) -> tuple[Undone, ...]:
        return tuple(
            Undone(entry[0], str(entry[1]))
            for entry in self.data.get("undone", [])
            if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], dict)
        )

    # -- writing ---------------------------------------------------------------------------------------

    def _save(self, hand: Hand, **fields: Any) -> Hand:
        """Keep ``hand`` (its draft's revision is the one it now has)."""
        draft = hand.draft
        self.data.update(
            dealer=draft.dealer,
            void_suits=list(hand.void_suits),
            rules=dict(hand.rules),
            events=list(draft.events),
            notes=list(hand.notes),
            undone=[[undone.event, undone.note or ""] for undone in draft.undone],
            totals=list(hand.totals),
            number=hand.number,
            revision=draft.revision,
            **fields,
        )
        self.session[KEY] = self.data
        return hand

    def _current(self, revision: int) -> Hand:
        hand = self.load()
        try:
            hand.draft.at(revision)
        except StaleDraft as stale:
            raise StaleHand(hand) from stale
        return hand

    def write(self, change: Change, *, revision: int) -> Written:
        hand = self._current(revision)
        draft, result = change.apply(hand.draft, self.settle)  # EngineError: nothing is saved
        return kept_open(self._save(replace(hand, draft=draft)), result)

    def next_hand(self, *, revision: int) -> Written:
        """下一手: the totals carry the finished hand, the engine's suggested dealer deals (the same one
        when the rules leave it to the dice)."""
        hand = self._current(revision)
        result = self.settle(hand.draft) if hand.events else None
        if result is None or not result.finished:
            return kept_open(hand, result) if result else Written(hand, None)
        finished = {
            "dealer": hand.dealer,
            "void_suits": list(hand.void_suits),
            "events": list(hand.events),
            "notes": list(hand.notes),
        }
        dealer = result.next_dealer if result.next_dealer is not None else hand.dealer
        fresh = replace(
            hand,
            number=hand.number + 1,
            draft=HandDraft(dealer, hand.draft.void_suits, revision=hand.revision + 1),
            totals=tuple(total + net for total, net in zip(hand.totals, result.net, strict=True)),
        )
        return Written(self._save(fresh, hands=[*self.data.get("hands", []), finished]), None)

    def set_table(
        self,
        *,
        names: Sequence[str],
        dealer: int,
        void_suits: Sequence[str | None],
        rules: Mapping[str, Any],
    ) -> Hand:
        """座位与规则: the table's names, dealer, void suits and rules.

        Events already entered stay, and so does what 撤销 took back; if they no longer settle under the
        new table, the page shows the engine's message and changing back restores them."""
        hand = self.load()
        draft = replace(hand.draft, dealer=dealer, void_suits=tuple(void_suits))
        table = replace(hand, names=seat_names(names), draft=draft, rules=dict(rules))
        if table == hand:
            return hand
        # A seat left with its wind keeps no name, so it follows the page's language (东 / East).
        self.data["names"] = [
            typed if typed != str(DEFAULT_NAMES[seat]) else "" for seat, typed in enumerate(table.names)
        ]
        return self._save(replace(table, draft=replace(draft, revision=draft.revision + 1)))

    def clear(self) -> None:
        """Forget the evening (once it is saved into a group)."""
        self.session.pop(KEY, None)
        self.data = {}
