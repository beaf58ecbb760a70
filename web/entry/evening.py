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

from calculator.engine import Preset
from settlement.engine import settle_from_payload
from web.seats import DEFAULT_NAMES, SEATS, seat_names

from .store import Hand, Recorded, StaleHand

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

    def load(self) -> Hand:
        data = self.data
        events = tuple(event for event in data.get("events", ()) if isinstance(event, dict))
        notes = tuple(str(note) for note in data.get("notes", ()))
        dealer = data.get("dealer")
        return Hand(
            number=max(int(data.get("number", 1)) if isinstance(data.get("number"), int) else 1, 1),
            names=seat_names(data.get("names") or ()),
            dealer=dealer if dealer in SEATS else 0,
            void_suits=_suits(data.get("void_suits")),
            rules=data.get("rules")
            if isinstance(data.get("rules"), dict)
            else {"preset": Preset.CHENGDU.value},
            events=events,
            notes=(notes + ("",) * len(events))[: len(events)],
            totals=_ints(data.get("totals"), len(SEATS), 0),
            revision=data.get("revision", 0) if isinstance(data.get("revision"), int) else 0,
            can_redo=bool(self._undone()),
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

    def _undone(self) -> list[list[Any]]:
        undone = self.data.get("undone", [])
        return [
            entry
            for entry in undone
            if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], dict)
        ]

    # -- writing ---------------------------------------------------------------------------------------

    def _save(self, hand: Hand, **fields: Any) -> Hand:
        self.data.update(
            dealer=hand.dealer,
            void_suits=list(hand.void_suits),
            rules=dict(hand.rules),
            events=list(hand.events),
            notes=list(hand.notes),
            totals=list(hand.totals),
            number=hand.number,
            revision=hand.revision + 1,
            **fields,
        )
        self.session[KEY] = self.data
        return self.load()

    def _current(self, revision: int) -> Hand:
        hand = self.load()
        if revision != hand.revision:
            raise StaleHand(hand)
        return hand

    def record(self, event: dict[str, Any], note: str, *, revision: int) -> Recorded:
        hand = self._current(revision)
        longer = replace(hand, events=(*hand.events, event), notes=(*hand.notes, note))
        result = settle_from_payload(longer.settle_body()).to_dict()  # EngineError: nothing is saved
        saved = self._save(longer, undone=[])
        return Recorded(saved, saved if result["finished"] else None)

    def undo(self, *, revision: int) -> Hand:
        hand = self._current(revision)
        if not hand.events:
            return hand
        undone = [*self._undone(), [hand.events[-1], hand.notes[-1]]]
        return self._save(replace(hand, events=hand.events[:-1], notes=hand.notes[:-1]), undone=undone)

    def redo(self, *, revision: int) -> Hand:
        hand = self._current(revision)
        undone = self._undone()
        if not undone:
            return hand
        event, note = undone[-1]
        longer = replace(hand, events=(*hand.events, event), notes=(*hand.notes, str(note)))
        settle_from_payload(longer.settle_body())
        return self._save(longer, undone=undone[:-1])

    def next_hand(self, *, revision: int) -> Hand:
        """下一手: the totals carry the finished hand, the engine's suggested dealer deals (the same one
        when the rules leave it to the dice)."""
        hand = self._current(revision)
        result = settle_from_payload(hand.settle_body()).to_dict()
        if not result["finished"]:
            return hand
        finished = {
            "dealer": hand.dealer,
            "void_suits": list(hand.void_suits),
            "events": list(hand.events),
            "notes": list(hand.notes),
        }
        fresh = replace(
            hand,
            number=hand.number + 1,
            dealer=result["next_dealer"] if result["next_dealer"] is not None else hand.dealer,
            events=(),
            notes=(),
            totals=tuple(total + net for total, net in zip(hand.totals, result["net"], strict=True)),
        )
        return self._save(fresh, undone=[], hands=[*self.data.get("hands", []), finished])

    def set_table(
        self,
        *,
        names: Sequence[str],
        dealer: int,
        void_suits: Sequence[str | None],
        rules: Mapping[str, Any],
    ) -> Hand:
        """座位与规则: the table's names, dealer, void suits and rules.

        Events already entered stay; if they no longer settle under the new table, the page shows the
        engine's message and changing back restores them."""
        hand = self.load()
        table = replace(
            hand, names=seat_names(names), dealer=dealer, void_suits=tuple(void_suits), rules=dict(rules)
        )
        if table == hand:
            return hand
        # A seat left with its wind keeps no name, so it follows the page's language (东 / East).
        self.data["names"] = [
            typed if typed != str(DEFAULT_NAMES[seat]) else "" for seat, typed in enumerate(table.names)
        ]
        return self._save(table)

    def clear(self) -> None:
        """Forget the evening (once it is saved into a group)."""
        self.session.pop(KEY, None)
        self.data = {}
