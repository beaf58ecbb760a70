"""Home: my groups, each with its open sessions and running totals, tonight's session one tap away.

A new account has no group yet: home then walks it through its first one (a name, then the start page,
where the four names typed become the group's players), instead of showing an empty list.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from calculator.engine import EngineError
from web.htmx import SignedInRequest

from .. import selectors, services
from ..models import SessionStatus
from .refusals import refusal_message


class GroupForm(forms.Form):
    name = forms.CharField(
        label=_("Group name"),
        max_length=100,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. Friday mahjong"), "autocomplete": "off"}),
    )


@login_required
@require_http_methods(["GET", "HEAD"])
def home(request: SignedInRequest) -> HttpResponse:
    return _home(request, None, status=200)


def _home(request: SignedInRequest, form: GroupForm | None, *, status: int) -> HttpResponse:
    mine = selectors.home_groups(request.user)
    if form is None:
        # A first group is named for its creator until he names it: one tap on to the start page.
        first = {"name": _("%(name)s's table") % {"name": request.user.get_username()}}
        form = GroupForm(initial={} if mine.cards else first)
    context = {"cards": mine.cards, "other_groups": mine.others, "group_form": form}
    return render(request, "ledger/home/home.html", context, status=status)


@login_required
@require_POST
def group_create(request: SignedInRequest) -> HttpResponse:
    """A new group, owned by its creator; then straight on to naming its four players and starting."""
    form = GroupForm(request.POST)
    if form.is_valid():
        try:
            group = services.group_create(actor=request.user, name=form.cleaned_data["name"])
        except EngineError as error:
            form.add_error("name", refusal_message(error))
        else:
            return redirect("session-start", group_id=group.pk)
    return _home(request, form, status=400)


@require_http_methods(["GET", "HEAD"])
def app_start(request: HttpRequest) -> HttpResponse:
    """Where the installed app opens (the manifest's start_url): tonight's open session when a group of
    mine started one today, else home; the calculator for a phone nobody is logged in on."""
    if not request.user.is_authenticated:
        return redirect("calculator-page")
    tonight = (
        selectors.sessions_for(request.user)
        .filter(status=SessionStatus.OPEN, created__date=timezone.localdate())
        .order_by("-created")
        .first()
    )
    return redirect("session-page", tonight.pk) if tonight is not None else redirect("home")


urlpatterns = [
    path("app/", app_start, name="app-start"),
    path("home/", home, name="home"),
    path("groups/new/", group_create, name="group-create"),
]
