"""Every point of a hand in words: each event's title, how each win scored, who paid whom for what.

Everything here reads the engine's settle result; nothing is decided again. Names are the table's; the
quick picker's taps (the event's note) are explained through the engine's ``fan_of_pattern`` in the
reader's language, matched to each winner by seat, never by position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from calculator.engine import COMPOSITION_BY_KEY, PATTERN_BY_KEY, Rules, composition_of
from settlement.engine import DrawStatus, DrawSummary, EscapeSummary, EventKind, KongKind, Reason, RoundResult
from web.names import composition_label, in_language

from .events import TILES_LEFT_NOT_COUNTED, QuickEntry, notes_of, win_situation

# The players' word for each value of the engine's closed sets (tests/web: every value has one).
REASON_LABELS: Mapping[str, Any] = {
    Reason.WIN: gettext_lazy("Win"),
    Reason.SELF_DRAW_BONUS: gettext_lazy("Self-draw bonus"),
    Reason.DIRECT_KONG: gettext_lazy("Direct kong"),
    Reason.ADDED_KONG: gettext_lazy("Added kong"),
    Reason.CONCEALED_KONG: gettext_lazy("Concealed kong"),
    Reason.KONG_TRANSFER: gettext_lazy("Kong money handed over"),
    Reason.HUAZHU: gettext_lazy("Flower pig"),
    Reason.CHAJIAO: gettext_lazy("Not ready at the draw"),
    Reason.KONG_REFUND: gettext_lazy("Kong money refunded"),
    Reason.ESCAPE: gettext_lazy("Escape"),
    Reason.WIN_FORFEIT: gettext_lazy("Winnings returned"),
    Reason.ADJUST: gettext_lazy("Penalty"),
}
EVENT_LABELS: Mapping[str, Any] = {
    EventKind.KONG: gettext_lazy("Kong"),
    EventKind.WIN: gettext_lazy("Win"),
    EventKind.DRAW: gettext_lazy("Draw"),
    EventKind.ESCAPE: gettext_lazy("Escape"),
    EventKind.ADJUST: gettext_lazy("Penalty"),
}
KONG_LABELS: Mapping[str, Any] = {
    KongKind.CONCEALED: gettext_lazy("Concealed kong"),
    KongKind.ADDED: gettext_lazy("Added kong"),
    KongKind.DIRECT: gettext_lazy("Direct kong"),
}
STATUS_LABELS: Mapping[str, Any] = {
    DrawStatus.HUAZHU: gettext_lazy("Flower pig"),
    DrawStatus.NOT_READY: gettext_lazy("Not ready"),
    DrawStatus.READY: gettext_lazy("Ready"),
}
PAYMENT_SENTENCES = {  # (several payers, several receivers) -> the sentence
    (False, False): gettext_lazy("%(payers)s pays %(to)s %(points)s"),
    (True, False): gettext_lazy("%(payers)s each pay %(to)s %(points)s"),
    (False, True): gettext_lazy("%(payers)s pays %(to)s %(points)s each"),
}


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
    if kind == "adjust":
        return _("%(player)s: penalty (%(reason)s)") % {
            "player": names[summary["player"]],
            "reason": summary["reason"],
        }
    tiles_left = summary.get("tiles_left")
    if not isinstance(tiles_left, int) or tiles_left >= TILES_LEFT_NOT_COUNTED:
        return _("%(player)s leaves") % {"player": names[summary["player"]]}
    return _("%(player)s leaves (%(tiles)s tiles left)") % {
        "player": names[summary["player"]],
        "tiles": tiles_left,
    }


def quick_parts(entry: QuickEntry, rules: Rules, situation: int, language: str) -> list[str]:
    """``清一色 3``, ``1根``, ``杠上花 +1``: the engine's reading of a quick entry, part by part."""
    reported, extras, _fan = entry.scored(rules, situation)
    parts = [f"{in_language(reported, language)} {reported.fan}"]
    if entry.gen:
        parts.append(_("%(gen)s gen") % {"gen": entry.gen})
    return parts + [f"{in_language(extra, language)} +{extra.fan}" for extra in extras]


def hand_parts(score: Mapping[str, Any], language: str) -> list[str]:
    """The same parts for a hand the engine scored from its tiles."""
    parts = [f"{in_language(PATTERN_BY_KEY[score['pattern']], language)} {score['pattern_fan']}"]
    if score.get("gen"):
        parts.append(_("%(gen)s gen") % {"gen": score["gen"]})
    return parts + [f"{in_language(extra, language)} +{extra['fan']}" for extra in score.get("extras", ())]


