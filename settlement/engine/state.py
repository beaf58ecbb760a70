"""The values a round is replayed with: transfers, kong payment records and the immutable round state.

Every event handler takes a ``RoundState`` and returns the transfers it causes plus a new ``RoundState``;
nothing here is ever mutated, so a page can settle the same events again and get the same answer.

Throughout the engine a tuple is built as ``tuple([... for ...])``, not from a generator expression: a list
comprehension runs inline (PEP 709), a generator needs its own frame, about 0.3 µs more each time.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from calculator.engine import Rules

if TYPE_CHECKING:
    from .summaries import EventSummary

SEATS = (0, 1, 2, 3)
HOUSE = "house"  # the payee of a burned escape penalty


class Reason(enum.StrEnum):
    """Why points moved; the API's ``reason`` values."""

    WIN = "win"
    SELF_DRAW_BONUS = "self_draw_bonus"
    DIRECT_KONG = "direct_kong"
    ADDED_KONG = "added_kong"
    CONCEALED_KONG = "concealed_kong"
    KONG_TRANSFER = "kong_transfer"
    HUAZHU = "huazhu"
    CHAJIAO = "chajiao"
    KONG_REFUND = "kong_refund"
    ESCAPE = "escape"
    WIN_FORFEIT = "win_forfeit"
    ADJUST = "adjust"


class PaymentState(enum.StrEnum):
    """What became of one payer's kong payment (RULES.md 4.4)."""

    PAID = "paid"
    TRANSFERRED = "transferred"
    REFUNDED = "refunded"


class Transfer(NamedTuple):
    """Points one seat pays another (or the house) because of one event. ``payee`` None is the house.

    A NamedTuple, as immutable as a frozen dataclass and read the same way (by field): a round makes one
    per payment, and a frozen dataclass's ``__init__`` (each field set through ``object.__setattr__``)
    cost about 12,800 instructions each, a NamedTuple about 4,000 (counted as ``bench/instructions.py``
    counts; the bench round makes 19).
    """

    event: int
    payer: int
    payee: int | None
    points: int
    reason: Reason
    detail: Mapping[str, Any] = MappingProxyType({})

    def to_dict(self) -> dict[str, Any]:
        body = {
            "event": self.event,
            "from": self.payer,
            "to": HOUSE if self.payee is None else self.payee,
            "points": self.points,
            "reason": self.reason.value,
            "detail": dict(self.detail),
        }
        if self.reason is Reason.ADJUST:
            body["note"] = self.detail["note"]  # API.md: an adjustment's reason text, as ``note``
        return body


class KongPayment(NamedTuple):
    """One payer's share of one kong: kept apart so 呼叫转移 and 退税 find exactly who paid what.

    A NamedTuple, as immutable as a frozen dataclass: a round makes one per payer of every kong, and a
    frozen dataclass's ``__init__`` (each field set through ``object.__setattr__``) cost about 10,000
    instructions each, a NamedTuple about 3,500 (counted as ``bench/instructions.py`` counts).
    """

    kong: int  # the index of the kong event
    maker: int
    payer: int
    points: int
    state: PaymentState = PaymentState.PAID

    def to_dict(self) -> dict[str, Any]:
        return {
            "kong": self.kong,
            "maker": self.maker,
            "payer": self.payer,
            "points": self.points,
            "state": self.state.value,
        }


class KongMade(NamedTuple):
    """The kong event just before the current one: what ``after_kong`` refers to."""

    kong: int  # the index of the kong event
    maker: int
    direct: bool
    feeder: int | None


class FirstWin(NamedTuple):
    """The round's first win event, which decides the next dealer (RULES.md 9)."""

    discarder: int | None  # None: a self-draw
    winners: tuple[int, ...]


class Table(NamedTuple):
    """What stays fixed through a round: the rules, the dealer and the void suits that count."""

    rules: Rules
    dealer: int
    void_suits: tuple[str | None, ...]  # all None when 定缺 is off: then void suits play no part


