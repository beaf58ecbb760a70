"""The request of a view behind a login check, typed so: its user is a ``User``, never ``AnonymousUser``.

Django types ``request.user`` as ``User | AnonymousUser``; behind ``@login_required`` (a page) or DRF's
``IsAuthenticated`` (every API view: ``DEFAULT_PERMISSION_CLASSES``) it is always a ``User``. So such a
view annotates its request with one of these classes, as django-stubs' README recommends ("How can I
create a HttpRequest that's guaranteed to have an authenticated user?"); nothing changes at run time.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.request import Request

from web.htmx import HtmxHttpRequest


class SignedInRequest(HtmxHttpRequest):
    """A page's request behind ``@login_required`` (with django-htmx's details, as every request has)."""

    user: User


class SignedInApiRequest(Request):
    """An API view's request: DRF has authenticated it (``IsAuthenticated``) before the view runs."""

    user: User
