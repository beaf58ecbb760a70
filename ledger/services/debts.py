"""Marking a settle-up's transfer paid, in full or in part, and undoing a mark (ledger/debts.py has the
model: what is owed is derived, a mark is a fact).

Who may mark (docs/ledger.md, "Debts that carry over"): an owner or a scorekeeper of the group who is the
payer or the payee, or who marks for a pair one of whose players has no account (a friend who never
signed up can still be paid). Viewers never mark. A mark is undone by a reversal, by whoever made it; one
whose maker has no account here (it came in a group file, or the account is gone) by an owner of the group.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction

from .. import debts
from ..errors import Forbidden, LedgerError, PaymentUndoneError
from ..models import WRITER_ROLES, PaymentMark, Player, Role, Session
from ..selectors import role_in
from .checks import MAX_ID, _is_whole
from .sessions import _locked


@transaction.atomic
def payment_mark(
    *, actor: User, session: Session, payer_id: object, payee_id: object, amount: object
) -> PaymentMark:
    """Record that ``payer_id`` paid ``payee_id`` ``amount`` toward ``session``: all of what is left
    between them or a part. Paying back a surplus after a correction is the same mark, read the other way.

    1. the actor's role (a viewer is refused), then the session locked, so two phones marking the same
       transfer at once cannot both pay it;
    2. the pair must have money left to pass in that direction, and the amount be 1 to what is left;
    3. the actor must be one of the two, or mark for one who has no account.
    """
    role = role_in(user=actor, group=session.group)
    if role not in WRITER_ROLES:
        raise Forbidden("role_forbids")
    for value, field in ((payer_id, "from_player"), (payee_id, "to_player")):
        if not _is_whole(value, 1, MAX_ID):
            raise LedgerError("not_a_player_id", field=field, value=value)
    locked = _locked(session)
    due = _due(locked, payer_id, payee_id)
    if not _is_whole(amount, 1, due.left):
        raise LedgerError("payment_amount", field="amount", left=due.left)
    pair = Player.objects.filter(pk__in=(due.payer.player_id, due.payee.player_id))
    if not may_mark(actor=actor, role=role, accounts=pair.values_list("user_id", flat=True)):
        raise Forbidden("payment_not_yours")
    debts.moved(locked.group_id)
    return PaymentMark.objects.create(
        session=locked,
        payer_id=due.payer.player_id,
        payee_id=due.payee.player_id,
        amount=amount,
        marked_by=actor,
        marked_by_name=actor.get_username(),
    )


def _due(session: Session, payer_id: object, payee_id: object) -> debts.PairDebt:
    """The pair's account read from ``payer_id`` to ``payee_id``, when that way money is still to pass."""
    for debt in debts.session_debts(session):
        if debt.left > 0 and (debt.payer.player_id, debt.payee.player_id) == (payer_id, payee_id):
            return debt
        if debt.left < 0 and (debt.payee.player_id, debt.payer.player_id) == (payer_id, payee_id):
            return debts.PairDebt(debt.session_id, debt.payee, debt.payer, 0, debt.left, debt.unit)
    raise LedgerError("payment_nothing_due", field="to_player")


def may_mark(*, actor: User, role: str | None, accounts: Iterable[int | None]) -> bool:
    """The rule of this module's docstring: ``actor``, of ``role`` in the group, may mark a payment
    between two players whose account ids (None: no account) are ``accounts``."""
    return role in WRITER_ROLES and any(account in (actor.pk, None) for account in accounts)


def may_undo(*, actor: User, role: str | None, mark: PaymentMark) -> bool:
    """Whether ``actor``, of ``role`` in the group, may undo ``mark`` (this module's docstring): its maker;
    or, when no account of this server made it, an owner, who stands in for a maker nobody here can be (the
    reversal names him and the time, as every mark does). A standing mark only: not a reversal."""
    if role not in WRITER_ROLES or mark.reverses_id is not None:
        return False
    if mark.marked_by_id is None:
        return role == Role.OWNER
    return mark.marked_by_id == actor.pk


@transaction.atomic
def payment_undo(*, actor: User, mark: PaymentMark) -> PaymentMark:
    """Cancel ``mark`` by appending its reversal, once; ``may_undo`` says who may."""
    role = role_in(user=actor, group=mark.session.group)
    if role not in WRITER_ROLES:
        raise Forbidden("role_forbids")
    _locked(mark.session)
    if mark.reverses_id is None and not may_undo(actor=actor, role=role, mark=mark):
        raise Forbidden("payment_not_your_mark")
    if mark.reverses_id is not None:
        raise LedgerError("payment_undo_a_reversal", field="mark")
    if PaymentMark.objects.filter(reverses=mark).exists():
        raise PaymentUndoneError
    debts.moved(mark.session.group_id)
    return PaymentMark.objects.create(
        session=mark.session,
        payer=mark.payer,
        payee=mark.payee,
        amount=-mark.amount,
        marked_by=actor,
        marked_by_name=actor.get_username(),
        reverses=mark,  # one-to-one: the database refuses a second reversal should the lock not hold
    )
