"""The read-only summary link the picture's QR code opens: a session's nets and transfers, nothing else.

The link is the session's id and ``Session.summary_link_revision`` signed with the site's key (Django's
``Signer``, salted for this use alone), so it cannot be made up or changed, needs no row of its own, and
is the same every time it is drawn: the picture and its QR code are stable. Revoking moves the revision
on, which ends every link signed before at once; the next picture carries a new one. Whoever holds a
working link sees the summary without an account; nothing else of the group is reachable from it.
"""

from __future__ import annotations

from typing import Any

from django.core import signing
from django.db import transaction
from django.db.models import F
from django.http import Http404
from django.shortcuts import get_object_or_404

from .errors import Forbidden
from .models import WRITER_ROLES, Session
from .selectors import role_in

SALT = "sczmj.summary-link"


def summary_token(session: Session) -> str:
    return signing.Signer(salt=SALT).sign_object([session.pk, session.summary_link_revision])


def session_by_summary_token(token: str) -> Session:
    """The session a working link names (404 for a forged, altered or revoked one)."""
    try:
        session_id, revision = signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, ValueError, TypeError) as error:
        raise Http404("No such summary link") from error
    return get_object_or_404(
        Session.objects.select_related("group"), pk=session_id, summary_link_revision=revision
    )


@transaction.atomic
def summary_link_revoke(*, actor: Any, session: Session) -> Session:
    """End every summary link of ``session`` signed so far (its owners and scorekeepers may)."""
    if role_in(user=actor, group=session.group) not in WRITER_ROLES:
        raise Forbidden("role_forbids")
    Session.objects.filter(pk=session.pk).update(summary_link_revision=F("summary_link_revision") + 1)
    session.refresh_from_db(fields=["summary_link_revision"])
    return session
