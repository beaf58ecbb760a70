"""The calculator page ``/``: the fan of a hand as its tiles are picked or typed.

One function view. A full page for a GET or a plain form POST (no JavaScript needed); for an htmx request,
the ``result`` fragment of the same template. The hand goes through the API's own request parsers
(``score_from_payload``, ``waits_from_payload``), so the page and the API give the same answers and the
same messages. An engine error is a 400 for the plain form and a 200 fragment for htmx, which only swaps
2xx responses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse, QueryDict
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from calculator.engine import (
    PATTERN_BY_KEY,
    EngineError,
    Rules,
    WinBy,
    score_from_payload,
    waits_from_payload,
)
from web.htmx import HtmxHttpRequest, page_or_fragment
from web.language import in_language, page_language
from web.rules_form import rules_context
from web.tiles import (
    EMPTY_HAND,
    SUIT_SHORT_LABELS,
    HandView,
    hand_view,
    meld_tools,
    picker_config_json,
    picker_rows,
    tile_names,
    tile_view,
    tile_views,
)

from .hand_input import FLAGS, WIN_BY, WIN_BY_LABELS, HandInput


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one evaluation of the form gives: a score, waits, a hint of tiles missing, or an error."""

    hand: HandView | None = None
    score: Mapping[str, Any] | None = None
    waits: Mapping[str, Any] | None = None
    missing: int = 0
    error: str = ""
    error_field: str = ""


def the_hand_view(hand: HandInput) -> HandView:
    """The hand as drawn above the picker; raises the engine's EngineError for tiles it cannot read."""
    concealed, win = hand.concealed_and_win()
    return hand_view(concealed, win, hand.melds)


def self_draw_bonus(hand: HandInput) -> int:
    """What each payer adds on a self-draw (the engine's 自摸加底): the score API leaves it out."""
    if hand.mode != "win" or hand.win_by != WinBy.SELF_DRAW:
        return 0
    return Rules.from_dict(hand.rules).self_draw_bonus


def present_score(result: Mapping[str, Any], language: str, jia_di: int = 0) -> dict[str, Any]:
    """The score response with the page's words beside the engine's keys, and what each payer pays."""
    if not result["win"]:
        return dict(result)
    rows = [
        {"label": in_language(item, language), "name": item["name"], "fan": item["fan"]}
        for item in (result["pattern"], *result["extras"])
    ]
    sets = [tile_views(tile_names(group, "sets")) for group in result.get("sets", ())]
    return {
        **result,
        "rows": rows,
        "set_tiles": sets,
        "fan_zero_based": result["fan"] - 1,
        "jia_di": jia_di,
        "paid": result["points"] + jia_di,
    }


def present_waits(result: Mapping[str, Any], language: str) -> dict[str, Any]:
    def label(key: str) -> str:
        return in_language(PATTERN_BY_KEY[key], language) if key in PATTERN_BY_KEY else key

    def label_of(wait: Mapping[str, Any]) -> str:
        """清一色 + 1根: the gen says why 1m and 9m are worth more than 2m of the same 九莲 shape."""
        gen = wait.get("gen") or 0
        return label(wait["pattern"]) + (" + " + _("%(gen)s gen") % {"gen": gen} if gen else "")

    def waits_of(waits: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [{**wait, "tile_view": tile_view(wait["tile"]), "label": label_of(wait)} for wait in waits]

    discards = [
        {"tile_view": tile_view(entry["discard"]), "waits": waits_of(entry["waits"])}
        for entry in result.get("discards") or ()
    ]
    return {**result, "wait_rows": waits_of(result["waits"]), "discard_rows": discards}


def evaluate(hand: HandInput, language: str) -> Outcome:
    """Score the hand (or find its waits) through the API's request parsers."""
    view = None
    try:
        view = the_hand_view(hand)
        missing = hand.tiles_missing()
        if missing:
            return Outcome(view, missing=missing)
        if hand.mode == "waits":
            return Outcome(view, waits=present_waits(waits_from_payload(hand.payload()).to_dict(), language))
        score = score_from_payload(hand.payload()).to_dict()
        return Outcome(view, score=present_score(score, language, self_draw_bonus(hand)))
    except EngineError as error:
        return Outcome(view, error=error.localized(language), error_field=top_field(error.field))


def top_field(field: str) -> str:
    """The form field an engine field belongs to: ``melds[1].tile`` is the melds box."""
    return field.split(".")[0].split("[")[0]


def with_added_tile(data: QueryDict) -> QueryDict:
    """The picker without JavaScript: a tile button posts ``add``; it joins the hand as the last tapped."""
    data = data.copy()
    data["concealed"] = data.get("concealed", "") + data.get("win_tile", "") + data.get("add", "")
    data["win_tile"] = ""
    return data


@require_http_methods(["GET", "HEAD", "POST"])
def calculator_page(request: HtmxHttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    if "add" in data:
        data = with_added_tile(data)
    language = page_language()
    submitted = request.method == "POST" or "concealed" in data
    try:
        hand: HandInput | None = HandInput.from_data(data)
        outcome = evaluate(hand, language) if hand and submitted else Outcome()
    except EngineError as error:  # the melds notation, read before the engine sees anything
        hand, outcome = None, Outcome(error=error.localized(language), error_field=top_field(error.field))
    context = {
        "data": data,
        "hand": hand,
        "outcome": outcome,
        "hand_view": outcome.hand or EMPTY_HAND,
        "mode": hand.mode if hand else "win",
        "melds_text": hand.melds_text() if hand else data.get("melds", ""),
        "picker_rows": picker_rows((outcome.hand or EMPTY_HAND).counts),
        "picker_config": picker_config_json(),
        "meld_kinds": meld_tools(),
        "win_by_choices": [(value, WIN_BY_LABELS[value]) for value in WIN_BY],
        "win_by": hand.win_by if hand else WIN_BY[0],
        "flags": hand.flags if hand else frozenset(),
        "flag_names": FLAGS,
        "void_suit": data.get("void_suit", ""),
        "suits": list(SUIT_SHORT_LABELS.items()),
        **rules_context(data, language),
    }
    return page_or_fragment(request, "calculator/page.html", "result", context, failed=bool(outcome.error))
