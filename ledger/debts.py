"""Debts that carry over: what each settle-up asks, what was marked paid, and what is still owed.

The model (docs/ledger.md, "Debts that carry over"):

1. What a session asks is derived, never stored: its settle-up (``selectors.money_settle_up``: the fewest
   transfers of its nets, in coins when it plays for coins), read player to player. A transfer to the
   house is nobody's debt to a person and is left out.
2. A mark (``models.PaymentMark``) is a fact: this much passed from one player to another toward that
   session, said by one of them. Its reversal cancels it.
3. What is still owed is per session and per pair of players: the transfers between the two minus the
   payments between them, each netted over both directions. A correction changes (1) and never (2): a
   pair asked more than it paid has the difference to pay, one that paid more than it is now asked has
   the surplus to return, and a pair the new transfers no longer name has its payments to return.
4. Across sessions (the group page, the carried debts of the next settle-up) a pair's remainders are
   netted again, per unit: points and coins are never added together.

Reads only; the writes are ``services.payment_mark`` and ``services.payment_undo``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Max, Min, QuerySet
from django.shortcuts import get_object_or_404

from .models import Group, PaymentMark, RoundVersion, Session
from .selectors import SessionTotals, money_settle_up, sessions_for, sessions_totals

POINTS, COINS = "points", "coins"


@dataclass(frozen=True, slots=True)
class Party:
    player_id: int
    name: str


@dataclass(frozen=True, slots=True)
class PairDebt:
    """One pair's account in one session, read from ``payer`` to ``payee``: asked, paid, and what is left
    (negative: ``payee`` has that much to return)."""

    session_id: int
    payer: Party
    payee: Party
    asked: int
    paid: int
    unit: str

    @property
    def left(self) -> int:
        return self.asked - self.paid


@dataclass(frozen=True, slots=True)
class Owing:
    """Across sessions: ``payer`` still owes ``payee`` ``amount`` (always positive) in ``unit``."""

    payer: Party
    payee: Party
    amount: int
    unit: str


def unit_of(session: Session) -> str:
    return COINS if session.coins_enabled else POINTS


def session_debts(session: Session) -> tuple[PairDebt, ...]:
    """Each pair's account in ``session``: the pairs its transfers name, then any its marks alone name."""
    return sessions_debts([session]).get(session.pk, ())


def sessions_debts(sessions: Sequence[Session]) -> dict[int, tuple[PairDebt, ...]]:
    """``session_debts`` of many sessions at once: the totals' four queries and one of marks."""
    totals = sessions_totals(sessions)
    marks = _marks_by_session([session.pk for session in sessions])
    return {
        session.pk: _pair_debts(session, totals[session.pk], marks.get(session.pk, ()))
        for session in sessions
    }


def _marks_by_session(session_ids: list[int]) -> dict[int, list[PaymentMark]]:
    found: dict[int, list[PaymentMark]] = defaultdict(list)
    for mark in PaymentMark.objects.filter(session_id__in=session_ids).select_related("payer", "payee"):
        found[mark.session_id].append(mark)
    return found


def _pair_debts(
    session: Session, totals: SessionTotals, marks: Iterable[PaymentMark]
) -> tuple[PairDebt, ...]:
    """Steps 1 to 3 of the module's model for one session."""
    # the settle-up's places are everyone who played, substitutes and those who left included
    by_place = [Party(person.player_id, person.player_name) for person in totals.players]
    asked: dict[tuple[Party, Party], int] = {}
    for payment in money_settle_up(session, totals)["payments"]:
        if payment["to"] != "house":
            _add(asked, by_place[payment["from"]], by_place[payment["to"]], payment["amount"])
    paid: dict[tuple[Party, Party], int] = {}
    for mark in marks:
        _add(paid, Party(mark.payer_id, mark.payer.name), Party(mark.payee_id, mark.payee.name), mark.amount)
    pairs = [*asked, *(pair for pair in paid if pair not in asked)]
    return tuple(
        _oriented(session, first, second, asked.get((first, second), 0), paid.get((first, second), 0))
        for first, second in pairs
    )