def score_text(
    score: Mapping[str, Any],
    entry: QuickEntry | None,
    situation: int,
    rules: Rules,
    language: str,
    kongs: int = 0,
) -> str:
    """``清一色 3 + 1根 = 4番 ×8``: a winner's fan as reached, from the tiles or the quick picker (or only
    ``2番 ×2`` for a win entered by its fan through the API), then the players' name of its shape
    (``· 十八罗汉``) when it has one; ``kongs``: the winner's kongs standing in the hand."""
    shape = None
    if score.get("source") == "hand" and score.get("pattern"):
        parts = hand_parts(score, language)
        shape = COMPOSITION_BY_KEY.get(score.get("composition") or "")
    elif entry is not None:
        parts = quick_parts(entry, rules, situation, language)
        # A quick entry names no melds, but the hand's kong events are his melds: four of them and the
        # chip tapped make the shape of 十八罗汉 (the golden hooks need his pungs, only a tile entry's).
        shape = composition_of(entry.pattern, ("kong",) * kongs)
    else:
        parts = []
    total = _("%(fan)s fan ×%(multiplier)s") % {"fan": score["fan"], "multiplier": score["multiplier"]}
    capped = " " + _("(capped)") if score.get("capped") else ""
    named = f" · {composition_label(shape, language)}" if shape else ""
    return f"{' + '.join(parts) + ' = ' if parts else ''}{total}{capped}{named}"


def score_line(
    score: Mapping[str, Any],
    entry: QuickEntry | None,
    situation: int,
    rules: Rules,
    names: Sequence[str],
    language: str,
    kongs: int = 0,
) -> str:
    """``南 清一色 3 + 1根 = 4番 ×8``: one winner's line of an event."""
    player = names[score["player"]]
    if not score.get("won", True):
        return _("%(player)s: claim not counted (截胡)") % {"player": player}
    return f"{player} {score_text(score, entry, situation, rules, language, kongs)}"


def draw_lines(
    summary: Mapping[str, Any],
    entries: Mapping[int, QuickEntry],
    rules: Rules,
    names: Sequence[str],
    language: str,
) -> tuple[str, ...]:
    lines = []
    for player in summary.get("players", ()):
        status = player.get("status")
        label = str(STATUS_LABELS.get(status, status))
        if status == "ready" and player.get("fan"):
            entry = entries.get(player["player"])
            how = " + ".join(quick_parts(entry, rules, 0, language)) + " = " if entry else ""
            label += " " + how + _("%(fan)s fan") % {"fan": player["fan"]}
        lines.append(f"{names[player['player']]} {label}")
    return (" · ".join(lines),) if lines else ()


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


def moves_of(transfers: Sequence[Mapping[str, Any]], seats: int) -> list[int]:
    """Each seat's gain or loss in these transfers (the house is nobody's seat)."""
    moves = [0] * seats
    for transfer in transfers:
        if isinstance(transfer["from"], int):
            moves[transfer["from"]] -= transfer["points"]
        if isinstance(transfer["to"], int):
            moves[transfer["to"]] += transfer["points"]
    return moves


def event_views(
    result: Mapping[str, Any], notes: Sequence[str], names: Sequence[str], rules: Rules, language: str
) -> tuple[EventView, ...]:
    views = []
    kongs = [0] * len(names)  # each seat's kongs standing so far: a quick entry's melds
    for summary in result["events"]:
        index = summary["index"]
        if summary["type"] == "kong":
            kongs[summary["player"]] += 1  # a robbed 弯杠 is void, never recorded (RULES.md 4.5)
        transfers = [transfer for transfer in result["transfers"] if transfer["event"] == index]
        entries = notes_of(notes[index] if index < len(notes) else "")
        situation = win_situation(summary)
        scores = tuple(
            score_line(
                score, entries.get(score["player"]), situation, rules, names, language, kongs[score["player"]]
            )
            for score in summary.get("scores", ())
        ) + (
            draw_lines(summary, entries, rules, names, language)
            if summary["type"] in ("draw", "escape")
            else ()
        )
        views.append(
            EventView(
                index,
                event_title(summary, names),
                scores,
                payment_lines(transfers, names),
                tuple(zip(names, moves_of(transfers, len(names)), strict=True)),
            )
        )
    return tuple(views)


def end_reason(result: RoundResult, names: Sequence[str]) -> str:
    """Why the hand is over (RULES.md 5): after three wins no 流局 checks follow, which players ask about."""
    if not result.finished or not result.events:
        return ""
    last = result.events[-1]
    if result.adjustment_round:
        return _("Penalties only: no hand was played.")
    if isinstance(last, EscapeSummary):
        return _("%(player)s left: the hand is over.") % {"player": names[last.player]}
    if isinstance(last, DrawSummary):
        return _("The wall is empty: flower pigs, readiness (查叫) and kong refunds (退税) are settled.")
    if len(result.winners) >= len(names) - 1:
        return _("Three players have won: the hand is over, with no draw checks (查叫) for the last one.")
    return _("A win ends the hand (normal mode).")
