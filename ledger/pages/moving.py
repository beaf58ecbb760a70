"""Moving a group from a phone or a laptop: the owner downloads the group file, anyone logged in imports
one (a new group of theirs). Both go through ``ledger.group_file``, as the API and the commands do; a
refused file comes back as the page with the reason and where in the file it is, and nothing stored.
"""

from __future__ import annotations

import json
import re

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

import ledger.urls  # noqa: F401  (registers the ledger_id converter)

from .. import group_file, selectors
from .links import group_url
from .refusals import REFUSALS, refusal_message

MAX_FILE_BYTES = 20 * 1024 * 1024  # a group of many years is a few MB; more is not a group file


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Group file (.json)"))


@login_required
@require_http_methods(["GET", "HEAD"])
def group_export_file(request: HttpRequest, group_id: int) -> HttpResponse:
    group = selectors.group_get(user=request.user, group_id=group_id)
    data = group_file.group_export(actor=request.user, group=group)  # owners only: others get a 403
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="sczmj-group-{group.pk}.json"'
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def group_import_page(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, ImportForm())
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, form, status=400)
    upload = form.cleaned_data["file"]
    if upload.size > MAX_FILE_BYTES:
        form.add_error("file", _("This file is too large to be a group file."))
        return _page(request, form, status=400)
    try:
        data = json.loads(upload.read().decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        form.add_error("file", _("This is not a group file: it is not JSON text."))
        return _page(request, form, status=400)
    try:
        group = group_file.group_import(actor=request.user, data=data)
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
