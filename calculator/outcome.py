"""What the calculator form's hand comes to: a posted form (strings) in, what the result card shows out.

No Django here, only the engine and ``web.notation`` / ``web.names``, because two places run it: the
calculator page's view on the server, and the browser's offline engine when the phone has no network
(Pyodide runs this module and what it imports, served by ``pwa.bundle``; docs/offline.md). One engine,
so a hand gets the same fan, points and messages either way.

1. Read the form (``HandInput.from_data``): only the melds notation can fail here.
2. Read the tiles (``read_hand``): text that is not tiles fails here, naming its field.
3. Too few tiles yet: how many are missing, a hint rather than an error.
4. Score the win or find the waits through the API's request parsers (``score_from_payload``,
   ``waits_from_payload``), so the page and the API give the same answers and the same messages.
5. The engine's names in the page's language, the self-draw bonus each payer adds, sets and waits as
   tile names.

An engine error at any step becomes its message in the page's language and the form field it belongs to.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from calculator.engine import (
    PATTERN_BY_KEY,
    EngineError,
    Rules,
    WinBy,
    composition_of,
    score_from_payload,
    waits_from_payload,
)
from web.names import composition_label, in_language, is_chinese
from web.notation import ReadHand, read_hand, sorted_tiles, tile_names

from .hand_input import HandInput


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one evaluation of the form gives: a score, waits, a hint of tiles missing, or an error."""

    hand: ReadHand | None = None
    score: Mapping[str, Any] | None = None
    waits: Mapping[str, Any] | None = None
    missing: int = 0
    error: str = ""
    error_field: str = ""


def work_out(
    data: Mapping[str, Any], language: str, *, submitted: bool = True
) -> tuple[HandInput | None, Outcome]:
    """The form read and, once submitted, worked out; the hand is None when the form itself cannot be read."""
    try:
        hand = HandInput.from_data(data)
    except EngineError as error:  # the melds notation, read before the engine sees anything
        return None, failed(error, language)
    return hand, evaluate(hand, language) if submitted else Outcome()


def evaluate(hand: HandInput, language: str) -> Outcome:
    read = None
    try:
        concealed, win = hand.concealed_and_win()
        read = read_hand(concealed, win, hand.melds)
        missing = hand.tiles_missing()
        if missing:
            return Outcome(read, missing=missing)
        if hand.mode == "waits":
            return Outcome(read, waits=present_waits(waits_from_payload(hand.payload()).to_dict(), language))
        payload = hand.payload()
        score = score_from_payload(payload).to_dict()
        melds = [meld["kind"] for meld in payload.get("melds", ())]
        return Outcome(read, score=present_score(score, language, self_draw_bonus(hand), melds))
    except EngineError as error:
        return failed(error, language, read)


def failed(error: EngineError, language: str, hand: ReadHand | None = None) -> Outcome:
    return Outcome(hand, error=error.localized(language), error_field=top_field(error.field))


def top_field(field: str) -> str:
    """The form field an engine field belongs to: ``melds[1].tile`` is the melds box."""
    return field.split(".")[0].split("[")[0]


def self_draw_bonus(hand: HandInput) -> int:
    """What each payer adds on a self-draw (the engine's 自摸加底): the score API leaves it out."""
    if hand.mode != "win" or hand.win_by != WinBy.SELF_DRAW:
        return 0
    return Rules.from_dict(hand.rules).self_draw_bonus


def present_score(
    result: Mapping[str, Any], language: str, jia_di: int = 0, melds: Iterable[str] = ()
) -> dict[str, Any]:
    """The score response with the page's words beside the engine's keys, what each payer pays, and the
    players' name of the composition (十八罗汉, 清金钩 ...) when it has one."""
    if not result["win"]:
        chinese = is_chinese(language) and result["reason_zh"]
        return {**result, "reason_shown": result["reason_zh"] if chinese else result["reason"]}
    rows = [
        {
            "label": label,
            "zh": item["name"] if label != item["name"] else "",
            "name": item["name"],
            "fan": item["fan"],
        }
        for item in (result["pattern"], *result["extras"])
        for label in (in_language(item, language),)
    ]
    return {
        **result,
        "rows": rows,
        "set_tiles": [list(sorted_tiles(tile_names(group, "sets"))) for group in result.get("sets", ())],
        "fan_zero_based": result["fan"] - 1,
        "jia_di": jia_di,
        "paid": result["points"] + jia_di,
        "composition": _composition(result["pattern"]["key"], tuple(melds), language),
    }


def _composition(pattern_key: str, melds: tuple[str, ...], language: str) -> str:
    found = composition_of(pattern_key, melds)
    return composition_label(found, language) if found else ""


def present_waits(result: Mapping[str, Any], language: str) -> dict[str, Any]:
    """The waits response with each wait's pattern named in the page's language."""

    def label(key: str) -> str:
        return in_language(PATTERN_BY_KEY[key], language) if key in PATTERN_BY_KEY else key

    def waits_of(waits: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [{**wait, "label": label(wait["pattern"])} for wait in waits]

    discards = [
        {"discard": entry["discard"], "waits": waits_of(entry["waits"])}
        for entry in result.get("discards") or ()
    ]
    return {**result, "wait_rows": waits_of(result["waits"]), "discard_rows": discards}


def work_out_json(form: str, language: str) -> str:
    """The browser's entry (static/js/engine-worker.js): the form's fields as a JSON object in, the card's
    values as JSON out, with the hand as the picker script adopts it."""
    _hand, outcome = work_out(json.loads(form), language)
    return json.dumps(
        {
            "hand": outcome.hand.state() if outcome.hand else None,
            "score": outcome.score,
            "waits": outcome.waits,
            "missing": outcome.missing,
            "error": outcome.error,
            "error_field": outcome.error_field,
        },
        ensure_ascii=False,
    )
