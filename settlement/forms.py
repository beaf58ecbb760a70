"""The round page's input: the round so far (hidden JSON) and the event being entered, as settle bodies.

Nothing is stored: every post carries the whole list of events, the seat names, the dealer and the rules,
and the server settles it again through ``settle_from_payload``, the API's own parser. This module only
turns the page's chips and boxes into one API event. It checks that a choice was made at all (a tap
forgotten); whether the event is possible is the engine's call.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from calculator.engine import (
    AFTER_KONG,
    DISCARD,
    LAST_TILE,
    ROBBING,
    SELF_DRAW,
    EngineError,
    Rules,
    fan_of_pattern,
)
from calculator.forms import in_language, parse_melds, rules_payload, tile_names

SEATS = (0, 1, 2, 3)
DEFAULT_NAMES = (_("East"), _("South"), _("West"), _("North"))
EVENT_TYPES = ("kong", "win", "draw", "escape")
KONG_KINDS = ("concealed", "added", "direct")
DRAW_STATUSES = ("huazhu", "not_ready", "ready")
TIAN_DI = ("tian_hu", "di_hu")
QUICK_PATTERNS = (
    "ping_hu",
    "dui_dui_hu",
    "qing_yi_se",
    "qi_dui",
    "long_qi_dui",
    "qing_dui",
    "jiang_dui",
    "dai_yao_jiu",
    "qing_qi_dui",
    "qing_yao_jiu",
    "qing_long_qi_dui",
)
MAX_GEN = 4


class FormProblem(ValueError):
    """A choice the page needs before it can build an event (a forgotten tap), in the page's words."""

    def __init__(self, field: str, message: Any):
        super().__init__(str(message))
        self.field = field
        self.message = message


