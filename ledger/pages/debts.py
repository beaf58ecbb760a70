"""Debts on the pages: each transfer of 结算 with what was paid toward it and the form to mark a payment,
the marks with 撤销 for their maker, what earlier sessions leave unpaid (shown apart, and included in the
copied summary on request), a correction's difference, and the group page's 谁还欠谁.

The model and the rule of who may mark are ``ledger/debts.py`` and ``services/debts.py``'s (docs/ledger.md,
"Debts that carry over"); this module words them and posts the marks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from web.htmx import SignedInRequest

from .. import debts, selectors, services
from ..models import Group, PaymentMark, Player, Session
from .refusals import REFUSALS, refusal_message


@dataclass(frozen=True, slots=True)
class DebtRow:
    """One pair's account as the page shows it, with the payment its form proposes (if any)."""

    debt: debts.PairDebt
    session_name: str
    amount: int  # the transfer tonight; for a carried debt, what is left of it
    status: str
    form: PaymentForm | None


@dataclass(frozen=True, slots=True)
class PaymentForm:
    session_id: int
    from_player: int
    to_player: int
    amount: int
    button: str


def status_words(debt: debts.PairDebt) -> str:
    """The pair's account in a few words (step 3 of ledger/debts.py: a negative remainder is returned)."""
    if debt.left == 0:
        return _("Paid in full") if debt.paid else ""
    if debt.left < 0:
        return _("%(payee)s returns %(n)s") % {"payee": debt.payee.name, "n": -debt.left}
    if debt.paid:
        return _("Paid %(paid)s, %(left)s left") % {"paid": debt.paid, "left": debt.left}
    return ""


def _form(debt: debts.PairDebt, may_mark: bool) -> PaymentForm | None:
    """What this pair's form proposes: the rest of the debt, or the surplus to return."""
    if not may_mark or debt.left == 0:
        return None
    if debt.left > 0:
        return PaymentForm(
            debt.session_id, debt.payer.player_id, debt.payee.player_id, debt.left, _("Mark paid")
        )
    return PaymentForm(
        debt.session_id, debt.payee.player_id, debt.payer.player_id, -debt.left, _("Mark returned")
    )


def debt_rows(
    actor: User,
    role: str | None,
    pairs: Iterable[debts.PairDebt],
    *,
    accounts: Mapping[int, int | None],
    session_names: Mapping[int, str],
    carried: bool = False,
) -> tuple[DebtRow, ...]:
    """``pairs`` as rows; ``accounts`` is each player's account id (None without one)."""
    return tuple(
        DebtRow(
            debt=debt,
            session_name=session_names.get(debt.session_id, "") if carried else "",
            amount=abs(debt.left) if carried else debt.asked,
            status=status_words(debt),
            form=_form(
                debt,
                services.may_mark(
                    actor=actor,
                    role=role,
                    accounts=(accounts.get(debt.payer.player_id), accounts.get(debt.payee.player_id)),
                ),
            ),
        )
        for debt in pairs
    )


def player_accounts(group: Group) -> dict[int, int | None]:
    return dict(Player.objects.filter(group=group).values_list("id", "user_id"))


@dataclass(frozen=True, slots=True)
class SettleDebts:
    context: dict[str, object]  # what the template shows
    summary_lines: list[str]  # what the copied summary adds: the carried debts, when included


def settle_context(request: SignedInRequest, session: Session, role: str | None) -> SettleDebts:
    """What 结算 shows of debts: tonight's accounts, the carried ones, the marks, a correction's note."""
    accounts = player_accounts(session.group)
    pairs, carried = debts.tonight_and_carried(session)
    earlier = Session.objects.filter(pk__in={debt.session_id for debt in carried})
    names = {shown.pk: shown.title for shown in (session, *earlier)}
    including = request.GET.get("carried") == "1" and bool(carried)
    carried_rows = debt_rows(
        request.user, role, carried, accounts=accounts, session_names=names, carried=True
    )
    all_told = debts.still_owed((*pairs, *carried)) if including else ()
    marks = list(debts.session_marks(session))
    context = {
        "debt_rows": debt_rows(request.user, role, pairs, accounts=accounts, session_names=names),
        "carried_rows": carried_rows,
        "all_told": all_told,
        "including_carried": including,
        "marks": [_mark_row(mark, request.user, role) for mark in marks],
        "corrected": debts.corrected_after_marks(session, marks) and any(debt.left for debt in pairs),
    }
    return SettleDebts(context, carried_lines(carried_rows, all_told))


@dataclass(frozen=True, slots=True)
class MarkRow:
    mark: PaymentMark
    undone: bool
    undoable: bool  # by this reader (services.may_undo), while it stands


def _mark_row(mark: PaymentMark, reader: User, role: str | None) -> MarkRow:
    undone = hasattr(mark, "reversed_by")
    return MarkRow(mark, undone, not undone and services.may_undo(actor=reader, role=role, mark=mark))


def carried_lines(rows: Sequence[DebtRow], all_told: Sequence[debts.Owing]) -> list[str]:
    """The copied summary's part for what is still owed: the carried debts, then the pairs all told."""
    if not all_told:
        return []
    lines = ["", _("Still owed from earlier sessions:")]
    lines += [
        f"{row.session_name}: {row.debt.payer.name} → {row.debt.payee.name} {row.debt.left}" for row in rows
    ]
    lines += ["", _("All told, with tonight:")]
    lines += [f"{owing.payer.name} → {owing.payee.name} {owing.amount}" for owing in all_told]
    return lines


def form_number(text: str | None) -> int | str | None:
    """A form's number as the service reads it: an int when it is one, else the text (refused by name)."""
    return int(text) if text is not None and text.strip().lstrip("-").isdigit() else text


def _back(request: SignedInRequest, session: Session) -> str:
    """Back to the 结算 a mark was made from (a carried debt is marked toward an earlier session)."""
    back = form_number(request.POST.get("back"))
    shown = (
        session if not isinstance(back, int) else selectors.session_get(user=request.user, session_id=back)
    )
    return reverse("session-settle", args=[shown.pk])


@login_required
@require_POST
def payment_mark_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    try:
        services.payment_mark(
            actor=request.user,
            session=session,
            payer_id=form_number(request.POST.get("from_player")),
            payee_id=form_number(request.POST.get("to_player")),
            amount=form_number(request.POST.get("amount")),
        )
    except REFUSALS as error:
        messages.error(request, refusal_message(error))
    else:
        messages.success(request, _("The payment is marked."))
    return HttpResponseRedirect(_back(request, session), status=303)


@login_required
@require_POST
def payment_undo_page(request: SignedInRequest, mark_id: int) -> HttpResponse:
    mark = debts.payment_mark_get(user=request.user, mark_id=mark_id)
    try:
        services.payment_undo(actor=request.user, mark=mark)
    except REFUSALS as error:
        messages.error(request, refusal_message(error))
    else:
        messages.success(request, _("The mark is undone."))
    return HttpResponseRedirect(reverse("session-settle", args=[mark.session_id]), status=303)


urlpatterns = [
    path("sessions/<ledger_id:session_id>/payments/", payment_mark_page, name="session-payment-mark"),
    path("payments/<ledger_id:mark_id>/undo/", payment_undo_page, name="payment-undo-page"),
]
