"""From the entry's taps to one settle event (the API's own event object) and its note, and back.

``choices_of`` goes the other way: the taps that enter a recorded event again, which 改 fills the entry
with (docs/pages.md, "Changing an event"). Whether an event is possible is the engine's call; this module
only checks that a choice was made at all (a forgotten tap, ``ChoiceMissing``). A win or a ready hand
entered with the quick picker (pattern chip, 根, 天胡/地胡) goes to the engine as its final fan, computed
by the engine's ``fan_of_pattern`` from the table's rules and the toggles; the note keeps what was tapped
(``{"2": {"pattern": "qing_yi_se", "gen": 1}}``, keyed by seat) so the explanation is written again in the
reader's language, not stored in the writer's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
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
    NamedFan,
    Rules,
    fan_of_pattern,
)
from settlement.engine import NEAR_THE_END, DrawStatus, EventKind, KongKind
from web.notation import MELD_TEXT, Meld, melds_payload, melds_text, parse_melds, tile_names
from web.seats import SEATS, seat_number

EVENT_KINDS = tuple(EventKind)
# The kinds in the order players meet them (暗杠 / 弯杠 / 明杠), not the engine's.
KONG_KINDS = (KongKind.CONCEALED, KongKind.ADDED, KongKind.DIRECT)
DRAW_STATUSES = tuple(DrawStatus)
WIN_HOWS = ("self_draw", "discard", "robbing")
TIAN_DI = ("tian_hu", "di_hu")
# The quick picker's chips, the most common first (a page's choice of order, not a rule).
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
# An escape with the tiles-left box empty: more than any wall holds, so nobody's readiness is asked for
# and the history can tell that nobody counted.
TILES_LEFT_NOT_COUNTED = 99
TICKED = ("on", "true", "1")
# 罚分 (RULES.md 4.8): the sizes a table fines in, as chips (any other in the number box), and the reasons
# a Chengdu table gives, stored in its own words whatever the page's language (the history shows them).
ADJUST_AMOUNTS = (1, 2, 4, 8, 16)
ADJUST_REASONS = ("诈胡", "罚分", "其他")
OTHER_REASON = "其他"
ADJUST_REASON_LABELS: Mapping[str, Any] = {
    "诈胡": _("False win (诈胡)"),
    "罚分": _("Penalty (罚分)"),
    "其他": _("Other (其他)"),
}
ADJUST_PAYEES = ("each", "house")  # beside the four seats


class ChoiceMissing(ValueError):
    """A choice the entry needs before it can build an event (a forgotten tap), in the page's words."""

    def __init__(self, field: str, message: Any):
        super().__init__(str(message))
        self.field = field
        self.message = message


