"""The round page ``/round/``: record one hand's events as they happen and see every payment explained.

Nothing is stored and nobody logs in. The events so far travel in a hidden JSON field; every action
(preview, record, undo, next hand) posts the whole round plus the event being entered, and the server
settles it again with ``settle_from_payload``, the settle API's own parser, then renders the board. An
htmx request gets the ``board`` fragment of the same template, a plain post the whole page. An event the
engine rejects shows its message and leaves the list as it was.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.template.response import TemplateResponse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from calculator.engine import PATTERN_BY_KEY, EngineError
from calculator.forms import (
    SUIT_SHORT_LABELS,
    in_language,
    preset_choices,
    rule_fields,
)
from calculator.views import picker_rows
from settlement.engine import settle_from_payload

from .forms import (
    DRAW_STATUSES,
    EVENT_TYPES,
    KONG_KINDS,
    MAX_GEN,
    QUICK_PATTERNS,
    SEATS,
    TILES_LEFT_NOT_COUNTED,
    FormProblem,
    RoundInput,
    build_event,
)

REASON_LABELS: Mapping[str, Any] = {
    "win": gettext_lazy("Win"),
    "self_draw_bonus": gettext_lazy("Self-draw bonus"),
    "direct_kong": gettext_lazy("Direct kong"),
    "added_kong": gettext_lazy("Added kong"),
    "concealed_kong": gettext_lazy("Concealed kong"),
    "kong_transfer": gettext_lazy("Kong money handed over"),
    "huazhu": gettext_lazy("Flower pig"),
    "chajiao": gettext_lazy("Not ready at the draw"),
    "kong_refund": gettext_lazy("Kong money refunded"),
    "escape": gettext_lazy("Escape"),
    "win_forfeit": gettext_lazy("Winnings returned"),
}
EVENT_LABELS: Mapping[str, Any] = {
    "kong": gettext_lazy("Kong"),
    "win": gettext_lazy("Win"),
    "draw": gettext_lazy("Draw"),
    "escape": gettext_lazy("Escape"),
}
KONG_LABELS: Mapping[str, Any] = {
    "concealed": gettext_lazy("Concealed kong"),
    "added": gettext_lazy("Added kong"),
    "direct": gettext_lazy("Direct kong"),
}
STATUS_LABELS: Mapping[str, Any] = {
    "huazhu": gettext_lazy("Flower pig"),
    "not_ready": gettext_lazy("Not ready"),
    "ready": gettext_lazy("Ready"),
}


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    name: str
    dealer: bool
    won: bool
    escaped: bool
    net: int
    total: int
    void: str | None

    @property
    def active(self) -> bool:
        return not (self.won or self.escaped)

    @property
    def tiles_field(self) -> str:
        """The text box the tile picker of this seat's winning hand types into."""
        return f"tiles_{self.seat}"

    @property
    def discard_how(self) -> str:
        """The value of "won on this seat's discard" in the form's ``win_how`` choice."""
        return f"discard:{self.seat}"

    @property
    def robbing_how(self) -> str:
        return f"robbing:{self.seat}"


@dataclass(frozen=True, slots=True)
class EventView:
    """One event in the page's words: what happened, how each win scored, and who paid whom for what."""

    index: int
    title: str
    scores: tuple[str, ...]
    payments: tuple[tuple[str, str], ...]  # (reason, sentence)
    moves: tuple[tuple[str, int], ...]  # each seat's name and gain or loss in this event


def joined(names: Sequence[str]) -> str:
    return _(", ").join(names)


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else _("the house")


def event_title(summary: Mapping[str, Any], names: Sequence[str]) -> str:
    kind = summary["type"]
    if kind == "kong":
        title = _("%(player)s: %(kind)s") % {
            "player": names[summary["player"]],
            "kind": KONG_LABELS[summary["kind"]],
        }
        if summary.get("from") is not None:
            title += " " + _("(fed by %(feeder)s)") % {"feeder": names[summary["from"]]}
        return title
    if kind == "win":
        winners = joined([names[score["player"]] for score in summary["scores"] if score.get("won", True)])
        values = {"players": winners, "from": _name(names, summary.get("from"))}
        if summary.get("robbing_kong"):
            title = _("%(players)s rob %(from)s's kong") % values
        elif summary.get("from") is None:
            title = _("%(players)s self-draw") % values
        else:
            title = _("%(from)s discards, %(players)s win") % values
        flags = [
            label
            for flag, label in (("after_kong", _("after a kong")), ("last_tile", _("last tile")))
            if summary.get(flag)
        ]
        return title + (f" · {' · '.join(flags)}" if flags else "")
    if kind == "draw":
        return _("Draw: the wall is empty")
    tiles_left = summary.get("tiles_left")
    if not isinstance(tiles_left, int) or tiles_left >= TILES_LEFT_NOT_COUNTED:
        return _("%(player)s leaves") % {"player": names[summary["player"]]}
    return _("%(player)s leaves (%(tiles)s tiles left)") % {
        "player": names[summary["player"]],
        "tiles": tiles_left,
    }


