"""Where the pages send a player: one function per destination, so a page that moves is changed once."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from ..models import Group, Session
from ..summary_links import summary_token


def group_url(group: Group) -> str:
    return reverse("group-page", args=[group.pk])


def group_stats_url(group: Group) -> str:
    """统计: the group's standings over its sessions and each player's record (``ledger/pages/stats.py``)."""
    return reverse("group-stats", args=[group.pk])


def session_url(session: Session) -> str:
    """Where a session is played: its page (``ledger/pages/session.py``)."""
    return reverse("session-page", args=[session.pk])


def hand_url(session_id: int, position: int) -> str:
    """One hand in its session's history (``ledger/pages/history.py``): the page that holds it, with the
    hand open."""
    return f"{reverse('session-history', args=[session_id])}?hand={position}#hand-{position}"


def summary_url(request: HttpRequest, session: Session) -> str:
    """The read-only summary the picture's QR code opens (``ledger/pages/card.py``), as an absolute link."""
    return request.build_absolute_uri(reverse("session-summary", args=[summary_token(session)]))
