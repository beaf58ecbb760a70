"""Where the pages send a player: one function per destination, so a page that moves is changed once."""

from __future__ import annotations

from django.urls import reverse

from ..models import Group, Session


def group_url(group: Group) -> str:
    return reverse("group-page", args=[group.pk])


def session_url(session: Session) -> str:
    """Where a session is played. The session page (h3's ``ledger/pages/session.py``) is not on main yet:
    until it is, the session's line on its group page."""
    return reverse("group-page", args=[session.group_id]) + f"#session-{session.pk}"
