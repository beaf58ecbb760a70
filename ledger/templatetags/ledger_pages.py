"""What the ledger's pages show of a role or a session, written once for every template."""

from __future__ import annotations

from django import template

from ..models import Session
from ..pages import links
from ..pages.words import ROLE_LABELS

register = template.Library()


@register.filter
def role_label(role: str) -> str:
    return str(ROLE_LABELS.get(role, ""))


@register.filter
def session_url(session: Session) -> str:
    return links.session_url(session)
