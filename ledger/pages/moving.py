"""Moving a group from a phone or a laptop: the owner downloads the group file, anyone logged in imports
one (a new group of theirs). Both go through ``ledger.group_file``, as the API and the commands do; a
refused file comes back as the page with the reason and where in the file it is, and nothing stored.

The page is the API's door with a form around it: the same size (the API's body limit), the same JSON
reader (its nesting depth, its refusal of NaN and lone surrogates), the same throttle, counted together
with the API's imports, and the same re-seal choice.
"""

from __future__ import annotations

import json
import re

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods
from rest_framework.exceptions import ParseError

import ledger.urls  # noqa: F401  (registers the ledger_id converter)
from api.parsers import MAX_DEPTH, read_json
from web.htmx import SignedInRequest

from .. import group_file, selectors
from ..api import GroupImportThrottle
from .links import group_url
from .refusals import REFUSALS, refusal_message


def max_file_bytes() -> int:
    """The API's body limit, read when asked (a test or an operator may change the setting)."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Group file (.json)"))
    reseal = forms.BooleanField(
        required=False,
        label=gettext_lazy("Re-seal a file that was changed since it was exported"),
        help_text=gettext_lazy(
            "Only for a file you trust: the group then records that you imported and re-sealed it, and "
            "who wrote each hand and when stand as the file's claim."
        ),
    )


@login_required
@require_http_methods(["GET", "HEAD"])
def group_export_file(request: SignedInRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    data = group_file.group_export(actor=request.user, group=group)  # owners only: others get a 403
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="sczmj-group-{group.pk}.json"'
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def group_import_page(request: SignedInRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, ImportForm())
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, form, status=400)
    upload = form.cleaned_data["file"]
    if upload.size > max_file_bytes():
        size = {"size": f"{max_file_bytes() / 1024 / 1024:.1f}"}
        form.add_error("file", _("This file is larger than a group file may be (%(size)s MB).") % size)
        return _page(request, form, status=413)
    # a DRF throttle on a page: it reads only request.user and META, which an HttpRequest has too
    if not GroupImportThrottle().allow_request(request, None):  # type: ignore[arg-type]
        form.add_error(None, _("Too many imports from this account: try again in an hour."))
        return _page(request, form, status=429)
    try:
        data = read_json(upload.read())
    except ParseError:
        depth = {"depth": MAX_DEPTH}
        form.add_error(
            "file",
            _("This is not a group file: it is not JSON text, or it nests more than %(depth)s deep.") % depth,
        )
        return _page(request, form, status=400)
    try:
        group = group_file.group_import(actor=request.user, data=data, reseal=form.cleaned_data["reseal"])
    except REFUSALS as error:
        form.add_error("file", _in_words(getattr(error, "field", ""), refusal_message(error)))
        return _page(request, form, status=400)
    messages.success(request, _("%(name)s is imported: you are its owner.") % {"name": group.name})
    return redirect(group_url(group))


# Where in the file, as a player counts: the API's field path (sessions[0].rounds[2].versions[1].net)
# becomes "session 1 · hand 3 · version 2"; the keys themselves are never shown.
PLACES = {
    "sessions": gettext_lazy("session %(n)s"),
    "rounds": gettext_lazy("hand %(n)s"),
    "versions": gettext_lazy("version %(n)s"),
    "players": gettext_lazy("player %(n)s"),
}
PLACE = re.compile(r"(sessions|rounds|versions|players)\[(\d+)\]")


def _in_words(field: str, reason: str) -> str:
    places = [str(PLACES[name] % {"n": int(index) + 1}) for name, index in PLACE.findall(field)]
    if not places:
        return reason
    return _("%(where)s: %(reason)s") % {"where": " · ".join(places), "reason": reason}


def _page(request: HttpRequest, form: ImportForm, *, status: int = 200) -> HttpResponse:
    return render(request, "ledger/moving/import.html", {"form": form}, status=status)


urlpatterns = [
    path("groups/import/", group_import_page, name="group-import-page"),
    path("groups/<ledger_id:group_id>/export.json", group_export_file, name="group-export-file"),
]