def score_line(score: Mapping[str, Any], note: str, names: Sequence[str], language: str) -> str:
    """``南 清一色 3 + 1根 = 4番 ×8``: how a winner's fan was reached, from the tiles or the quick picker."""
    if score.get("source") == "hand" and score.get("pattern"):
        parts = [f"{in_language(PATTERN_BY_KEY[score['pattern']], language)} {score['pattern_fan']}"]
        if score.get("gen"):
            parts.append(_("%(gen)s gen") % {"gen": score["gen"]})
        parts += [f"{in_language(extra, language)} +{extra['fan']}" for extra in score.get("extras", ())]
        note = " + ".join(parts)
    values = {"fan": score["fan"], "multiplier": score["multiplier"]}
    total = _("%(fan)s fan ×%(multiplier)s") % values
    capped = " " + _("(capped)") if score.get("capped") else ""
    if not score.get("won", True):
        return _("%(player)s: claim not counted (截胡)") % {"player": names[score["player"]]}
    return f"{names[score['player']]} {note + ' = ' if note else ''}{total}{capped}"


def draw_lines(summary: Mapping[str, Any], names: Sequence[str]) -> tuple[str, ...]:
    lines = []
    for player in summary.get("players", ()):
        status = player.get("status")
        label = str(STATUS_LABELS.get(status, status))
        if status == "ready" and player.get("fan"):
            label += " " + _("%(fan)s fan") % {"fan": player["fan"]}
        lines.append(f"{names[player['player']]} {label}")
    return (" · ".join(lines),) if lines else ()


PAYMENT_SENTENCES = {  # (several payers, several receivers) -> the sentence
    (False, False): gettext_lazy("%(payers)s pays %(to)s %(points)s"),
    (True, False): gettext_lazy("%(payers)s each pay %(to)s %(points)s"),
    (False, True): gettext_lazy("%(payers)s pays %(to)s %(points)s each"),
}