def _count(raw: Any, default: int = 0) -> int:
    """A small whole number from a box, or the default: "²" and a 5,000-digit string are not numbers."""
    text = str(raw or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else default


@dataclass(frozen=True, slots=True)
class QuickEntry:
    """A hand known by its pattern chip, 根 count and 天胡/地胡, as the quick picker entered it."""

    pattern: str = "ping_hu"
    gen: int = 0
    tian_di: str = ""

    @classmethod
    def from_choices(cls, data: Mapping[str, Any], seat: int, prefix: str = "") -> QuickEntry:
        pattern = data.get(f"{prefix}pattern_{seat}")
        tian_di = data.get(f"{prefix}tiandi_{seat}")
        return cls(
            pattern=pattern if pattern in QUICK_PATTERNS else "ping_hu",
            gen=min(_count(data.get(f"{prefix}gen_{seat}")), MAX_GEN),
            tian_di=tian_di if tian_di in TIAN_DI else "",
        )

    @classmethod
    def from_note(cls, raw: Any) -> QuickEntry | None:
        if not isinstance(raw, Mapping) or raw.get("pattern") not in QUICK_PATTERNS:
            return None
        gen, tian_di = raw.get("gen"), raw.get("tian_di")
        return cls(
            pattern=str(raw["pattern"]),
            gen=gen if isinstance(gen, int) and 0 <= gen <= MAX_GEN else 0,
            tian_di=tian_di if tian_di in TIAN_DI else "",
        )

    def to_note(self) -> dict[str, Any]:
        return {
            "pattern": self.pattern,
            "gen": self.gen,
            **({"tian_di": self.tian_di} if self.tian_di else {}),
        }

    def scored(self, rules: Rules, situation: int) -> tuple[NamedFan, tuple[NamedFan, ...], int]:
        """The engine's reading: the pattern as reported, its extras, and the final fan."""
        return fan_of_pattern(
            rules, self.pattern, gen=self.gen, situation=situation, heavenly_key=self.tian_di or None
        )


HOW_BITS: Mapping[str, int] = {"self_draw": SELF_DRAW, "discard": DISCARD, "robbing": ROBBING}


def win_situation(event: Mapping[str, Any]) -> int:
    """The engine's situation bits of a win event: how it was won and the 杠上 / 海底 toggles."""
    how = "robbing" if event.get("robbing_kong") else "self_draw" if event.get("from") is None else "discard"
    return (
        HOW_BITS[how]
        | (AFTER_KONG if event.get("after_kong") else 0)
        | (LAST_TILE if event.get("last_tile") else 0)
    )


def notes_of(note: str) -> dict[int, QuickEntry]:
    """The quick entries a note keeps, by seat; an empty or foreign note has none."""
    try:
        value = json.loads(note) if note else {}
    except (ValueError, RecursionError):
        return {}
    if not isinstance(value, dict):
        return {}
    entries = {seat_number(key): QuickEntry.from_note(raw) for key, raw in value.items()}
    return {seat: entry for seat, entry in entries.items() if seat is not None and entry is not None}


def _note(entries: Mapping[int, QuickEntry]) -> str:
    return json.dumps({str(seat): entry.to_note() for seat, entry in entries.items()}) if entries else ""


def table_rules(rules: Mapping[str, Any]) -> Rules:
    """The table's rules for the quick picker; rules the engine refuses are reported when settling."""
    try:
        return Rules.from_dict(dict(rules))
    except EngineError:
        return Rules()


def _hand(data: Mapping[str, Any], prefix: str, seat: int, *, winning: bool) -> dict[str, Any] | None:
    """Tiles entered for a seat, as the API's ``hand``; in a winning hand the last tile is the winning one."""
    concealed = str(data.get(f"{prefix}tiles_{seat}", "")).strip()
    if not concealed:
        return None
    melds = melds_payload(parse_melds(str(data.get(f"{prefix}melds_{seat}", "")), f"{prefix}melds_{seat}"))
    hand: dict[str, Any] = {"concealed": concealed, "melds": melds}
    if winning:
        tiles = tile_names(concealed, f"{prefix}tiles_{seat}")
        hand.update(concealed=list(tiles[:-1]), win_tile=tiles[-1] if tiles else "")
    return hand


def _kong(data: Mapping[str, Any], rules: Rules, asked: tuple[int, ...] | None) -> tuple[dict[str, Any], str]:
    player = seat_number(data.get("kong_player"))
    if player is None:
        raise ChoiceMissing("kong_player", _("Choose who made the kong."))
    kind = data.get("kong_kind")
    if kind not in KongKind:
        raise ChoiceMissing("kong_kind", _("Choose the kind of kong."))
    event: dict[str, Any] = {"type": "kong", "player": player, "kind": kind}
    if kind == KongKind.DIRECT:
        feeder = seat_number(data.get("kong_from"))
        if feeder is None:
            raise ChoiceMissing("kong_from", _("Choose who discarded the tile for the direct kong."))
        event["from"] = feeder
    return event, ""


def _win(data: Mapping[str, Any], rules: Rules, asked: tuple[int, ...] | None) -> tuple[dict[str, Any], str]:
    winners = [seat for seat in SEATS if data.get(f"winner_{seat}") in TICKED]
    if not winners:
        raise ChoiceMissing("winners", _("Choose who won."))
    how, _sep, whose = str(data.get("win_how", "")).partition(":")
    if how not in WIN_HOWS or (how != "self_draw" and seat_number(whose) is None):
        raise ChoiceMissing(
            "win_how", _("Choose how it was won: self-draw, on whose discard, or whose kong.")
        )
    event: dict[str, Any] = {
        "type": "win",
        "from": seat_number(whose) if how != "self_draw" else None,
        "after_kong": data.get("after_kong") in TICKED,
        "last_tile": data.get("last_tile") in TICKED,
        "winners": [],
    }
    if how == "robbing":
        event["robbing_kong"] = True
    quick: dict[int, QuickEntry] = {}
    for seat in winners:
        entry: dict[str, Any] = {"player": seat}
        hand = _hand(data, "", seat, winning=True)
        if hand is not None:
            entry["hand"] = hand
        else:
            quick[seat] = QuickEntry.from_choices(data, seat)
            entry["fan"] = quick[seat].scored(rules, win_situation(event))[2]
        tian_di = QuickEntry.from_choices(data, seat).tian_di
        if tian_di:
            entry[tian_di] = True
        event["winners"].append(entry)
    return event, _note(quick)


def _answered(data: Mapping[str, Any], seats: tuple[int, ...] | None) -> tuple[int, ...]:
    """The seats a 流局 asks: ``seats`` when the page knows them; else the ones the entry answered for
    (a status or tiles), which the engine checks against those still in play (it names one left out)."""
    if seats is not None:
        return seats
    return tuple(
        seat
        for seat in SEATS
        if data.get(f"draw_{seat}") in DrawStatus or str(data.get(f"drawtiles_{seat}", "")).strip()
    ) or tuple(SEATS)


def _readiness(
    data: Mapping[str, Any], rules: Rules, seats: tuple[int, ...]
) -> tuple[list[dict[str, Any]], dict[int, QuickEntry]]:
    """Each seat's 花猪 / 没叫 / 有叫 at a draw (or an escape near the end); 有叫 with its best fan."""
    players, quick = [], {}
    for seat in seats:
        hand = _hand(data, "draw", seat, winning=False)
        if hand is not None:
            players.append({"player": seat, "hand": hand})
            continue
        status = data.get(f"draw_{seat}")
        if status not in DrawStatus:
            raise ChoiceMissing(
                f"draw_{seat}", _("Say for every player still in the hand: 花猪, 没叫 or 有叫.")
            )
        entry: dict[str, Any] = {"player": seat, "status": status}
        if status == DrawStatus.READY:
            quick[seat] = QuickEntry.from_choices(data, seat, prefix="draw")
            entry["fan"] = quick[seat].scored(rules, 0)[2]
        players.append(entry)
    return players, quick


def _draw(data: Mapping[str, Any], rules: Rules, asked: tuple[int, ...] | None) -> tuple[dict[str, Any], str]:
    players, quick = _readiness(data, rules, _answered(data, asked))
    return {"type": "draw", "players": players}, _note(quick)


def _escape(
    data: Mapping[str, Any], rules: Rules, asked: tuple[int, ...] | None
) -> tuple[dict[str, Any], str]:
    player = seat_number(data.get("escape_player"))
    if player is None:
        raise ChoiceMissing("escape_player", _("Choose who left."))
    tiles_left = _count(data.get("tiles_left"), TILES_LEFT_NOT_COUNTED)
    event: dict[str, Any] = {"type": "escape", "player": player, "tiles_left": tiles_left}
    quick: dict[int, QuickEntry] = {}
    if tiles_left <= NEAR_THE_END:  # RULES.md 6: this near the end, the others' readiness counts
        others = tuple(seat for seat in _answered(data, asked) if seat != player)
        event["players"], quick = _readiness(data, rules, others)
    return event, _note(quick)


def _adjust(
    data: Mapping[str, Any], rules: Rules, asked: tuple[int, ...] | None
) -> tuple[dict[str, Any], str]:
    """罚分: who pays, to whom (a seat, 各家 or the house), how many b and why; the engine judges it."""
    payer = seat_number(data.get("adjust_from"))
    if payer is None:
        raise ChoiceMissing("adjust_from", _("Choose who pays."))
    raw_to = str(data.get("adjust_to", "each"))
    to: int | str | None = raw_to if raw_to in ADJUST_PAYEES else seat_number(raw_to)
    if to is None:
        raise ChoiceMissing("adjust_to", _("Choose who receives it: one player, each player or the house."))
    typed = str(data.get("adjust_points", "")).strip()
    amount = _count(typed, 0) if typed else _count(data.get("adjust_amount"), 0)
    if amount <= 0:
        raise ChoiceMissing("adjust_amount", _("Choose how much (in base points)."))
    reason = str(data.get("adjust_reason", ADJUST_REASONS[0]))
    if reason not in ADJUST_REASONS:
        reason = ADJUST_REASONS[0]
    words = str(data.get("adjust_note", "")).strip()
    if reason == OTHER_REASON and not words:
        raise ChoiceMissing("adjust_note", _("Say what the points are for."))
    text = words if reason == OTHER_REASON else f"{reason} · {words}" if words else reason
    return {"type": "adjust", "from": payer, "to": to, "amount": amount, "reason": text}, ""


Builder = Callable[[Mapping[str, Any], Rules, tuple[int, ...] | None], tuple[dict[str, Any], str]]
# EventKind is a StrEnum: the posted ev_type (a str) finds its builder.
BUILDERS: dict[str, Builder] = {
    EventKind.KONG: _kong,
    EventKind.WIN: _win,
    EventKind.DRAW: _draw,
    EventKind.ESCAPE: _escape,
    EventKind.ADJUST: _adjust,
}


def build_event(
    data: Mapping[str, Any], rules: Rules, asked: tuple[int, ...] | None = None
) -> tuple[dict[str, Any], str]:
    """The API event the entry's choices describe, and its note (the quick picker's taps, by seat).
    ``asked``: the seats a 流局 (or an escape near the end) asks for readiness, when the page has settled
    the hand already (a preview); a write passes none, so that the one settlement it makes is its own."""
    builder = BUILDERS.get(str(data.get("ev_type")))
    if builder is None:
        raise ChoiceMissing("ev_type", _("Choose what happened: kong, win, draw, escape or a penalty."))
    return builder(data, rules, asked)


# --- and back: the choices that enter an event again (改) -------------------------------------------------

Choices = dict[str, str]


def _tiles_back(hand: Mapping[str, Any], prefix: str, seat: int) -> Choices:
    """A seat's tiles box and melds box as ``_hand`` read them (a winning hand's winning tile last)."""
    concealed = hand.get("concealed", "")
    tiles = "".join(concealed) if isinstance(concealed, list | tuple) else str(concealed)
    melds = [Meld(str(meld.get("kind")), str(meld.get("tile"))) for meld in hand.get("melds") or ()]
    return {
        f"{prefix}tiles_{seat}": tiles + str(hand.get("win_tile") or ""),
        f"{prefix}melds_{seat}": melds_text(meld for meld in melds if meld.kind in _MELD_KINDS),
    }


def _quick_back(entry: QuickEntry | None, prefix: str, seat: int) -> Choices:
    if entry is None:
        return {}
    return {f"{prefix}pattern_{seat}": entry.pattern, f"{prefix}gen_{seat}": str(entry.gen)}


def _kong_back(event: Mapping[str, Any], quick: Mapping[int, QuickEntry]) -> Choices:
    feeder = event.get("from")
    return {
        "kong_player": str(event.get("player")),
        "kong_kind": str(event.get("kind")),
        **({"kong_from": str(feeder)} if feeder is not None else {}),
    }


def _win_back(event: Mapping[str, Any], quick: Mapping[int, QuickEntry]) -> Choices:
    whose = event.get("from")
    how = "self_draw" if whose is None else f"{'robbing' if event.get('robbing_kong') else 'discard'}:{whose}"
    choices: Choices = {"win_how": how}
    choices.update({flag: "on" for flag in ("after_kong", "last_tile") if event.get(flag)})
    for winner in event.get("winners") or ():
        seat = winner.get("player")
        choices[f"winner_{seat}"] = "on"
        hand = winner.get("hand")
        back = (
            _tiles_back(hand, "", seat)
            if isinstance(hand, Mapping)
            else _quick_back(quick.get(seat), "", seat)
        )
        choices.update(back)
        tian_di = next((key for key in TIAN_DI if winner.get(key)), "")
        choices[f"tiandi_{seat}"] = tian_di
    return choices


def _readiness_back(players: Any, quick: Mapping[int, QuickEntry]) -> Choices:
    choices: Choices = {}
    for player in players or ():
        seat = player.get("player")
        hand = player.get("hand")
        if isinstance(hand, Mapping):
            choices.update(_tiles_back(hand, "draw", seat))
            continue
        choices[f"draw_{seat}"] = str(player.get("status"))
        choices.update(_quick_back(quick.get(seat), "draw", seat))
    return choices


def _draw_back(event: Mapping[str, Any], quick: Mapping[int, QuickEntry]) -> Choices:
    return _readiness_back(event.get("players"), quick)


def _escape_back(event: Mapping[str, Any], quick: Mapping[int, QuickEntry]) -> Choices:
    tiles_left = event.get("tiles_left")
    counted = isinstance(tiles_left, int) and tiles_left < TILES_LEFT_NOT_COUNTED
    return {
        "escape_player": str(event.get("player")),
        "tiles_left": str(tiles_left) if counted else "",
        **_readiness_back(event.get("players"), quick),
    }


def _adjust_back(event: Mapping[str, Any], quick: Mapping[int, QuickEntry]) -> Choices:
    amount = event.get("amount")
    text = str(event.get("reason") or "")
    reason, _sep, words = text.partition(" · ")
    if reason not in ADJUST_REASONS or reason == OTHER_REASON:
        reason, words = OTHER_REASON, text
    return {
        "adjust_from": str(event.get("from")),
        "adjust_to": str(event.get("to")),
        **({"adjust_amount": str(amount)} if amount in ADJUST_AMOUNTS else {"adjust_points": str(amount)}),
        "adjust_reason": reason,
        "adjust_note": words,
    }


_MELD_KINDS = frozenset(MELD_TEXT)
BACK: dict[str, Callable[[Mapping[str, Any], Mapping[int, QuickEntry]], Choices]] = {
    EventKind.KONG: _kong_back,
    EventKind.WIN: _win_back,
    EventKind.DRAW: _draw_back,
    EventKind.ESCAPE: _escape_back,
    EventKind.ADJUST: _adjust_back,
}


def choices_of(event: Mapping[str, Any], note: str) -> Choices:
    """The entry's choices that ``build_event`` reads back as ``event`` and ``note`` (an event the API
    entered by its fan alone comes back as the quick picker's default, which the preview then shows)."""
    kind = str(event.get("type"))
    back = BACK.get(kind)
    return {"ev_type": kind, **(back(event, notes_of(note)) if back else {})}
