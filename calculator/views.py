"""The calculator page ``/``: the fan of a hand as its tiles are picked or typed.

One function view. A full page for a GET or a plain form POST (no JavaScript needed); for an htmx request,
the ``result`` fragment of the same template. The hand is worked out by ``calculator.outcome.work_out``,
through the API's own request parsers, so the page and the API give the same answers and the same
messages; the browser runs the same function when the phone is offline (docs/offline.md). An engine error
is a 400 for the plain form and a 200 fragment for htmx, which only swaps 2xx responses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpResponse, QueryDict
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from calculator.engine import HAND_TILES, WinBy
from web.htmx import HtmxHttpRequest, page_or_fragment
from web.language import page_language
from web.rules_form import rules_context
from web.tiles import (
    EMPTY_HAND,
    SUIT_SHORT_LABELS,
    hand_view,
    meld_tools,
    picker_config_json,
    picker_rows,
    tile_view,
    tile_views,
)

from .hand_input import FLAGS, WIN_BY
from .outcome import Outcome, work_out

WIN_BY_LABELS: Mapping[str, Any] = {
    WinBy.SELF_DRAW: _("Self-draw"),
    WinBy.DISCARD: _("On a discard"),
    WinBy.ROBBING_KONG: _("Robbing a kong"),
}


def with_faces(outcome: Outcome) -> Outcome:
    """The outcome as the template draws it: each tile it names as a face with its spoken label."""
    score, waits = outcome.score, outcome.waits
    if score and score["win"]:
        score = {**score, "set_tiles": [tile_views(names) for names in score["set_tiles"]]}
    if waits:

        def faced(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [{**wait, "tile_view": tile_view(wait["tile"])} for wait in rows]

        discards = [
            {"tile_view": tile_view(entry["discard"]), "waits": faced(entry["waits"])}
            for entry in waits["discard_rows"]
        ]
        waits = {**waits, "wait_rows": faced(waits["wait_rows"]), "discard_rows": discards}
    return Outcome(outcome.hand, score, waits, outcome.missing, outcome.error, outcome.error_field)


def with_added_tile(data: QueryDict) -> QueryDict:
    """The picker without JavaScript: a tile button posts ``add``; it joins the hand as the last tapped."""
    data = data.copy()
    data["concealed"] = data.get("concealed", "") + data.get("win_tile", "") + data.get("add", "")
    data["win_tile"] = ""
    return data


@require_http_methods(["GET", "HEAD", "POST"])
def calculator_page(request: HtmxHttpRequest) -> HttpResponse:
    data: QueryDict = request.POST if request.method == "POST" else request.GET
    if "add" in data:
        data = with_added_tile(data)
    language = page_language()
    hand, outcome = work_out(data, language, submitted=request.method == "POST" or "concealed" in data)
    drawn = hand_view(outcome.hand) if outcome.hand else EMPTY_HAND
    context = {
        "data": data,
        "hand": hand,
        "outcome": with_faces(outcome),
        "hand_view": drawn,
        "mode": hand.mode if hand else "win",
        "melds_text": hand.melds_text() if hand else data.get("melds", ""),
        "picker_rows": picker_rows(drawn.counts),
        "picker_config": picker_config_json(),
        "meld_kinds": meld_tools(),
        "win_by_choices": [(value, WIN_BY_LABELS[value]) for value in WIN_BY],
        "win_by": hand.win_by if hand else WIN_BY[0],
        "flags": hand.flags if hand else frozenset(),
        "flag_names": FLAGS,
        "void_suit": data.get("void_suit", ""),
        "suits": list(SUIT_SHORT_LABELS.items()),
        "missing_counts": range(1, HAND_TILES + 1),  # the offline card's "Pick n more tiles", each n
        **rules_context(data, language),
    }
    return page_or_fragment(request, "calculator/page.html", "result", context, failed=bool(outcome.error))
