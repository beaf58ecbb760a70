"""What a locked-out log-in sees (django-axes' ``AXES_LOCKOUT_CALLABLE``), and the per-name cool-off.

Two limits, the trade-off in docs/security.md ("Password guessing"):

- a user name is locked from one address after ``AXES_FAILURE_LIMIT`` wrong passwords, for
  ``AXES_COOLOFF_TIME`` (axes' own count); the same user from another address, and other users from the
  same address (a table sharing one Wi-Fi), are not;
- a user name given ``FREE_FAILURES`` wrong passwords from any addresses since its last log-in (within the
  last ``WINDOW``) waits before its next try, 1 minute doubling with each further one to ``LONGEST_WAIT``:
  guessing spread over many addresses is slowed to a crawl, and the owner is held back minutes, not locked
  out.
  It reads axes' failure log (``AXES_ENABLE_ACCESS_FAILURE_LOG``), where a try refused before its password
  was checked is not written, so waiting out a wait is enough.

The API answers in its one error shape, a page in the page's language, both with ``Retry-After``.
"""

import math
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessFailureLog, AccessLog
from django.conf import settings
from django.db.models import Count, Max
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone

from api.errors import error_body

FREE_FAILURES = 10
FIRST_WAIT = timedelta(minutes=1)
LONGEST_WAIT = timedelta(minutes=15)
WINDOW = timedelta(days=1)
_DOUBLINGS = math.ceil(math.log2(LONGEST_WAIT / FIRST_WAIT))  # beyond these the wait is the longest


def name_wait(failures: int) -> timedelta:
    """How long a user name waits after its latest wrong password, given its ``failures`` counted."""
    beyond = failures - FREE_FAILURES
    if beyond < 0:
        return timedelta(0)
    return min(FIRST_WAIT * (1 << min(beyond, _DOUBLINGS)), LONGEST_WAIT)


def name_retry_at(username: str, now: datetime) -> datetime | None:
    """When ``username`` may be tried again from any address, or None when it may be now."""
    last_log_in = AccessLog.objects.filter(username=username).aggregate(at=Max("attempt_time"))["at"]
    since = max(filter(None, [now - WINDOW, last_log_in]))
    failures = AccessFailureLog.objects.filter(username=username, attempt_time__gt=since).aggregate(
        count=Count("id"), latest=Max("attempt_time")
    )
    wait = name_wait(failures["count"])
    if not wait:
        return None
    retry_at: datetime = failures["latest"] + wait
    return retry_at if retry_at > now else None


class NameCoolOffHandler(AxesDatabaseHandler):  # type: ignore[misc]  # axes ships no type hints
    """Axes' database handler, with a user name in its cool-off locked from every address."""

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        if super().is_locked(request, credentials):
            return True
        username = get_client_username(request, credentials)
        now = getattr(request, "axes_attempt_time", None) or timezone.now()
        request.name_retry_at = username and name_retry_at(username, now)
        return bool(request.name_retry_at)


def minutes_en(minutes: int) -> str:
    """``minutes`` as English words: "1 minute", "2 minutes"."""
    return f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"


def _seconds_left(request: HttpRequest) -> int:
    retry_at: datetime | None = getattr(request, "name_retry_at", None)
    if retry_at:
        return math.ceil((retry_at - timezone.now()).total_seconds())
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_response(request: HttpRequest, response: Any = None, credentials: Any = None) -> HttpResponse:
    """The answer to a locked-out log-in (axes passes the response it replaces and the credentials): the
    name's cool-off when that is what refused it, else the pair's lockout."""
    seconds = max(_seconds_left(request), 1)
    minutes = math.ceil(seconds / 60)
    whole_name = bool(getattr(request, "name_retry_at", None))
    answer: HttpResponse
    if request.path.startswith("/api/"):
        answer = JsonResponse(
            error_body(
                "name_cooling_off" if whole_name else "locked_out",
                "credentials",
                minutes=minutes,
                wait=minutes_en(minutes),
            ),
            status=429,
            json_dumps_params={"ensure_ascii": False},
        )
    else:
        context = {
            "minutes": minutes,
            "whole_name": whole_name,
            "longest": LONGEST_WAIT // timedelta(minutes=1),
        }
        answer = render(request, "ops/locked_out.html", context, status=429)
    answer["Retry-After"] = str(seconds)
    return answer
