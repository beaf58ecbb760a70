"""The entry's view code: one function answers every tap of every page that enters a hand.

A page gives ``entry_response`` its request, its ``HandStore`` and its template (which extends
``base.html`` and includes ``web/entry/_entry.html``). The answer to a tap is the part that changed:

- ``preview`` (sent by every change of a choice): the action bar only, with the points the event would
  bring or what is still missing.
- ``record``, ``replace`` and ``remove`` (event ``edit`` changed in place or taken out: docs/pages.md,
  "Changing an event"), ``undo``, ``redo``, ``next``: ``web/entry/_update.html``, the action bar plus the
  header, the seats, this hand's events and the end card swapped out of band; ``entry.js`` resets the
  choices and greys out the seats the hand no longer offers. The form itself (chips, picker) is never sent
  again.
- ``?edit=K`` (改 without JavaScript; with it ``entry.js`` fills the form in place) renders the page with
  the entry filled in with event K's choices.
- Without JavaScript a write redirects to the page (so a reload never repeats it) and a refusal or a
  preview renders the whole page, with a 400 for a refusal.

A stale revision (another phone wrote first) answers with the current hand and a short message.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.http import HttpResponse, HttpResponseRedirect, QueryDict
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _

from calculator.engine import PATTERN_BY_KEY, EngineError
from settlement.engine import NEAR_THE_END, Drafted, DraftRefusal, HandDraft, RoundResult, RoundState, Settle
from web.htmx import HtmxHttpRequest
from web.language import page_language
from web.names import in_language
from web.seats import SEATS, SeatChoices, SeatView, seat_choices
from web.tiles import meld_tools, picker_config_json, picker_rows

from .events import (
    ADJUST_AMOUNTS,
    ADJUST_REASON_LABELS,
    ADJUST_REASONS,
    DRAW_STATUSES,
    EVENT_KINDS,
    KONG_KINDS,
    MAX_GEN,
    QUICK_PATTERNS,
    TICKED,
    ChoiceMissing,
    build_event,
    choices_of,
    table_rules,
)
from .explain import EVENT_LABELS, KONG_LABELS, STATUS_LABELS, EventView, end_reason, event_views
from .store import Change, Hand, HandStore, StaleHand, StoreRefusal, Written

MAX_INDEX_DIGITS = 3  # more than any hand's events: read as no event at all
WRITES = ("record", "replace", "remove", "undo", "redo", "next")
EDITS = ("replace", "remove")  # the writes of 改, on the event the form's ``edit`` names


@dataclass(frozen=True, slots=True)
class Board:
    """One render of the entry: the hand, its settlement (None while it has no event, or when the engine
    no longer accepts it: then ``error`` says why), and what the tap brought."""

    hand: Hand
    result: RoundResult | None
    finished: Hand | None = None  # the hand the end card explains
    finished_result: RoundResult | None = None
    error: str = ""
    notice: str = ""
    preview: tuple[EventView, ...] = ()
    hint: str = ""
    editing: int | None = None  # the event 改 opened, which the form now enters again


@dataclass(frozen=True, slots=True)
class EventEdit:
    """What 改 on one event opens: the choices that enter it again (JSON, for ``entry.js``), and the seats
    out of play and those not asked at a 流局 when it happened (``data-out`` / ``data-settled``)."""

    choices: str
    out: str
    settled: str


def settled(store: HandStore, hand: Hand) -> Board:
    """The hand as the store's table settles it (once; an empty hand needs no settling); a hand the
    engine no longer accepts (rules changed) shows its message."""
    if not hand.events:
        return Board(hand, None)
    try:
        result = store.settle(hand.draft)
    except EngineError as error:
        return Board(hand, None, error=error.localized(page_language(), hand.names))
    return Board(hand, result, *((hand, result) if result.finished else ()))


def written(done: Written, **extra: Any) -> Board:
    """The board of a write: the settlement the write made, rendered as it is (nothing settled again)."""
    return Board(done.hand, done.result, done.finished, done.finished_result, **extra)


def seats_of(hand: Hand, result: RoundResult | None, met: RoundState | None = None) -> tuple[SeatView, ...]:
    """The seats after the hand so far, or, given ``met`` (``result.before[k]``), as event k found them:
    who could act then (the totals stay the hand's)."""
    state = met if met is not None else result.state if result else None
    winners = state.winners if state else ()
    escaped = state.escaped if state else ()
    net = result.net if result else (0,) * len(SEATS)
    plays_on = table_rules(hand.rules).winners_play_on
    return tuple(
        SeatView(
            seat=seat,
            name=hand.names[seat],
            dealer=seat == hand.dealer,
            won=seat in winners,
            escaped=seat in escaped,
            net=net[seat],
            total=hand.totals[seat] + net[seat],
            void=hand.void_suits[seat],
            wins=winners.count(seat),
            plays_on=plays_on,
        )
        for seat in SEATS
    )


def choice_rows(seats: tuple[SeatView, ...], choices: Mapping[str, Any]) -> dict[str, SeatChoices]:
    """Every row of seat choices of the entry, re-checked from the posted choices (no-JS renders)."""
    how = str(choices.get("win_how", ""))
    winner = {seat.seat: choices.get(f"winner_{seat.seat}") in TICKED for seat in seats}

    def radio(name: str) -> SeatChoices:
        return seat_choices(seats, name=name, chosen=lambda seat: choices.get(name) == str(seat.seat))

    def claim(kind: str) -> SeatChoices:
        """点炮 by / 抢杠 of: a seat ticked as a winner cannot also be the one who discarded."""
        return seat_choices(
            seats,
            name="win_how",
            value=lambda seat: f"{kind}:{seat.seat}",
            chosen=lambda seat: how == f"{kind}:{seat.seat}",
            disabled=lambda seat: not seat.active or winner[seat.seat],
        )

    return {
        "kong_player": radio("kong_player"),
        "kong_from": radio("kong_from"),
        "winners": seat_choices(
            seats,
            name=lambda seat: f"winner_{seat.seat}",
            value=lambda seat: "on",
            chosen=lambda seat: winner[seat.seat],
            input_type="checkbox",
        ),
        "discard": claim("discard"),
        "robbing": claim("robbing"),
        "escape_player": radio("escape_player"),
        "adjust_from": radio("adjust_from"),
        "adjust_to": seat_choices(
            seats,
            name="adjust_to",
            chosen=lambda seat: choices.get("adjust_to") == str(seat.seat),
            disabled=lambda seat: False,  # RULES.md 4.8: anyone may receive one
        ),
    }


def seat_forms(
    seats: tuple[SeatView, ...], choices: Mapping[str, Any]
) -> list[tuple[SeatView, dict[str, str]]]:
    """Each seat with its entries of the event being entered (``pattern_2`` …), for a no-JS re-render."""
    names = (
        "pattern",
        "gen",
        "tiandi",
        "tiles",
        "melds",
        "draw",
        "drawpattern",
        "drawgen",
        "drawtiles",
        "drawmelds",
    )
    return [(seat, {name: str(choices.get(f"{name}_{seat.seat}", "")) for name in names}) for seat in seats]


def out_of(seats: tuple[SeatView, ...]) -> str:
    return " ".join(str(seat.seat) for seat in seats if not seat.active)


def not_asked(seats: tuple[SeatView, ...]) -> str:
    return " ".join(str(seat.seat) for seat in seats if not seat.checked_at_the_end)


def met_by(hand: Hand, result: RoundResult | None, index: int | None) -> tuple[SeatView, ...] | None:
    """The seats as event ``index`` found them, or None (no such event, or no settlement to read)."""
    if index is None or result is None or not 0 <= index < len(result.before):
        return None
    return seats_of(hand, result, result.before[index])


def event_edits(hand: Hand, result: RoundResult | None) -> tuple[EventEdit, ...]:
    """改 of each event of the hand, in order."""
    edits = []
    for index, (event, note) in enumerate(zip(hand.events, hand.notes, strict=True)):
        met = met_by(hand, result, index) or seats_of(hand, result)
        edits.append(EventEdit(json.dumps(choices_of(event, note)), out_of(met), not_asked(met)))
    return tuple(edits)


def entry_context(board: Board, choices: Mapping[str, Any], language: str) -> dict[str, Any]:
    """What ``web/entry/_entry.html`` and ``_update.html`` render."""
    hand, result = board.hand, board.result
    seats = seats_of(hand, result)
    # The choices are offered as the event being changed found the hand (who could still win then).
    choosing = met_by(hand, result, board.editing) or seats
    events = (
        event_views(result.to_dict(), hand.notes, hand.names, table_rules(hand.rules), language)
        if result
        else ()
    )
    rules = table_rules(hand.rules)
    finished, finished_result = board.finished, board.finished_result
    finished_seats = seats_of(finished, finished_result) if finished else ()
    kept_open = finished is hand  # a store that keeps the finished hand open: its events stay editable
    finished_answer = finished_result.to_dict() if finished_result and not kept_open else None
    return {
        "hand": hand,
        "seats": seats,
        "out_seats": out_of(seats),
        "settled_seats": not_asked(seats),
        "plays_on": rules.winners_play_on,
        "adjust_amounts": ADJUST_AMOUNTS,
        "adjust_reasons": [(reason, ADJUST_REASON_LABELS[reason]) for reason in ADJUST_REASONS],
        "rows": choice_rows(choosing, choices),
        "seat_forms": seat_forms(choosing, choices),
        "choices": choices,
        "hand_events": tuple(zip(events, event_edits(hand, result), strict=True)) if events else (),
        "editing": board.editing,
        "error": board.error,
        "notice": board.notice,
        "preview": board.preview,
        "hint": board.hint,
        "finished": finished,
        "finished_seats": finished_seats,
        "finished_events": (
            event_views(
                finished_answer, finished.notes, finished.names, table_rules(finished.rules), language
            )
            if finished and finished_answer
            else ()
        ),
        "end_reason": end_reason(finished_result, finished.names) if finished and finished_result else "",
        "next_dealer": next_dealer_name(board),
        "dealer_name": hand.names[hand.dealer],
        "event_kinds": [(kind, EVENT_LABELS[kind]) for kind in EVENT_KINDS],
        "kong_kinds": [(kind, KONG_LABELS[kind]) for kind in KONG_KINDS],
        "draw_statuses": [(status, STATUS_LABELS[status]) for status in DRAW_STATUSES],
        "patterns": [
            (key, in_language(PATTERN_BY_KEY[key], language))
            for key in QUICK_PATTERNS
            if key not in rules.left_out_patterns  # 幺九将对 off: no chip for what the table does not play
        ],
        "gens": range(MAX_GEN + 1),
        "near_the_end": NEAR_THE_END,
        "picker_rows": picker_rows({}),
        "picker_config": picker_config_json(),
        "meld_kinds": meld_tools(),
    }


def next_dealer_name(board: Board) -> str | None:
    """Who deals next, as the engine suggests it (or the new hand's dealer once a store has started it)."""
    if board.finished is None or board.finished_result is None:
        return None
    if board.finished is not board.hand:
        return board.hand.names[board.hand.dealer]
    seat = board.finished_result.next_dealer
    return board.hand.names[seat] if seat is not None else None


def _active(board: Board | None) -> tuple[int, ...]:
    """Who is asked at a 流局 or a late escape: those still in the hand now, or, while 改 is open, when the
    event being changed happened."""
    if board is None or board.result is None:
        return tuple(SEATS)
    result, editing = board.result, board.editing
    return result.before[editing].active if editing is not None else result.state.active


def edited(data: Mapping[str, Any]) -> int | None:
    """The event 改 opened (the form's ``edit``: its place in the hand, from 0), or None."""
    raw = str(data.get("edit", ""))
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= MAX_INDEX_DIGITS else None


def _editable(hand: Hand, index: int | None) -> int | None:
    return index if index is not None and index < len(hand.events) else None


def _preview(store: HandStore, hand: Hand, choices: Mapping[str, Any], language: str) -> Board:
    """The points the event being entered would bring (or, while 改 is open, what the event changed would
    bring, the whole hand settled again), or what it still lacks; nothing is written."""
    editing = _editable(hand, edited(choices))
    board = replace(settled(store, hand), editing=editing)
    if board.error or (board.finished is not None and editing is None):
        return board
    try:
        event, note = build_event(choices, table_rules(hand.rules), _active(board))
        if editing is None:
            changed, result = hand.draft.replace_robbed_kong(event, note, settle=store.settle)
        else:
            changed, result = hand.draft.edit(editing, event, note, settle=store.settle)
        shown = replace(hand, draft=changed)
        views = event_views(result.to_dict(), shown.notes, shown.names, table_rules(hand.rules), language)
    except ChoiceMissing as missing:
        return replace(board, hint=str(missing.message))
    except EngineError as error:
        return replace(board, error=error.localized(language, hand.names))
    return replace(board, preview=views[-1:] if editing is None else views[editing : editing + 1])


def _record(store: HandStore, choices: Mapping[str, Any], revision: int) -> Board:
    """The event entered, recorded: one write, one settlement (a 流局 lists the seats the entry answered
    for, and the engine says which one still in play was left out). A win that robs the 弯杠 entered last
    replaces it in the same write (the engine's ``replace_robbed_kong``), so no phone ever sees the robbed
    kong standing beside the win."""
    try:
        event, note = build_event(choices, table_rules(store.rules))
    except ChoiceMissing as missing:
        return replace(settled(store, store.load()), error=str(missing.message))

    def enter(draft: HandDraft, settle: Settle) -> Drafted:
        return draft.replace_robbed_kong(event, note, settle=settle)

    return written(store.write(Change({"enter": event, "note": note}, enter), revision=revision))


def _edit(store: HandStore, action: str, choices: Mapping[str, Any], revision: int) -> Board:
    """改's 保存 (event ``edit`` replaced by what the form now enters) or 删除 (taken out), the events after
    it kept: the draft settles the hand again as a whole and refuses what no longer settles. A 流局 or a
    late escape asks the seats still in play when it happened, so its hand is settled first."""
    index = edited(choices)
    if index is None:
        raise DraftRefusal(
            "no_such_event", field="event", index=choices.get("edit"), count=len(store.load().events)
        )
    if action == "remove":
        removal = Change({"remove": index}, lambda draft, settle: draft.remove(index, settle=settle))
        return written(store.write(removal, revision=revision))
    hand = store.load() if str(choices.get("ev_type")) in ("draw", "escape") else None
    board = replace(settled(store, hand), editing=_editable(hand, index)) if hand is not None else None
    if board is not None and board.error:
        return board
    try:
        event, note = build_event(choices, table_rules(store.rules), _active(board))
    except ChoiceMissing as missing:
        current = board or settled(store, store.load())
        return replace(current, editing=_editable(current.hand, index), error=str(missing.message))

    def change(draft: HandDraft, settle: Settle) -> Drafted:
        return draft.edit(index, event, note, settle=settle)

    asked = {"edit": index, "event": event, "note": note}
    return written(store.write(Change(asked, change), revision=revision))


CHANGES: Mapping[str, Change] = {
    "undo": Change({"undo": True}, lambda draft, settle: draft.undo(settle=settle)),
    "redo": Change({"redo": True}, lambda draft, settle: draft.redo(settle=settle)),
}


def posted_revision(data: Mapping[str, Any], store: HandStore) -> int:
    """The revision the page saw (a write without one is made against the hand as it is now)."""
    raw = str(data.get("revision", ""))
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else store.load().revision


def apply(store: HandStore, action: str, data: Mapping[str, Any], language: str) -> Board:
    """Carry out one tap on the store; a stale revision or a refusal leaves the hand as it is. A write
    reads nothing before it: the store reads the hand under its lock, and the page renders the write."""
    try:
        if action == "preview":
            return _preview(store, store.load(), data, language)
        if action == "record":
            return _record(store, data, posted_revision(data, store))
        if action in EDITS:
            return _edit(store, action, data, posted_revision(data, store))
        if action in CHANGES:
            return written(store.write(CHANGES[action], revision=posted_revision(data, store)))
        if action == "next":
            return written(store.next_hand(revision=posted_revision(data, store)))
    except StaleHand as stale:
        return replace(
            settled(store, stale.current), notice=_("Someone else changed this hand first: here it is now.")
        )
    except EngineError as error:
        current = store.load()
        return replace(
            settled(store, current),
            error=error.localized(language, current.names),
            editing=_editable(current, edited(data)) if action in EDITS else None,
        )
    except StoreRefusal as refusal:
        return replace(settled(store, store.load()), error=refusal.message)
    return settled(store, store.load())


def opened(store: HandStore, query: Mapping[str, Any]) -> Board:
    """The page as it is, or with 改 open on the event ``?edit=K`` names (the entry without JavaScript)."""
    hand = store.load()
    return replace(settled(store, hand), editing=_editable(hand, edited(query)))


def editing_choices(board: Board) -> Mapping[str, Any]:
    """The choices the form opens with: none, or those that enter again the event 改 opened."""
    if board.editing is None:
        return QueryDict()
    return choices_of(board.hand.events[board.editing], board.hand.notes[board.editing])


def entry_response(
    request: HtmxHttpRequest,
    store: HandStore,
    *,
    template: str,
    context: Callable[[Board], Mapping[str, Any]] = lambda board: {},
) -> HttpResponse:
    """The page (GET), or the answer to one tap (POST ``action``): see the module docstring."""
    language = page_language()
    data = request.POST if request.method == "POST" else QueryDict()
    action = str(data.get("action", "")) if request.method == "POST" else ""
    board = apply(store, action, data, language) if action else opened(store, request.GET)
    failed = bool(board.error) and action in WRITES
    if not request.htmx and action in WRITES and not failed:
        return HttpResponseRedirect(request.get_full_path(), status=303)
    choices = data if failed or action == "preview" else editing_choices(board)
    page = {**entry_context(board, choices, language), "entry_url": request.path, **context(board)}
    if request.htmx and (action == "preview" or failed):
        return TemplateResponse(request, "web/entry/_entry.html#bar", page)
    if request.htmx and action:
        return TemplateResponse(request, "web/entry/_update.html", page)
    return TemplateResponse(request, template, page, status=400 if failed else 200)
