"""Saving ``/round/``'s evening into a group (issue 8 flow 8): the table played without an account, then
someone logged in wants to keep it.

The evening lives in the Django session (``web.entry.evening.EveningStore``); the page hands its values to
``services.evening_keep``, which keeps it as a session of one of the user's groups, all or nothing. The
evening is then forgotten by the browser, and the user is taken to the new session, where the hand
continues.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from web.entry.evening import EveningStore
from web.htmx import SignedInRequest

from .. import selectors, services
from ..models import WRITER_ROLES, Session
from ..names import session_title
from .links import session_url
from .refusals import REFUSALS, refusal_message

SAVED_KEY = "sczmj.evening.saved"  # the session the browser's last evening became, for a second tap


class EveningForm(forms.Form):
    group = forms.TypedChoiceField(label=_("Group"), coerce=int)
    name = forms.CharField(label=_("Session name"), max_length=100, required=False)

    def __init__(self, *args: Any, groups: list[tuple[int, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["group"].choices = groups  # type: ignore[attr-defined]  # fields types it Field; a ChoiceField
        # Left blank, the session is named by its day in each reader's language (Session.title).
        self.fields["name"].widget.attrs["placeholder"] = session_title("", timezone.localdate(), 1)


def _writable_groups(request: SignedInRequest) -> list[tuple[int, str]]:
    return [
        (group.pk, group.name)
        for group in selectors.groups_with_role(request.user)
        if group.role in WRITER_ROLES
    ]


def _save(request: SignedInRequest, store: EveningStore, group_id: int, name: str) -> Session:
    """The evening as a session of the group: its players, rules and finished hands, all or nothing."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    hand = store.load()
    return services.evening_keep(
        actor=request.user,
        group=group,
        name=name,
        player_names=list(hand.names),
        rules=hand.rules,
        rounds=[
            {"dealer": done.dealer, "void_suits": list(done.void_suits), "events": list(done.events)}
            for done in store.finished_hands()
        ],
        hand=services.HandSoFar(
            dealer=hand.dealer, void_suits=hand.void_suits, events=hand.events, notes=hand.notes
        ),
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def evening_save(request: SignedInRequest) -> HttpResponse:
    store = EveningStore(request.session)
    saved = request.session.get(SAVED_KEY)
    if not store.finished_hands() and not store.load().events and saved:
        # A second tap (or Back and again): the evening is already the session it became.
        return redirect(session_url(Session.objects.get(pk=saved)))
    groups = _writable_groups(request)
    form = EveningForm(request.POST or None, groups=groups)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            session = _save(request, store, form.cleaned_data["group"], form.cleaned_data["name"])
        except REFUSALS as refusal:
            error = refusal_message(refusal)
        else:
            store.clear()
            request.session[SAVED_KEY] = session.pk
            return redirect(session_url(session))
    context = {
        "form": form,
        "groups": groups,
        "hand": store.load(),
        "hands": len(store.finished_hands()),
        "error": error,
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "ledger/evening/save.html", context, status=status)


urlpatterns = [path("round/save/", evening_save, name="evening-save")]
