"""“What if”: hands already played, settled again under other rules, read-only. Nothing is stored.

A hand is replayed from what the table entered, as the table entered it:

1. each event as recorded (its current version), in order, with the hand's dealer and void suits;
2. a win or a ready hand entered by the quick picker (the note keeps its pattern chip, 根 and 天胡/地胡) is
   scored again under the other rules, so 自摸加番 or a changed pattern value reaches it; a hand entered
   by its tiles is scored by the engine anyway; a fan typed by hand (the API's ``fan`` without a note)
   stays what was typed, since nothing says how it was reached;
3. ``settle_round`` under the other rules; a hand the engine refuses under them (a fourth winner where
   the first win ends the hand, say) is reported with the engine's words and counts as played.

Each player's net is summed by person (a player id), so a month of sessions with changing seats adds up.
The hands that caused most of the difference are those whose nets moved most (the sum of each seat's
change), largest first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from calculator.engine import EngineError, Rules
from settlement.engine import EventKind, settle_round

from .entry.events import notes_of, win_situation


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand as recorded: where it was played, who sat where, and what was entered."""

    key: tuple[int, int]  # (session id, hand number): unique over a month
    label: str
    players: tuple[int, ...]  # the player id in each seat
    names: tuple[str, ...]
    dealer: int
    void_suits: Any
    events: tuple[Mapping[str, Any], ...]
    notes: tuple[str, ...]
    net: tuple[int, ...]  # as the ledger settled it
    played_rules: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ReplayedHand:
    hand: PlayedHand
    result: Mapping[str, Any] | None  # the settle response under the other rules; None when refused
    refusal: str = ""

    @property
    def net(self) -> tuple[int, ...]:
        return tuple(self.result["net"]) if self.result is not None else self.hand.net

    @property
    def change(self) -> tuple[int, ...]:
        return tuple(new - old for new, old in zip(self.net, self.hand.net, strict=True))

    @property
    def moved(self) -> int:
        return sum(abs(change) for change in self.change)


@dataclass(frozen=True, slots=True)
class PlayerWhatIf:
    player_id: int
    name: str
    played: int
    other: int

    @property
    def difference(self) -> int:
        return self.other - self.played


@dataclass(frozen=True, slots=True)
class WhatIf:
    players: tuple[PlayerWhatIf, ...]
    hands: tuple[ReplayedHand, ...] = field(repr=False)
    biggest: tuple[ReplayedHand, ...]  # the hands that moved most, largest first (those that moved)
    refused: tuple[ReplayedHand, ...]


def _fan(entry: Any, rules: Rules, situation: int) -> int:
    return int(entry.scored(rules, situation)[2])


def events_under(events: Sequence[Mapping[str, Any]], notes: Sequence[str], rules: Rules) -> list[Any]:
    """The hand's events with each quick-picker fan scored again under ``rules`` (step 2)."""
    replayed: list[Any] = []
    for index, event in enumerate(events):
        entries = notes_of(notes[index] if index < len(notes) else "")
        if not entries:
            replayed.append(event)
            continue
        if event.get("type") == EventKind.WIN:
            situation = win_situation(event)
            winners = [
                {**winner, "fan": _fan(entries[winner["player"]], rules, situation)}
                if "fan" in winner and winner.get("player") in entries
                else winner
                for winner in event.get("winners", ())
            ]
            replayed.append({**event, "winners": winners})
        else:
            players = [
                {**player, "fan": _fan(entries[player["player"]], rules, 0)}
                if player.get("status") == "ready" and player.get("fan") and player.get("player") in entries
                else player
                for player in event.get("players", ())
            ]
            replayed.append({**event, "players": players} if "players" in event else event)
    return replayed


def replay_hand(hand: PlayedHand, rules: Rules) -> ReplayedHand:
    try:
        result = settle_round(
            dealer=hand.dealer,
            events=events_under(hand.events, hand.notes, rules),
            rules=rules,
            void_suits=hand.void_suits,
        ).to_dict()
    except EngineError as error:
        return ReplayedHand(hand, None, str(error))
    return ReplayedHand(hand, result)


def what_if(hands: Sequence[PlayedHand], rules_of: Any, *, biggest: int = 5) -> WhatIf:
    """Every hand replayed under ``rules_of(hand)`` (the other rules, which may build on each session's
    own), each player's net under both, and the hands that moved most."""
    replayed = tuple(replay_hand(hand, rules_of(hand)) for hand in hands)
    played: dict[int, int] = {}
    other: dict[int, int] = {}
    names: dict[int, str] = {}
    for hand in replayed:
        for seat, player in enumerate(hand.hand.players):
            names.setdefault(player, hand.hand.names[seat])
            played[player] = played.get(player, 0) + hand.hand.net[seat]
            other[player] = other.get(player, 0) + hand.net[seat]
    moved = sorted((hand for hand in replayed if hand.moved), key=lambda hand: -hand.moved)
    return WhatIf(
        players=tuple(PlayerWhatIf(player, names[player], played[player], other[player]) for player in names),
        hands=replayed,
        biggest=tuple(moved[:biggest]),
        refused=tuple(hand for hand in replayed if hand.result is None),
    )
