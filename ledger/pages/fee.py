"""The table fee (台费) on the pages: its words for 结算, the copied summary, the summary link and the
picture, and the form that sets it (``services.session_fee_set``; how it enters the transfers is
docs/ledger.md's "The table fee").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from settlement.engine import FeeSplit
from web.htmx import SignedInRequest

from .. import selectors, services
from .debts import form_number
from .refusals import REFUSALS, refusal_message

SPLIT_WORDS = {
    FeeSplit.AA.value: gettext_lazy("everyone alike (AA)"),
    FeeSplit.TOP_WINNER.value: gettext_lazy("the biggest winner"),
    FeeSplit.WINNERS.value: gettext_lazy("the winners, in proportion"),
}


def fee_line(fee: Mapping[str, Any] | None, names: Sequence[str]) -> str:
    """``台费 40 · 均摊（AA） · 小李垫付：小王 10 · 小李 10 · 阿美 10 · 老张 10``; empty without a fee."""
    if fee is None:
        return ""
    payer = (
        _("still to pay the room")
        if fee["paid_by_seat"] is None
        else _("paid by %(name)s") % {"name": names[fee["paid_by_seat"]]}
    )
    shares = " · ".join(f"{name} {share}" for name, share in zip(names, fee["shares"], strict=True) if share)
    heading = _("Table fee %(n)s") % {"n": fee["amount"]}
    return f"{heading} · {SPLIT_WORDS[fee['split']]} · {payer}: {shares}"


@login_required
@require_POST
def fee_set_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    paid_by = request.POST.get("paid_by") or None
    try:
        services.session_fee_set(
            actor=request.user,
            session=session,
            amount=form_number(request.POST.get("amount")),
            split=request.POST.get("split"),
            paid_by=form_number(paid_by),
        )
    except REFUSALS as error:
        messages.error(request, refusal_message(error))
    else:
        messages.success(request, _("The table fee is set: the transfers include it."))
    return HttpResponseRedirect(f"{reverse('session-settle', args=[session.pk])}#pay-title", status=303)


urlpatterns = [path("sessions/<ledger_id:session_id>/fee/", fee_set_page, name="session-fee-page")]
