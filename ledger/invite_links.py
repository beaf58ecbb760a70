"""What an invite link looks like: its address (the token, never an id) and its QR code.

The QR code is drawn on the server as inline SVG by segno: no script, no image request. Dark modules on
a white square with the four-module quiet zone scanners need, in either colour scheme; the SVG has only a
viewBox, so the page's stylesheet sizes it, and attributes rather than style, so it passes the CSP.
"""

from __future__ import annotations

import segno
from django.http import HttpRequest
from django.urls import reverse

from .models import SessionInvite


def invite_url(request: HttpRequest, invite: SessionInvite) -> str:
    """The absolute address to share (the host the inviting phone used, checked by ALLOWED_HOSTS)."""
    return request.build_absolute_uri(reverse("invite-join", args=[invite.token]))


def qr_svg(text: str, *, title: str = "") -> str:
    code = segno.make(text, error="m")
    return code.svg_inline(
        border=4, dark="#000", light="#fff", omitsize=True, svgclass="qr", lineclass=None, title=title or None
    )
