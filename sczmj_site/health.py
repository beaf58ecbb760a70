"""``GET /healthz`` (API.md): whether this app server can reach its database. No login, no data.

For a load balancer or a supervisor deciding whether to send traffic here: 200 when a query answers, 503
when the database cannot be reached, with Retry-After. Both carry the version running
(sczmj_site/__init__.py), so an upgrade across several servers can be watched. Never cached, and exempt
from the HTTPS redirect.
"""

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from api.errors import RETRY_AFTER_SECONDS

from . import __version__


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return bool(cursor.fetchone() == (1,))
    except DatabaseError:
        return False


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    if database_answers():
        return JsonResponse({"status": "ok", "database": "ok", "version": __version__})
    body = {"status": "error", "database": "unavailable", "version": __version__}
    response = JsonResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
