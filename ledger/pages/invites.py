"""邀请: invite links to a session, the page a link opens, and invitations to a group.

- ``/sessions/<id>/invite/`` (owners and scorekeepers): make a viewer or scorekeeper link, see each
  link with a copy button and its QR code, revoke one. The group page shows the links of all its
  sessions that still work with the same cards (``link_rows``, ``templates/ledger/invites/_link.html``).
- ``/join/<token>/``: a viewer link shows the table live without an account; a scorekeeper link asks
  the visitor to log in or sign up and then, on his say-so (a POST), adds him to the group. A revoked or
  expired link says which (410); an unknown one is a 404.
- ``/invitations/``: the invitations to a group waiting for your answer (accept or decline).

Every write is a service; its refusal comes back as the page with the message, nothing stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from web.htmx import HtmxHttpRequest, SignedInRequest

from .. import selectors, services
from ..invite_links import invite_url, qr_svg
from ..models import WRITER_ROLES, Membership, Role, Session, SessionInvite
from .links import group_url
from .live import watch_page, watch_parts
from .refusals import REFUSALS, refusal_message

ROLE_WORDS = {
    Role.VIEWER: gettext_lazy("Viewer: watches the scores live, no account needed"),
    Role.SCOREKEEPER: gettext_lazy("Scorekeeper: joins the group and records hands"),
}
EXPIRY_CHOICES = (
    (6, gettext_lazy("6 hours")),
    (24, gettext_lazy("1 day")),
    (24 * 7, gettext_lazy("1 week")),
    (24 * 30, gettext_lazy("30 days")),
)


class InviteForm(forms.Form):
    role = forms.ChoiceField(choices=list(ROLE_WORDS.items()), initial=Role.VIEWER, widget=forms.RadioSelect)
    expires_in_hours = forms.TypedChoiceField(
        choices=EXPIRY_CHOICES, coerce=int, initial=24, label=gettext_lazy("Works for")
    )


def _can_invite(user: Any, session: Session) -> bool:
    return Membership.objects.filter(user=user, group=session.group, role__in=WRITER_ROLES).exists()


def link_rows(
    request: HttpRequest, invites: Iterable[SessionInvite], *, role: str | None
) -> list[dict[str, Any]]:
    """Each link as ``templates/ledger/invites/_link.html`` shows it: its address, its state, its QR code
    while it works, and whether this user may revoke it (an owner any link, a scorekeeper his own, as
    ``services.invite_revoke`` decides). ``role`` is the user's in the links' group."""
    now = timezone.now()
    rows = []
    for invite in invites:
        url = invite_url(request, invite)
        state = invite.state(now)
        rows.append(
            {
                "invite": invite,
                "url": url,
                "state": state,
                "qr": qr_svg(url, title=_("QR code of the link")) if state == "active" else "",
                "can_revoke": state == "active"
                and (
                    role == Role.OWNER or (role in WRITER_ROLES and invite.created_by_id == request.user.pk)
                ),
            }
        )
    return rows


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def invite_page(request: SignedInRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(user=request.user, session_id=session_id)
    if not _can_invite(request.user, session):
        return render(request, "ledger/invites/not_allowed.html", {"session": session}, status=403)
    form = InviteForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.invite_create(
                    actor=request.user,
                    session=session,
                    role=form.cleaned_data["role"],
                    expires_in_hours=form.cleaned_data["expires_in_hours"],
                )
            except REFUSALS as error:
                form.add_error(None, refusal_message(error))
            else:
                return redirect("session-invite", session_id=session.pk)
        status = 400
    role = selectors.role_in(user=request.user, group=session.group)
    links = link_rows(request, selectors.session_invites(session), role=role)
    context = {"session": session, "form": form, "links": links}
    return render(request, "ledger/invites/invite.html", context, status=status)


# Where a revoke goes back to: the page whose button it was (``back`` in the form), the session's 邀请 page
# unless it says the group page.
REVOKED_BACK: dict[str, Callable[[SessionInvite], str]] = {
    "session": lambda invite: reverse("session-invite", args=[invite.session_id]),
    "group": lambda invite: f"{group_url(invite.session.group)}#invites",
}


@login_required
@require_POST
def invite_revoke(request: SignedInRequest, invite_id: int) -> HttpResponse:
    invite = selectors.invite_get(user=request.user, invite_id=invite_id)
    services.invite_revoke(actor=request.user, invite=invite)  # refused only to a viewer, who sees no button
    back = REVOKED_BACK.get(request.POST.get("back", ""), REVOKED_BACK["session"])
    return redirect(back(invite))


@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HtmxHttpRequest, token: str, *, poll: bool = False) -> HttpResponse:
    try:
        invite = selectors.invite_by_token(token)
    except Http404:
        return render(request, "ledger/invites/gone.html", {"reason": "unknown"}, status=404)
    state = invite.state(timezone.now())
    if state != "active":
        return render(request, "ledger/invites/gone.html", {"reason": state, "invite": invite}, status=410)
    if invite.role == Role.VIEWER and poll:
        return watch_parts(request, invite.session, token=invite.token, ledger=request.GET.get("ledger", ""))
    if invite.role == Role.VIEWER:
        return watch_page(request, invite.session, token=invite.token)
    return _scorekeeper_join(request, invite)


def _scorekeeper_join(request: HttpRequest, invite: SessionInvite) -> HttpResponse:
    group = invite.session.group
    context: dict[str, Any] = {"invite": invite, "group": group, "session": invite.session}
    if not request.user.is_authenticated:
        context.update(_account_links(request))
        return render(request, "ledger/invites/join.html", context)
    membership = Membership.objects.filter(user=request.user, group=group).first()
    if request.method == "POST":
        try:
            membership = services.invite_join(actor=request.user, invite=invite)
        except REFUSALS as error:
            context["error"] = refusal_message(error)
            return render(request, "ledger/invites/join.html", context, status=400)
        context["joined"] = True
    context["membership"] = membership
    context["already_writer"] = membership is not None and membership.role in WRITER_ROLES
    return render(request, "ledger/invites/join.html", context)


def _account_links(request: HttpRequest) -> dict[str, str]:
    """Log-in and sign-up addresses that come back to this link afterwards."""
    back = urlencode({"next": request.get_full_path()})
    return {"login_url": f"{reverse('login')}?{back}", "signup_url": f"{reverse('sign-up')}?{back}"}


@login_required
@require_http_methods(["GET", "HEAD"])
def invitations_page(request: SignedInRequest) -> HttpResponse:
    invitations = selectors.invitations_for(request.user)
    return render(request, "ledger/invites/invitations.html", {"invitations": invitations})


@require_safe
def watch_poll(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The live board's poll, ``/join/<token>/live/?revision=N``. Idle, it costs one indexed query and
    renders nothing:

    1. one query joins the link (unique token, still active) to the session's hand (one row per session)
       and reads its ``revision``, which grows with every event, undo, and round recorded, corrected or
       voided (``selectors.invite_hand_revision``);
    2. the revision the client has: 204 No Content (htmx swaps nothing);
    3. another revision: the parts of the board that moved (``live.watch_parts``: the next poll, carrying
       the new revision, then the head, seats and hand, and the hands played if the ledger moved, as
       out-of-band swaps), a few KB whatever the session's length;
    4. nothing (the link was revoked or expired meanwhile): the link's own answer, whose words replace the
       board (out of band), and with it the polling stops.

    Nothing is kept in the server process: any number of processes or hosts serve the same table.
    """
    revision = selectors.invite_hand_revision(token)
    if revision is not None and str(revision) == request.GET.get("revision"):
        return HttpResponse(status=204)
    response = join(request, token, poll=True)
    response.status_code = 200  # htmx swaps only 2xx answers
    return response


ANSWERS = {"accept": services.invitation_accept, "decline": services.invitation_decline}


@login_required
@require_POST
def invitation_answer(request: SignedInRequest, invitation_id: int, answer: str) -> HttpResponse:
    invitation = selectors.invitation_get(user=request.user, invitation_id=invitation_id)
    try:
        ANSWERS[answer](actor=request.user, invitation=invitation)
    except REFUSALS as error:
        return render(
            request,
            "ledger/invites/invitations.html",
            {"invitations": selectors.invitations_for(request.user), "error": refusal_message(error)},
            status=409,
        )
    return redirect("invitations-page")


urlpatterns = [
    path("sessions/<ledger_id:session_id>/invite/", invite_page, name="session-invite"),
    path("invites/<ledger_id:invite_id>/revoke/", invite_revoke, name="invite-revoke"),
    path("join/<str:token>/", join, name="invite-join"),
    path("join/<str:token>/live/", watch_poll, name="invite-watch-poll"),
    path("invitations/", invitations_page, name="invitations-page"),
    *(
        path(
            f"invitations/<ledger_id:invitation_id>/{answer}/",
            invitation_answer,
            {"answer": answer},
            name=f"invitation-{answer}",
        )
        for answer in ANSWERS
    ),
]
