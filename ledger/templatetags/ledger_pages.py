"""What the ledger's pages show of a number, a role or a session, written once for every template."""

from __future__ import annotations

from django import template

from ..models import Session
from ..pages import links
from ..pages.words import ROLE_LABELS

register = template.Library()


@register.filter
def signed(points: int) -> str:
    """+36, −12 or 0: the sign is printed (a real minus), so a gain and a loss differ without colour."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"\u2212{-points}"
    return "0"


@register.filter
def tone(points: int) -> str:
    """The class that colours a gain or a loss."""
    return "gain" if points > 0 else "loss" if points < 0 else ""


@register.filter
def role_label(role: str) -> str:
    return str(ROLE_LABELS.get(role, ""))


@register.filter
def session_url(session: Session) -> str:
    return links.session_url(session)
