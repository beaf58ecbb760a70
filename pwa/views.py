"""The installable app: the web app manifest, the service worker, the favicon, the offline page and the
offline engine's bundle.

The service worker is ``static/js/service-worker.js`` served from ``/sw.js`` (a worker controls only the
paths under its own URL, and it must control ``/``), preceded by one line that names what it precaches:
the URLs of our static files (hashed names in production, via ``static()``), the htmx script, the
calculator page, the offline page and the engine bundle, and a version that changes whenever any of those
changes, so the browser installs the new worker and drops the old cache. Apart from these it names the
Pyodide runtime (13 MB), which it stores only when the calculator asks, once per Pyodide version
(docs/offline.md). Everything is derived from the files on disk, the same in every process: nothing is
kept between requests but that derivation.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.finders import FileSystemFinder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_safe

from .offline import bundle, runtime

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
ENGINE_WORKER = "js/engine-worker.js"


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": _("Sichuan mahjong scorer"),
        "short_name": _("SCZMJ"),
        "description": _("Scores and settles Sichuan mahjong (Chengdu rules) at the table."),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("app-start"),  # tonight's session, home or the calculator (ledger.pages.home)
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
    """Every file of our own static folder, in a stable order: not the Pyodide folder (served under its
    ``pyodide/`` prefix), which the worker stores apart and only on request."""
    paths = {
        path
        for path, storage in FileSystemFinder().list(ignore_patterns=[".*"])
        if not getattr(storage, "prefix", "")
    }
    return sorted(paths - {SERVICE_WORKER})


@cache
def precache() -> tuple[tuple[str, ...], str]:
    """The URLs the worker stores at install, and a version: a digest of the files' content and URLs,
    the engine bundle's and the Pyodide version (a new one is a new runtime cache)."""
    files = [*PACKAGE_STATIC, *_our_static_files()]
    digest = hashlib.sha256()
    for path in files:
        found = finders.find(path)
        digest.update(path.encode())
        if found:
            digest.update(Path(found).read_bytes())
    digest.update(_service_worker_source().encode())
    pages = (reverse("calculator-page"), reverse("pwa-offline"))
    engine: tuple[str, ...] = ()
    offline_runtime = runtime()
    if offline_runtime:
        engine = (reverse("pwa-engine-bundle"),)
        digest.update(f"{bundle().etag} {offline_runtime.cache}".encode())
    return (*pages, *engine, *(static(path) for path in files)), digest.hexdigest()[:16]


def engine_config() -> dict[str, object] | None:
    """What the worker and the calculator page need to run the engine offline, or None without Pyodide."""
    offline_runtime = runtime()
    if offline_runtime is None:
        return None
    return {
        "cache": offline_runtime.cache,
        "indexURL": offline_runtime.url,
        "runtime": [offline_runtime.url + name for name in offline_runtime.files],
        "bundle": reverse("pwa-engine-bundle"),
        "worker": static(ENGINE_WORKER),
    }


@cache
def _service_worker_source() -> str:
    found = finders.find(SERVICE_WORKER)
    assert found, f"static/{SERVICE_WORKER} is missing"  # noqa: S101 - a missing static file is a broken build
    return Path(found).read_text(encoding="utf-8")


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    urls, version = precache()
    config = {
        "version": version,
        "precache": list(urls),
        "offline": reverse("pwa-offline"),
        "engine": engine_config(),
    }
    body = f"self.SCZMJ = {json.dumps(config)};\n{_service_worker_source()}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on every navigation anyway; never let a cache hide one.
    response["Cache-Control"] = "no-cache"
    return response


@cache
def _favicon() -> bytes:
    found = finders.find("img/icons/favicon.ico")
    assert found, "static/img/icons/favicon.ico is missing: run tools/render_icons.py"  # noqa: S101 - a missing static file is a broken build
    return Path(found).read_bytes()


@require_safe
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(_favicon(), content_type="image/vnd.microsoft.icon")


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page it does not hold when there is no network."""
    return render(request, "pwa/offline.html")


@require_safe
@condition(etag_func=lambda request: bundle().etag)
def engine_bundle(request: HttpRequest) -> HttpResponse:
    """The Python the offline engine runs (``pwa.offline.bundle``): revalidated by its ETag, so a phone
    downloads it again only when the code changed."""
    response = HttpResponse(bundle().data, content_type="application/zip")
    response["Cache-Control"] = "no-cache"
    return response