def _add(book: dict[tuple[Party, Party], int], payer: Party, payee: Party, amount: int) -> None:
    """Book ``amount`` from ``payer`` to ``payee`` under the pair's one key (the lower id first)."""
    if payer.player_id < payee.player_id:
        book[payer, payee] = book.get((payer, payee), 0) + amount
    else:
        book[payee, payer] = book.get((payee, payer), 0) - amount


def _oriented(session: Session, first: Party, second: Party, asked: int, paid: int) -> PairDebt:
    """Read the pair from whoever is asked to pay (or, asked nothing, from whoever paid)."""
    if asked < 0 or (asked == 0 and paid < 0):
        return PairDebt(session.pk, second, first, -asked, -paid, unit_of(session))
    return PairDebt(session.pk, first, second, asked, paid, unit_of(session))


def group_sessions_oldest_first(group: Group) -> QuerySet[Session]:
    return Session.objects.filter(group=group).select_related("group").order_by("created", "id")


def still_owed(debts: Iterable[PairDebt]) -> tuple[Owing, ...]:
    """Step 4: the remainders netted per pair and unit; the pairs that come out square are left out."""
    net: dict[tuple[int, int, str], int] = defaultdict(int)
    parties: dict[int, Party] = {}
    for debt in debts:
        parties[debt.payer.player_id], parties[debt.payee.player_id] = debt.payer, debt.payee
        low, high = sorted((debt.payer.player_id, debt.payee.player_id))
        net[low, high, debt.unit] += debt.left if debt.payer.player_id == low else -debt.left
    owings = [
        Owing(parties[low], parties[high], amount, unit)
        if amount > 0
        else Owing(parties[high], parties[low], -amount, unit)
        for (low, high, unit), amount in net.items()
        if amount
    ]
    return tuple(sorted(owings, key=lambda owing: (owing.unit, -owing.amount, owing.payer.name)))


def group_debts(group: Group) -> tuple[PairDebt, ...]:
    """Every session's pair accounts, oldest session first."""
    sessions = list(group_sessions_oldest_first(group))
    debts = sessions_debts(sessions)
    return tuple(debt for session in sessions for debt in debts[session.pk])


def group_still_owed(group: Group) -> tuple[Owing, ...]:
    """谁还欠谁: what each pair of the group still owes across all its sessions."""
    return still_owed(group_debts(group))


def tonight_and_carried(session: Session) -> tuple[tuple[PairDebt, ...], tuple[PairDebt, ...]]:
    """``session_debts`` of ``session``, and what the group's other sessions leave unpaid, oldest first
    (the carried part of this settle-up, shown apart from tonight's and marked against the session it
    comes from): one reading of the group's debts, which holds tonight's pairs too."""
    every = group_debts(session.group)
    tonight = tuple(debt for debt in every if debt.session_id == session.pk)
    return tonight, tuple(debt for debt in every if debt.session_id != session.pk and debt.left != 0)


def corrected_after_marks(session: Session) -> bool:
    """Whether a hand of ``session`` was corrected or voided after its first payment was marked: its
    transfers may then differ from what was paid, and the settle page says so (step 3)."""
    first_mark = PaymentMark.objects.filter(session=session).aggregate(first=Min("created"))["first"]
    if first_mark is None:
        return False
    latest = RoundVersion.objects.filter(round__session=session, version__gt=1).aggregate(last=Max("created"))
    return latest["last"] is not None and latest["last"] > first_mark


def session_marks(session: Session) -> QuerySet[PaymentMark]:
    """The session's marks and their reversals, newest first, with whether each is undone."""
    return (
        PaymentMark.objects.filter(session=session)
        .select_related("payer", "payee", "reversed_by")
        .order_by("-id")
    )


def payment_mark_get(*, user: User, mark_id: int) -> PaymentMark:
    """A mark of one of ``user``'s groups (404 for any other)."""
    marks = PaymentMark.objects.filter(session__in=sessions_for(user)).select_related("session__group")
    return get_object_or_404(marks, pk=mark_id)