def is_small_whole_number(text: str) -> bool:
    """ASCII digits only, and few of them: "²".isdigit() is true but int("²") fails, and int() refuses
    strings of more than 4,300 digits."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _json_list(raw: str, length: int | None = None) -> list[Any]:
    try:
        value = json.loads(raw) if raw else []
    except (ValueError, RecursionError):  # RecursionError: a hostile, deeply nested hidden field
        value = []
    if not isinstance(value, list) or (length is not None and len(value) != length):
        return []
    return value


def _seat(raw: Any) -> int | None:
    return int(raw) if str(raw) in {"0", "1", "2", "3"} else None


def _count(raw: Any, default: int = 0) -> int:
    text = str(raw or "").strip()
    return int(text) if is_small_whole_number(text) else default


@dataclass(frozen=True, slots=True)
class RoundInput:
    """The round as the page carries it between posts."""

    names: tuple[str, ...]
    dealer: int
    void_suits: tuple[str | None, ...]
    rules: dict[str, Any]
    events: tuple[dict[str, Any], ...]
    notes: tuple[str, ...]
    totals: tuple[int, ...]
    hand_number: int
    undone: tuple[tuple[dict[str, Any], str], ...] = ()  # (event, note) taken back by 撤销, last undone last

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RoundInput:
        events = tuple(event for event in _json_list(data.get("events", "")) if isinstance(event, dict))
        notes = [str(note) for note in _json_list(data.get("notes", ""))]
        totals = [value if isinstance(value, int) else 0 for value in _json_list(data.get("totals", ""), 4)]
        return cls(
            names=tuple(
                (str(data.get(f"name_{seat}", "")).strip()[:12] or str(DEFAULT_NAMES[seat])) for seat in SEATS
            ),
            dealer=_seat(data.get("dealer")) or 0,
            void_suits=tuple(
                data.get(f"void_{seat}") if data.get(f"void_{seat}") in ("m", "p", "s") else None
                for seat in SEATS
            ),
            rules=rules_payload(data),
            events=events,
            notes=tuple((notes + [""] * len(events))[: len(events)]),
            totals=tuple(totals or [0, 0, 0, 0]),
            hand_number=max(_count(data.get("hand_number"), 1), 1),
            undone=tuple(
                (entry[0], str(entry[1]))
                for entry in _json_list(data.get("undone", ""))
                if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], dict)
            ),
        )

    def payload(self, events: tuple[dict[str, Any], ...] | None = None) -> dict[str, Any]:
        """The body of ``POST /api/v1/settle/`` for these events (the round's own by default)."""
        return {
            "rules": self.rules,
            "dealer": self.dealer,
            "void_suits": list(self.void_suits),
            "events": list(self.events if events is None else events),
        }

    def table_rules(self) -> Rules:
        try:
            return Rules.from_dict(self.rules)
        except EngineError:
            return Rules()


HOW_BITS: Mapping[str, int] = {"self_draw": SELF_DRAW, "discard": DISCARD, "robbing": ROBBING}


def quick_fan(
    rules: Rules,
    *,
    pattern: str,
    gen: int,
    how: str,
    after_kong: bool,
    last_tile: bool,
    tian_di: str,
    language: str,
) -> tuple[int, str]:
    """The final fan of a win entered with the quick picker, and its breakdown in the page's language.

    The API takes such a win's final fan with every fan-bearing extra already in it (RULES.md section 4),
    so the engine's ``fan_of_pattern`` adds what the toggles turn on, by the table's rules.
    """
    situation = HOW_BITS[how] | (AFTER_KONG if after_kong else 0) | (LAST_TILE if last_tile else 0)
    reported, extras, fan = fan_of_pattern(
        rules, pattern, gen=gen, situation=situation, heavenly_key=tian_di or None
    )
    parts = [f"{in_language(reported, language)} {reported.fan}"]
    if gen:
        parts.append(str(_("%(gen)s gen") % {"gen": gen}))
    parts += [f"{in_language(extra, language)} +{extra.fan}" for extra in extras]
    return fan, " + ".join(parts)


def _hand(data: Mapping[str, Any], prefix: str, seat: int, *, winning: bool) -> dict[str, Any] | None:
    """Tiles typed for a seat, as the API's ``hand``: the last concealed tile is the winning one."""
    concealed = str(data.get(f"{prefix}tiles_{seat}", "")).strip()
    if not concealed:
        return None
    melds = [
        {"kind": meld.kind, "tile": meld.tile}
        for meld in parse_melds(str(data.get(f"{prefix}melds_{seat}", "")))
    ]
    hand: dict[str, Any] = {"concealed": concealed, "melds": melds}
    if winning:
        tiles = tile_names(concealed, f"tiles_{seat}")
        hand.update(concealed=list(tiles[:-1]), win_tile=tiles[-1] if tiles else "")
    return hand


def _kong(data: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    player = _seat(data.get("kong_player"))
    if player is None:
        raise FormProblem("kong_player", _("Choose who made the kong."))
    kind = data.get("kong_kind")
    if kind not in KONG_KINDS:
        raise FormProblem("kong_kind", _("Choose the kind of kong."))
    event: dict[str, Any] = {"type": "kong", "player": player, "kind": kind}
    if kind == "direct":
        feeder = _seat(data.get("kong_from"))
        if feeder is None:
            raise FormProblem("kong_from", _("Choose who discarded the tile for the direct kong."))
        event["from"] = feeder
    return event, ""


def _win(data: Mapping[str, Any], rules: Rules, language: str) -> tuple[dict[str, Any], str]:
    winners = [seat for seat in SEATS if data.get(f"winner_{seat}") in ("on", "true", "1")]
    if not winners:
        raise FormProblem("winners", _("Choose who won."))
    how_raw = str(data.get("win_how", ""))
    how, _sep, whose = how_raw.partition(":")
    if how not in ("self_draw", "discard", "robbing"):
        raise FormProblem("win_how", _("Choose how it was won: self-draw, on whose discard, or whose kong."))
    after_kong = data.get("after_kong") in ("on", "true", "1")
    last_tile = data.get("last_tile") in ("on", "true", "1")
    event: dict[str, Any] = {
        "type": "win",
        "from": _seat(whose) if how != "self_draw" else None,
        "after_kong": after_kong,
        "last_tile": last_tile,
        "winners": [],
    }
    if how == "robbing":
        event["robbing_kong"] = True
    notes = []
    for seat in winners:
        tian_di = data.get(f"tiandi_{seat}") if data.get(f"tiandi_{seat}") in TIAN_DI else ""
        entry: dict[str, Any] = {"player": seat}
        if tian_di:
            entry[tian_di] = True
        hand = _hand(data, "", seat, winning=True)
        if hand is not None:
            entry["hand"] = hand
            notes.append("")
        else:
            pattern = (
                data.get(f"pattern_{seat}") if data.get(f"pattern_{seat}") in QUICK_PATTERNS else "ping_hu"
            )
            fan, breakdown = quick_fan(
                rules,
                pattern=pattern,
                gen=min(_count(data.get(f"gen_{seat}")), MAX_GEN),
                how=how,
                after_kong=after_kong,
                last_tile=last_tile,
                tian_di=tian_di,
                language=language,
            )
            entry["fan"] = fan
            notes.append(breakdown)
        event["winners"].append(entry)
    return event, json.dumps(notes, ensure_ascii=False)


def _readiness(data: Mapping[str, Any], seats: tuple[int, ...]) -> list[dict[str, Any]]:
    players = []
    for seat in seats:
        hand = _hand(data, "draw", seat, winning=False)
        if hand is not None:
            players.append({"player": seat, "hand": hand})
            continue
        status = data.get(f"draw_{seat}")
        if status not in DRAW_STATUSES:
            raise FormProblem(
                f"draw_{seat}", _("Say for every player still in the hand: 花猪, 没叫 or 有叫.")
            )
        entry: dict[str, Any] = {"player": seat, "status": status}
        if status == "ready":
            entry["fan"] = max(_count(data.get(f"drawfan_{seat}"), 1), 1)
        players.append(entry)
    return players


def _draw(data: Mapping[str, Any], active: tuple[int, ...]) -> tuple[dict[str, Any], str]:
    return {"type": "draw", "players": _readiness(data, active)}, ""


ESCAPE_CHECKS_TILES = 4  # RULES.md 6: with 4 or fewer wall tiles left, readiness counts
# Tiles left when the box is empty: more than any wall holds, so the page knows nobody counted them.
TILES_LEFT_NOT_COUNTED = 99


def _escape(data: Mapping[str, Any], active: tuple[int, ...]) -> tuple[dict[str, Any], str]:
    player = _seat(data.get("escape_player"))
    if player is None:
        raise FormProblem("escape_player", _("Choose who left."))
    tiles_left = _count(data.get("tiles_left"), TILES_LEFT_NOT_COUNTED)
    event: dict[str, Any] = {"type": "escape", "player": player, "tiles_left": tiles_left}
    if tiles_left <= ESCAPE_CHECKS_TILES:
        event["players"] = _readiness(data, tuple(seat for seat in active if seat != player))
    return event, ""


def build_event(
    data: Mapping[str, Any], rules: Rules, active: tuple[int, ...], language: str
) -> tuple[dict[str, Any], str]:
    """The API event the page's choices describe, and its note (the quick picker's breakdown)."""
    kind = data.get("ev_type")
    if kind == "kong":
        return _kong(data)
    if kind == "win":
        return _win(data, rules, language)
    if kind == "draw":
        return _draw(data, active)
    if kind == "escape":
        return _escape(data, active)
    raise FormProblem("ev_type", _("Choose what happened: kong, win, draw or escape."))