def payment_lines(
    transfers: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> tuple[tuple[str, str], ...]:
    """One sentence per reason and amount: ``东、西、北 各付 南 2``, and where one player pays several the
    same (a flower pig, 退税) one sentence for him: ``北 付 东、南、西 各 16``."""
    by_receiver: dict[tuple[str, Any, int], list[Any]] = {}
    for transfer in transfers:
        key = (transfer["reason"], transfer["to"], transfer["points"])
        by_receiver.setdefault(key, []).append(transfer["from"])
    # A lone payer's lines merge across receivers; several payers keep their receiver in the key.
    by_payers: dict[tuple[Any, ...], list[Any]] = {}
    for (reason, receiver, points), payers in by_receiver.items():
        key = (reason, tuple(payers), points) + (() if len(payers) == 1 else (receiver,))
        by_payers.setdefault(key, []).append(receiver)
    lines = []
    for (reason, payers, points, *_receiver), receivers in by_payers.items():
        values = {
            "payers": joined([_name(names, payer) for payer in payers]),
            "to": joined([_name(names, receiver) for receiver in receivers]),
            "points": points,
        }
        sentence = PAYMENT_SENTENCES[(len(payers) > 1, len(receivers) > 1)] % values
        lines.append((str(REASON_LABELS.get(reason, reason)), sentence))
    return tuple(lines)


def event_views(
    result: Mapping[str, Any], notes: Sequence[str], names: Sequence[str], language: str
) -> tuple[EventView, ...]:
    views = []
    for summary in result["events"]:
        index = summary["index"]
        transfers = [transfer for transfer in result["transfers"] if transfer["event"] == index]
        moves = [0, 0, 0, 0]
        for transfer in transfers:
            if isinstance(transfer["from"], int):
                moves[transfer["from"]] -= transfer["points"]
            if isinstance(transfer["to"], int):
                moves[transfer["to"]] += transfer["points"]
        winner_notes = _notes_of(notes[index] if index < len(notes) else "")
        scores = tuple(
            score_line(score, winner_notes[position] if position < len(winner_notes) else "", names, language)
            for position, score in enumerate(summary.get("scores", ()))
        ) + (draw_lines(summary, names) if summary["type"] in ("draw", "escape") else ())
        views.append(
            EventView(
                index,
                event_title(summary, names),
                scores,
                payment_lines(transfers, names),
                tuple(zip(names, moves, strict=True)),
            )
        )
    return tuple(views)


def end_reason(result: Mapping[str, Any], names: Sequence[str]) -> str:
    """Why the hand is over (RULES.md 5): after three wins no 流局 checks follow, which players ask about."""
    if not result["finished"] or not result["events"]:
        return ""
    last = result["events"][-1]
    if last["type"] == "escape":
        return _("%(player)s left: the hand is over.") % {"player": names[last["player"]]}
    if last["type"] == "draw":
        return _("The wall is empty: flower pigs, readiness (查叫) and kong refunds (退税) are settled.")
    if len(result["state"]["winners"]) >= len(names) - 1:
        return _("Three players have won: the hand is over, with no draw checks (查叫) for the last one.")
    return _("A win ends the hand (normal mode).")


def _notes_of(note: str) -> list[str]:
    try:
        value = json.loads(note) if note else []
    except (ValueError, RecursionError):
        return []
    return [str(item) for item in value] if isinstance(value, list) else []


def seats_of(round_input: RoundInput, result: Mapping[str, Any] | None) -> tuple[Seat, ...]:
    state = result["state"] if result else {"winners": [], "escaped": []}
    net = result["net"] if result else [0, 0, 0, 0]
    return tuple(
        Seat(
            seat=seat,
            name=round_input.names[seat],
            dealer=seat == round_input.dealer,
            won=seat in state["winners"],
            escaped=seat in state["escaped"],
            net=net[seat],
            total=round_input.totals[seat] + net[seat],
            void=round_input.void_suits[seat],
        )
        for seat in SEATS
    )


SEAT_CHOICES = (
    "winner",
    "pattern",
    "gen",
    "tiandi",
    "tiles",
    "melds",
    "draw",
    "drawfan",
    "drawtiles",
    "drawmelds",
)


def seat_choices(choices: Mapping[str, Any]) -> tuple[dict[str, str], ...]:
    """Each seat's entries of the event being entered (``pattern_2`` ...), for the template to re-check."""
    return tuple({name: str(choices.get(f"{name}_{seat}", "")) for name in SEAT_CHOICES} for seat in SEATS)


def settle(round_input: RoundInput, events: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    return settle_from_payload(round_input.payload(events)).to_dict()


@dataclass(frozen=True, slots=True)
class Step:
    """What one post did to the round."""

    round_input: RoundInput
    result: dict[str, Any] | None
    preview: tuple[EventView, ...] = ()
    error: str = ""
    hint: str = ""
    keep_choices: bool = True


def apply_action(action: str, round_input: RoundInput, data: Mapping[str, Any], language: str) -> Step:
    """Undo, next hand, record or preview, each settling the round again; errors leave the round as it was."""
    try:
        result = settle(round_input, round_input.events)
    except EngineError as error:
        return Step(round_input, None, error=error.localized(language))
    if action == "undo" and round_input.events:
        shorter = replace(
            round_input,
            events=round_input.events[:-1],
            notes=round_input.notes[:-1],
            undone=(*round_input.undone, (round_input.events[-1], round_input.notes[-1])),
        )
        return Step(shorter, settle(shorter, shorter.events), keep_choices=False)
    if action == "redo" and round_input.undone:
        event, note = round_input.undone[-1]
        redone = replace(
            round_input,
            events=(*round_input.events, event),
            notes=(*round_input.notes, note),
            undone=round_input.undone[:-1],
        )
        try:
            return Step(redone, settle(redone, redone.events), keep_choices=False)
        except EngineError as error:
            return Step(round_input, result, error=error.localized(language))
    if action == "next" and result["finished"]:
        next_dealer = result["next_dealer"] if result["next_dealer"] is not None else round_input.dealer
        fresh = replace(
            round_input,
            dealer=next_dealer,
            events=(),
            notes=(),
            totals=tuple(total + net for total, net in zip(round_input.totals, result["net"], strict=True)),
            hand_number=round_input.hand_number + 1,
            undone=(),
        )
        return Step(fresh, settle(fresh, ()), keep_choices=False)
    if action not in ("add", "preview") or data.get("ev_type") is None:
        return Step(round_input, result)
    active = tuple(result["state"]["active"])
    try:
        event, note = build_event(data, round_input.table_rules(), active, language)
        base = without_robbed_kong(round_input, event)
        longer = replace(base, events=(*base.events, event), notes=(*base.notes, note), undone=())
        new_result = settle(longer, longer.events)
    except FormProblem as problem:
        if action == "preview":
            return Step(round_input, result, hint=str(problem.message))
        return Step(round_input, result, error=str(problem.message))
    except EngineError as error:
        return Step(round_input, result, error=error.localized(language))
    if action == "add":
        return Step(longer, new_result, keep_choices=False)
    preview = event_views(new_result, longer.notes, longer.names, language)[-1:]
    return Step(round_input, result, preview=preview)


def without_robbed_kong(round_input: RoundInput, event: Mapping[str, Any]) -> RoundInput:
    """The round less the added kong a robbing win takes back.

    RULES.md 4.5: a robbed kong is void (no kong money) and is not a kong event. At the table the 弯杠 is
    recorded as it is declared (three taps), before anyone says 抢杠; so robbing the seat whose added kong is
    the last event removes that kong.
    """
    last = round_input.events[-1] if round_input.events else {}
    robbed = (
        event.get("robbing_kong")
        and last.get("type") == "kong"
        and last.get("kind") == "added"
        and last.get("player") == event.get("from")
    )
    if not robbed:
        return round_input
    return replace(round_input, events=round_input.events[:-1], notes=round_input.notes[:-1])


@require_http_methods(["GET", "POST"])
def round_page(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else QueryDict()
    language = get_language() or "zh-hans"
    action = data.get("action", "preview")
    step = apply_action(action, RoundInput.from_data(data), data, language)
    round_input, result = step.round_input, step.result
    choices = data if step.keep_choices else QueryDict()
    seats = tuple(zip(seats_of(round_input, result), seat_choices(choices), strict=True))
    context = {
        "round": round_input,
        "result": result,
        "seats": seats,
        "events_json": json.dumps(list(round_input.events), ensure_ascii=False),
        "notes_json": json.dumps(list(round_input.notes), ensure_ascii=False),
        "totals_json": json.dumps(list(round_input.totals)),
        "undone_json": json.dumps([list(entry) for entry in round_input.undone], ensure_ascii=False),
        "events": event_views(result, round_input.notes, round_input.names, language) if result else (),
        "preview": step.preview,
        "error": step.error,
        "hint": step.hint,
        "finished": bool(result and result["finished"]),
        "end_reason": end_reason(result, round_input.names) if result else "",
        "dealer_name": round_input.names[round_input.dealer],
        "next_dealer": round_input.names[result["next_dealer"]]
        if result and result["next_dealer"] is not None
        else None,
        "choices": choices,
        "event_types": [(kind, EVENT_LABELS[kind]) for kind in EVENT_TYPES],
        "kong_kinds": [(kind, KONG_LABELS[kind]) for kind in KONG_KINDS],
        "draw_statuses": [(status, STATUS_LABELS[status]) for status in DRAW_STATUSES],
        "patterns": [(key, in_language(PATTERN_BY_KEY[key], language)) for key in QUICK_PATTERNS],
        "gens": range(MAX_GEN + 1),
        "picker_rows": picker_rows({}),
        "suits": list(SUIT_SHORT_LABELS.items()),
        "data": data,
        "preset": data.get("preset", "chengdu"),
        "presets": preset_choices(),
        "preset_values": [value for value, _label in preset_choices()],
        "rule_fields": rule_fields(data, language),
    }
    htmx = getattr(request, "htmx", False)
    template = "settlement/round.html#board" if htmx else "settlement/round.html"
    status = 400 if step.error and not htmx and action == "add" else 200
    return TemplateResponse(request, template, context, status=status)
