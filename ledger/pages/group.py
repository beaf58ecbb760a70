"""The group page: its sessions newest first with each player's net, the standings, the players (added by
name, inline), the members with their roles (the owner changes a role or removes a member) and, for
owners and scorekeepers, the invite links of its sessions that still work, with the way to make one
(each open session's 邀请 page: ledger/pages/invites.py, whose link cards this page shows), and the one-time
link an owner makes for a member who forgot their password (ledger/reset_links.py).

Every write is a service; a refusal (a taken name, the last owner stepping down) comes back as the page
with the message beside the form that caused it, and nothing stored.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

import ledger.urls  # noqa: F401  (registers the ledger_id converter: at most 18 digits, never an overflow)
from web.htmx import SignedInRequest

from .. import debts, selectors, services, statistics
from ..errors import Forbidden
from ..models import WRITER_ROLES, Group, Role
from ..reset_links import reset_link_expires
from .invites import link_rows
from .links import group_url
from .refusals import REFUSALS, refusal_message
from .words import ROLE_HINTS, ROLE_LABELS


class PlayerForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("New player"),
        max_length=50,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "placeholder": gettext_lazy("A name at the table")}
        ),
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=list(ROLE_LABELS.items()))


@login_required
@require_http_methods(["GET", "HEAD"])
def group_page(request: SignedInRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    return _page(request, group)


def _page(
    request: SignedInRequest, group: Group, *, status: int = 200, **forms_and_errors: Any
) -> HttpResponse:
    # Each of the group's players and members is read once: the members give the viewer's role, the
    # players' names serve the standings and 谁还欠谁 too.
    members = list(selectors.group_members(group))
    role = next((member.role for member in members if member.user_id == request.user.pk), None)
    players = list(selectors.group_players(group))
    names = {player.pk: player.name for player in players}
    can_write = role in WRITER_ROLES
    before = _before(request)
    sessions = selectors.group_session_lines(group, before=before)
    context = {
        "group": group,
        "role": role,
        "can_write": can_write,
        "is_owner": role == Role.OWNER,
        "sessions": sessions.lines,
        # A page of sessions at a time, newest first: the page costs the same at the thousandth evening.
        "older_url": None if sessions.older is None else f"?{urlencode({'before': sessions.older})}#sessions",
        "newest_url": None if before is None else f"{group_url(group)}#sessions",
        # Links grant access: viewers neither see nor make them (as on the session's 邀请 page).
        "invites": link_rows(request, selectors.group_invites(group), role=role) if can_write else [],
        "invite_sessions": list(selectors.group_open_sessions(group)) if can_write else [],
        "standings": statistics.group_standings(group, names=names),
        "still_owed": debts.group_still_owed(group, names=names),  # 谁还欠谁 (ledger/debts.py)
        "players": players,
        "members": members,
        "roles": [(value, label, ROLE_HINTS[value]) for value, label in ROLE_LABELS.items()],
        "player_form": PlayerForm(),
        **forms_and_errors,
    }
    return render(request, "ledger/group/group.html", context, status=status)


def _before(request: HttpRequest) -> int | None:
    """``?before=<session id>``: the older sessions' page; anything but a plain id reads as the first."""
    before = request.GET.get("before", "")
    return int(before) if before.isascii() and before.isdigit() and len(before) <= 18 else None


@login_required
@require_POST
def player_add(request: SignedInRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            player = services.player_add(actor=request.user, group=group, name=form.cleaned_data["name"])
        except Forbidden as error:
            return _page(request, group, status=400, alert=refusal_message(error))
        except REFUSALS as error:
            form.add_error("name", refusal_message(error))
        else:
            messages.success(request, _("%(name)s joins the players.") % {"name": player.name})
            return redirect(f"{group_url(group)}#players")
    return _page(request, group, status=400, player_form=form)


@login_required
@require_POST
def member_set_role(request: SignedInRequest, group_id: int, member_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    membership = selectors.member_get(group=group, member_id=member_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _page(request, group, status=400, member_error=(member_id, _("Choose one of the roles.")))
    try:
        services.member_set_role(actor=request.user, membership=membership, role=form.cleaned_data["role"])
    except REFUSALS as error:
        return _page(request, group, status=400, member_error=(member_id, refusal_message(error)))
    messages.success(
        request,
        _("%(name)s is now %(role)s.")
        % {"name": membership.user.get_username(), "role": ROLE_LABELS[membership.role]},
    )
    return redirect(f"{group_url(group)}#members")


@login_required
@require_POST
def member_remove(request: SignedInRequest, group_id: int, member_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    membership = selectors.member_get(group=group, member_id=member_id)
    try:
        services.member_remove(actor=request.user, membership=membership)
    except REFUSALS as error:
        return _page(request, group, status=400, member_error=(member_id, refusal_message(error)))
    name = membership.user.get_username()
    messages.success(request, _("%(name)s has left the group.") % {"name": name})
    if membership.user_id == request.user.pk:
        return redirect("home")  # the group is no longer one of mine
    return redirect(f"{group_url(group)}#members")


@login_required
@require_POST
@never_cache  # the link is the account until it is used: no cache keeps the page that shows it
def member_reset_link(request: SignedInRequest, group_id: int, member_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    membership = selectors.member_get(group=group, member_id=member_id)
    try:
        path_to_link = services.reset_link_make(actor=request.user, membership=membership)
    except REFUSALS as error:
        return _page(request, group, status=400, member_error=(member_id, refusal_message(error)))
    context = {
        "group": group,
        "member": membership,
        "link": request.build_absolute_uri(path_to_link),
        "expires": reset_link_expires(),
    }
    return render(request, "ledger/group/reset_link.html", context)


urlpatterns = [
    path("groups/<ledger_id:group_id>/", group_page, name="group-page"),
    path("groups/<ledger_id:group_id>/players/", player_add, name="group-player-add"),
    path(
        "groups/<ledger_id:group_id>/members/<ledger_id:member_id>/role/",
        member_set_role,
        name="group-member-role",
    ),
    path(
        "groups/<ledger_id:group_id>/members/<ledger_id:member_id>/remove/",
        member_remove,
        name="group-member-remove",
    ),
    path(
        "groups/<ledger_id:group_id>/members/<ledger_id:member_id>/reset-link/",
        member_reset_link,
        name="group-member-reset-link",
    ),
]