class RoundState(NamedTuple):
    """Everything the next event needs to know about the round so far.

    A NamedTuple, as immutable as a frozen dataclass and read the same way: a round makes one per event
    and one to start, and a frozen dataclass's ``__init__`` set its eleven fields through
    ``object.__setattr__`` (about 1.3 µs a state; this one is built in about 0.3 µs).
    """

    dealer: int
    winners_play_on: bool = False  # 血流成河 (RULES.md 7.1): a win takes nobody out of play
    winners: tuple[int, ...] = ()  # in the order they won; under 血流成河 a seat may repeat
    escaped: tuple[int, ...] = ()
    kong_payments: tuple[KongPayment, ...] = ()
    win_receipts: tuple[Transfer, ...] = ()  # what each winner was paid for his win (escaped_winner=forfeit)
    previous_kong: KongMade | None = None
    any_kong: bool = False
    last_tile_won: bool = False
    first_win: FirstWin | None = None
    finished: bool = False

    def is_active(self, seat: int) -> bool:
        """Has not won and has not escaped."""
        return seat not in self.winners and seat not in self.escaped

    @property
    def active(self) -> tuple[int, ...]:
        """Has not won and has not escaped: the players the checks at the end are among (RULES.md 5, 7.1)."""
        return _active_seats(self.winners, self.escaped)

    @property
    def in_play(self) -> tuple[int, ...]:
        """Who pays and may act: the active players, or under 血流成河 everyone who has not escaped."""
        return _active_seats((), self.escaped) if self.winners_play_on else self.active

    def can_act(self, seat: int) -> bool:
        return seat not in self.escaped and (self.winners_play_on or seat not in self.winners)

    def kong_income(self, maker: int, kong: int | None = None) -> tuple[KongPayment, ...]:
        """The kong payments ``maker`` still holds, of one kong or of all his kongs."""
        return tuple(
            [
                payment
                for payment in self.kong_payments
                if payment.maker == maker
                and payment.state is PaymentState.PAID
                and (kong is None or payment.kong == kong)
            ]
        )

    def with_payments_marked(self, marked: tuple[KongPayment, ...], state: PaymentState) -> RoundState:
        """The same round with the given kong payments (records of this state) moved to ``state``."""
        if not marked:
            return self
        chosen = {id(payment) for payment in marked}  # records taken from this state: identity suffices
        return self.but_payments(
            tuple(
                [
                    KongPayment(payment.kong, payment.maker, payment.payer, payment.points, state)
                    if id(payment) in chosen
                    else payment
                    for payment in self.kong_payments
                ]
            )
        )

    # The next states: each names a step of the round and makes it with the NamedTuple's ``_replace`` (the
    # frequent win whole, see there). Called directly: a wrapper taking ``**changes`` cost a third more than
    # the replace itself (its keywords packed into a dict and unpacked again, every event).

    def but_payments(self, kong_payments: tuple[KongPayment, ...]) -> RoundState:
        """The same round with these kong payment records."""
        return self._replace(kong_payments=kong_payments)

    def after_kong(self, payments: tuple[KongPayment, ...], made: KongMade) -> RoundState:
        """The round after the kong ``made``, whose payers paid ``payments``."""
        return self._replace(kong_payments=self.kong_payments + payments, previous_kong=made, any_kong=True)

    def after_win(
        self,
        won: tuple[int, ...],
        receipts: tuple[Transfer, ...],
        *,
        last_tile: bool,
        first_win: FirstWin,
        finished: bool,
    ) -> RoundState:
        """The round after a win event: ``won`` (out of play unless winners play on), paid ``receipts``."""
        # Made whole, in field order, not by ``_replace``: nearly every event of a replayed round is a win,
        # and ``_replace`` (its changes packed into a dict, then a pop for each of the eleven fields) cost
        # about 15,000 instructions a win against 5,600.
        return RoundState(
            self.dealer,
            self.winners_play_on,
            self.winners + won,
            self.escaped,
            self.kong_payments,
            self.win_receipts + receipts,
            None,  # previous_kong: a kong before the win no longer comes just before the next event
            self.any_kong,
            last_tile,  # last_tile_won
            first_win,
            finished,
        )

    def after_escape(self, player: int, *, finished: bool) -> RoundState:
        """The round after ``player`` escaped (and, near the end of the wall, was settled as at a draw)."""
        return self._replace(escaped=(*self.escaped, player), previous_kong=None, finished=finished)

    def ended(self) -> RoundState:
        """The round closed by a 流局 (or, a round of adjustments only, as soon as it is entered)."""
        return self._replace(previous_kong=None, finished=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "active": list(self.active),
            "winners": list(self.winners),
            "escaped": list(self.escaped),
            "finished": self.finished,
            "kong_payments": [payment.to_dict() for payment in self.kong_payments],
        }


@cache
def _active_seats(winners: tuple[int, ...], escaped: tuple[int, ...]) -> tuple[int, ...]:
    """The seats still in play: asked for many times per event, and the same few answers every round."""
    return tuple([seat for seat in SEATS if seat not in winners and seat not in escaped])


class EventOutcome(NamedTuple):
    """What one event did: its transfers, the state after it, and its entry in the result's ``events``.

    This and the other records that never leave the engine (``KongMade``, ``FirstWin``, ``Table``,
    ``Shares``, ``WinScore``, ``Readiness``) are NamedTuples: as immutable as a frozen dataclass but built
    in C, while a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` (about
    0.1 µs a field).
    """

    transfers: tuple[Transfer, ...]
    state: RoundState
    summary: EventSummary
