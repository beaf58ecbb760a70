"""Invite links to a session: made, revoked, and joined by a scorekeeper link."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ..errors import InviteUnusableError, LedgerError
from ..models import INVITE_ROLES, WRITER_ROLES, Membership, Role, Session, SessionInvite
from .checks import require_role
from .groups import _join

INVITE_TOKEN_BYTES = 32  # 256 bits: a link cannot be guessed
DEFAULT_INVITE_HOURS = 24
MAX_INVITE_HOURS = 24 * 30


@transaction.atomic
def invite_create(
    *, actor: User, session: Session, role: str, expires_in_hours: int | None = None
) -> SessionInvite:
    """A link to ``session`` for a viewer or a scorekeeper (owners and scorekeepers make them)."""
    require_role(actor=actor, group=session.group, roles=WRITER_ROLES)
    if role not in INVITE_ROLES:
        raise LedgerError("invite_role", field="role")
    hours = DEFAULT_INVITE_HOURS if expires_in_hours is None else expires_in_hours
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= MAX_INVITE_HOURS:
        raise LedgerError("invite_hours", field="expires_in_hours", maximum=MAX_INVITE_HOURS)
    return SessionInvite.objects.create(
        session=session,
        role=role,
        token=secrets.token_urlsafe(INVITE_TOKEN_BYTES),
        created_by=actor,
        expires_at=timezone.now() + timedelta(hours=hours),
    )


@transaction.atomic
def invite_revoke(*, actor: User, invite: SessionInvite) -> SessionInvite:
    """The link stops working at once. An owner revokes any link of the group; a scorekeeper his own."""
    if invite.created_by_id != actor.pk:
        require_role(actor=actor, group=invite.session.group, roles=(Role.OWNER,))
    else:
        require_role(actor=actor, group=invite.session.group, roles=WRITER_ROLES)
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


@transaction.atomic
def invite_join(*, actor: User, invite: SessionInvite) -> Membership:
    """A logged-in visitor accepts a scorekeeper link: he joins the session's group as scorekeeper."""
    locked = SessionInvite.objects.select_for_update().select_related("session__group").get(pk=invite.pk)
    refusal = invite_refusal(locked)
    if refusal is not None:
        raise refusal
    if locked.role != Role.SCOREKEEPER:
        raise LedgerError("viewer_link_does_not_join", field="role")
    return _join(user=actor, group=locked.session.group, role=Role.SCOREKEEPER)


def invite_refusal(invite: SessionInvite) -> InviteUnusableError | None:
    """Why the link no longer works (revoked, expired), or None while it does."""
    state = invite.state(timezone.now())
    return None if state == "active" else InviteUnusableError(state)
