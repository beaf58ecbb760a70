"""django-htmx's typed request (and a signed-in one), and the answer every page gives: its fragment to htmx,
the page otherwise."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """What django-htmx's middleware makes of every request (its documented typing pattern)."""

    htmx: HtmxDetails


class SignedInRequest(HtmxHttpRequest):
    """A page's request behind ``@login_required``: its user is a ``User``, never ``AnonymousUser``.

    Django types ``request.user`` as ``User | AnonymousUser``; a view behind a login check annotates its
    request with this class instead, as django-stubs' README recommends ("How can I create a HttpRequest
    that's guaranteed to have an authenticated user?"). Nothing changes at run time.
    """

    user: User


def page_or_fragment(
    request: HtmxHttpRequest,
    template: str,
    fragment: str,
    context: Mapping[str, Any],
    *,
    failed: bool = False,
) -> TemplateResponse:
    """The ``fragment`` partial of ``template`` for htmx, the whole page for a plain request.

    A failure is a 400 for a plain form post; htmx swaps only 2xx responses, so it gets a 200 fragment
    that shows the message.
    """
    if request.htmx:
        return TemplateResponse(request, f"{template}#{fragment}", dict(context))
    return TemplateResponse(request, template, dict(context), status=400 if failed else 200)
