"""Saving ``/round/``'s evening into a group (issue 8 flow 8): the table played without an account, then
someone logged in wants to keep it.

The evening lives in the Django session (``web.entry.evening.EveningStore``). Saving starts a session in
one of the user's groups with the evening's four names (a new name becomes a player) and rules, and records
every finished hand as a round and the hand being played as the session's hand in progress, in one
transaction: a refusal stores nothing. The evening is then forgotten by the browser, and the user is taken
to the new session, where the hand continues.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from web.entry.evening import EveningStore
from web.entry.store import Hand

from .. import selectors, services
from ..models import WRITER_ROLES, Session
from .links import session_url
from .refusals import REFUSALS, refusal_message

SAVED_KEY = "sczmj.evening.saved"  # the session the browser's last evening became, for a second tap


class EveningForm(forms.Form):
    group = forms.TypedChoiceField(label=_("Group"), coerce=int)
    name = forms.CharField(label=_("Session name"), max_length=100)

    def __init__(self, *args: Any, groups: list[tuple[int, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["group"].choices = groups


def _writable_groups(request: HttpRequest) -> list[tuple[int, str]]:
    return [
        (group.pk, group.name)
        for group in selectors.groups_with_role(request.user)
        if group.role in WRITER_ROLES
    ]


def _save(request: HttpRequest, store: EveningStore, group_id: int, name: str) -> Session:
    """The evening as a session of the group: its players, rules and finished hands, all or nothing."""
    group = selectors.group_get(user=request.user, group_id=group_id)
    hand = store.load()
    with transaction.atomic():
        session = services.session_start_by_names(
            actor=request.user, group=group, name=name, player_names=list(hand.names), rules=dict(hand.rules)
        )
        for finished in store.finished_hands():
            body = {
                "dealer": finished.dealer,
                "void_suits": list(finished.void_suits),
                "events": list(finished.events),
            }
            services.round_record(actor=request.user, session=session, body=body)
        _continue_hand(request, session, hand)
    return session


def _continue_hand(request: HttpRequest, session: Session, hand: Hand) -> None:
    """The hand being played becomes the session's hand in progress, event by event, with its dealer."""
    revision = services.hand_setup(
        actor=request.user,
        session=session,
        revision=selectors.session_hand_revision(session),
        dealer=hand.dealer,
        void_suits=list(hand.void_suits),
    ).hand.revision
    for event, note in zip(hand.events, hand.notes, strict=True):
        revision = services.hand_event_add(
            actor=request.user, session=session, event=event, note=note or None, revision=revision
        ).hand.revision


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def evening_save(request: HttpRequest) -> HttpResponse:
    store = EveningStore(request.session)
    saved = request.session.get(SAVED_KEY)
    if not store.finished_hands() and not store.load().events and saved:
        # A second tap (or Back and again): the evening is already the session it became.
        return redirect(session_url(Session.objects.get(pk=saved)))
    groups = _writable_groups(request)
    default_name = timezone.localdate().isoformat()
    form = EveningForm(request.POST or None, groups=groups, initial={"name": default_name})
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
