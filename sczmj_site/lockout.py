"""What a locked-out log-in sees (django-axes' ``AXES_LOCKOUT_CALLABLE``).

A user name is locked from one address after ``AXES_FAILURE_LIMIT`` wrong passwords, for
``AXES_COOLOFF_TIME``; the same user from another address, and other users from the same address (a
table sharing one Wi-Fi), are not. The API answers in its one error shape, a page in the page's language.
"""

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from api.errors import error_body


def cool_off_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def lockout_response(request: HttpRequest, response: Any = None, credentials: Any = None) -> HttpResponse:
    """The answer to a locked-out log-in (axes passes the response it replaces and the credentials)."""
    minutes = cool_off_minutes()
    answer: HttpResponse
    if request.path.startswith("/api/"):
        answer = JsonResponse(
            error_body("locked_out", "credentials", minutes=minutes),
            status=429,
            json_dumps_params={"ensure_ascii": False},
        )
    else:
        answer = render(request, "ops/locked_out.html", {"minutes": minutes}, status=429)
    answer["Retry-After"] = str(minutes * 60)
    return answer
