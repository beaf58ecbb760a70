"""The installable app: the web app manifest, the service worker, the favicon and the offline page.

The service worker is ``static/js/service-worker.js`` served from ``/sw.js`` (a worker controls only the
paths under its own URL, and it must control ``/``), preceded by one line that names what it precaches:
the URLs of our static files (hashed names in production, via ``static()``), the htmx script, the
calculator page and the offline page, and a version that changes whenever any of those files changes, so
the browser installs the new worker and drops the old cache. Everything is derived from the files on disk,
the same in every process: nothing is kept between requests but that derivation.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

THEME_COLOUR = "#0f6b4f"
BACKGROUND_COLOUR = "#f2efe6"
ICONS = (
    ("img/icons/icon-192.png", 192, "any"),
    ("img/icons/icon-512.png", 512, "any"),
    ("img/icons/icon-maskable-192.png", 192, "maskable"),
    ("img/icons/icon-maskable-512.png", 512, "maskable"),
)
# Besides our own static folder: the htmx build that {% htmx_script %} loads.
PACKAGE_STATIC = ("django_htmx/htmx-2.min.js", "django_htmx/django-htmx.js")
SERVICE_WORKER = "js/service-worker.js"


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": _("Sichuan mahjong scorer"),
        "short_name": _("SCZMJ"),
        "description": _("Scores and settles Sichuan mahjong (Chengdu rules) at the table."),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("calculator-page"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(path), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for path, size, purpose in ICONS
        ],
    }
    return HttpResponse(
        json.dumps(body, ensure_ascii=False), content_type="application/manifest+json; charset=utf-8"
    )


def _our_static_files() -> list[str]:
    """Every file of our static folders, as paths relative to them, in a stable order."""
    paths: set[str] = set()
    for root in settings.STATICFILES_DIRS:
        base = Path(root)
        paths.update(
            path.relative_to(base).as_posix()
            for path in base.rglob("*")
            if path.is_file() and not path.name.startswith(".")
        )
    return sorted(paths - {SERVICE_WORKER})


@cache
def precache() -> tuple[tuple[str, ...], str]:
    """The URLs the worker stores at install, and a version: a digest of the files' content and URLs."""
    files = [*PACKAGE_STATIC, *_our_static_files()]
    digest = hashlib.sha256()
    for path in files:
        found = finders.find(path)
        digest.update(path.encode())
        if found:
            digest.update(Path(found).read_bytes())
    digest.update(_service_worker_source().encode())
    pages = (reverse("calculator-page"), reverse("pwa-offline"))
    return (*pages, *(static(path) for path in files)), digest.hexdigest()[:16]


@cache
def _service_worker_source() -> str:
    found = finders.find(SERVICE_WORKER)
    assert found, f"static/{SERVICE_WORKER} is missing"
    return Path(found).read_text(encoding="utf-8")


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    urls, version = precache()
    config = {"version": version, "precache": list(urls), "offline": reverse("pwa-offline")}
    body = f"self.SCZMJ = {json.dumps(config)};\n{_service_worker_source()}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on every navigation anyway; never let a cache hide one.
    response["Cache-Control"] = "no-cache"
    return response


@cache
def _favicon() -> bytes:
    found = finders.find("img/icons/favicon.ico")
    assert found, "static/img/icons/favicon.ico is missing: run tools/render_icons.py"
    return Path(found).read_bytes()


@require_safe
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(_favicon(), content_type="image/vnd.microsoft.icon")


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page it does not hold when there is no network."""
    return render(request, "pwa/offline.html")
