"""The calculator page ``/``: the fan of a hand as its tiles are picked or typed.

One function view. A full page for a GET or a plain form POST (no JavaScript needed); for an htmx request,
the ``result`` fragment of the same template. The hand goes through the API's own request parsers
(``score_from_payload``, ``waits_from_payload``), so the page and the API give the same answers and the
same messages. An engine error is a 400 for the plain form and a 200 fragment for htmx, which only swaps
2xx responses.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.template.response import TemplateResponse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from calculator.engine import (
    PATTERN_BY_KEY,
    SUITS,
    TILE_NAMES,
    EngineError,
    Rules,
    ZimoBonus,
    score_from_payload,
    waits_from_payload,
)

from .forms import (
    FLAGS,
    HAND_TILES,
    MELD_KINDS,
    MELD_LABELS,
    MELD_TEXT,
    SUIT_SHORT_LABELS,
    WIN_BY,
    WIN_BY_LABELS,
    HandInput,
    in_language,
    preset_choices,
    rule_fields,
    tile_label,
    tile_names,
)

MELD_SIZE = {"pung": 3, "kong_direct": 4, "kong_added": 4, "kong_concealed": 4}
PICKER_ROWS = tuple(tuple(f"{rank}{suit}" for rank in range(1, 10)) for suit in SUITS)


@dataclass(frozen=True, slots=True)
class TileView:
    name: str
    label: str


@dataclass(frozen=True, slots=True)
class MeldView:
    kind: str
    label: Any
    tiles: tuple[TileView, ...]


@dataclass(frozen=True, slots=True)
class HandView:
    """The hand as the page draws it: concealed tiles sorted, the winning tile apart, melds apart."""

    concealed: tuple[TileView, ...]
    win: TileView | None
    melds: tuple[MeldView, ...]
    counts: Mapping[str, int]

    def state_json(self) -> str:
        """What the picker script adopts after the server has read typed tiles."""
        tiles = [tile.name for tile in self.concealed] + ([self.win.name] if self.win else [])
        melds = [{"kind": meld.kind, "tile": meld.tiles[0].name} for meld in self.melds]
        return json.dumps({"tiles": tiles, "win": self.win.name if self.win else None, "melds": melds})


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one evaluation of the form gives: a score, waits, a hint of tiles missing, or an error."""

    hand: HandView | None = None
    score: Mapping[str, Any] | None = None
    waits: Mapping[str, Any] | None = None
    missing: int = 0
    error: str = ""
    error_field: str = ""


def tile_view(name: str) -> TileView:
    return TileView(name, tile_label(name))


def tile_views(names: Iterable[str]) -> tuple[TileView, ...]:
    return tuple(tile_view(name) for name in sorted(names, key=TILE_NAMES.index))


def picker_rows(counts: Mapping[str, int]) -> list[list[dict[str, Any]]]:
    """The picker's three rows of nine, each tile with how many copies are already used."""
    return [[{"view": tile_view(name), "count": counts.get(name, 0)} for name in row] for row in PICKER_ROWS]


def hand_view(hand: HandInput) -> HandView:
    """Parse the hand for display; raises the engine's EngineError for tiles it cannot read."""
    concealed, win = hand.concealed_and_win()
    win_name = win if win in TILE_NAMES else None
    melds = []
    for position, meld in enumerate(hand.melds):
        names = tile_names(meld.tile, f"melds[{position}].tile")
        if len(names) == 1:
            melds.append(
                MeldView(meld.kind, MELD_LABELS[meld.kind], (tile_view(names[0]),) * MELD_SIZE[meld.kind])
            )
    counts = Counter([*concealed, *([win_name] if win_name else [])])
    for meld_view in melds:
        counts[meld_view.tiles[0].name] += len(meld_view.tiles)
    return HandView(tile_views(concealed), tile_view(win_name) if win_name else None, tuple(melds), counts)


def self_draw_bonus(hand: HandInput) -> int:
    """What each payer adds on a self-draw under 自摸加底 (RULES.md 4): the score API leaves it out."""
    if hand.mode != "win" or hand.win_by != "self_draw":
        return 0
    rules = Rules.from_dict(hand.rules)
    return rules.base_points if rules.zimo_bonus is ZimoBonus.JIA_DI else 0


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
        view = hand_view(hand)
        missing = hand.tiles_missing()
        if missing:
            return Outcome(view, missing=missing)
        if hand.tiles_held() > HAND_TILES:
            return Outcome(view, error=too_many_tiles(hand), error_field="concealed")
        if hand.mode == "waits":
            return Outcome(view, waits=present_waits(waits_from_payload(hand.payload()).to_dict(), language))
        score = score_from_payload(hand.payload()).to_dict()
        return Outcome(view, score=present_score(score, language, self_draw_bonus(hand)))
    except EngineError as error:
        return Outcome(view, error=error.localized(language), error_field=top_field(error.field))


def too_many_tiles(hand: HandInput) -> str:
    """Counted as a player counts, with the winning tile box named: a tile left there is easy to miss."""
    held = hand.tiles_held()
    message = _(
        "The hand has %(held)s tiles (each meld counts 3); a hand has at most %(most)s: remove %(extra)s."
    ) % {"held": held, "most": HAND_TILES, "extra": held - HAND_TILES}
    if hand.win_tile and hand.mode == "win":
        message += " " + _("One of them is in the winning tile box (%(tile)s).") % {"tile": hand.win_tile}
    return message


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
def calculator_page(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    if "add" in data:
        data = with_added_tile(data)
    language = get_language() or "zh-hans"
    submitted = request.method == "POST" or "concealed" in data
    try:
        hand: HandInput | None = HandInput.from_data(data)
        outcome = evaluate(hand, language) if submitted else Outcome()
    except EngineError as error:  # the melds notation, read before the engine sees anything
        hand, outcome = None, Outcome(error=error.localized(language), error_field=top_field(error.field))
    counts = outcome.hand.counts if outcome.hand else {}
    context = {
        "data": data,
        "hand": hand,
        "outcome": outcome,
        "mode": hand.mode if hand else "win",
        "melds_text": hand.melds_text() if hand else data.get("melds", ""),
        "picker_rows": picker_rows(counts),
        "meld_kinds": [(kind, MELD_LABELS[kind], MELD_TEXT[kind]) for kind in MELD_KINDS],
        "win_by_choices": [(value, WIN_BY_LABELS[value]) for value in WIN_BY],
        "win_by": hand.win_by if hand else "self_draw",
        "flags": hand.flags if hand else frozenset(),
        "flag_names": FLAGS,
        "void_suit": data.get("void_suit", ""),
        "suits": list(SUIT_SHORT_LABELS.items()),
        "preset": data.get("preset", "chengdu"),
        "presets": preset_choices(),
        "preset_values": [value for value, _label in preset_choices()],
        "rule_fields": rule_fields(data, language),
    }
    template = "calculator/page.html#result" if getattr(request, "htmx", False) else "calculator/page.html"
    status = 400 if outcome.error and not getattr(request, "htmx", False) else 200
    return TemplateResponse(request, template, context, status=status)
