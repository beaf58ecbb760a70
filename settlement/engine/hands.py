"""What a hand is worth to the settlement: a winner's fan, and a player's readiness at a draw.

A hand given as tiles is scored by ``calculator.engine``; a fan or a status entered by hand is taken as
the player's word. Either way the rest of the settlement sees one ``WinScore`` or ``Readiness``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from calculator.engine import (
    BELOW_MIN_FAN,
    MAX_PAYMENT_POINTS,
    EngineError,
    Rules,
    composition_of,
    find_waits,
    multiplier_of,
    score_hand,
)

from .events import DrawStatus, PlayerReport, WinEvent, WinnerSpec


class WinScore(NamedTuple):
    """One winner's fan and what one payer owes for it (before 自摸加底), with how the fan was reached."""

    player: int
    fan: int
    points: int
    capped: bool
    source: str  # "hand": scored from tiles; "fan": entered by hand
    explained: Mapping[str, Any]  # the score as the API shows it, built once

    def to_dict(self) -> dict[str, Any]:
        return dict(self.explained)


def _win_score(
    player: int,
    fan: int,
    points: int,
    capped: bool,
    source: str,
    hand: Mapping[str, Any],
    composition: str | None = None,
) -> WinScore:
    pattern = hand.get("pattern") or {}
    explained = {
        "player": player,
        "fan": fan,
        "multiplier": multiplier_of(fan),
        "pattern": pattern.get("key"),
        "pattern_name": pattern.get("name"),
        "pattern_fan": pattern.get("fan"),
        "gen": hand.get("gen"),
        "extras": hand.get("extras", []),
        "sets": hand.get("sets", []),
        # The players' name of the hand's shape (十八罗汉, 清金钩 ...; RULES.md 3.1), for pages to show
        # beside the breakdown; ``pattern`` stays the table's key.
        "composition": composition,
        "points": points,
        "capped": capped,
        "source": source,
    }
    return WinScore(player, fan, points, capped, source, explained)


def score_winner(
    event: WinEvent, position: int, *, win_by: str, void_suit: str | None, rules: Rules
) -> WinScore:
    """The fan of the event's winner at ``position``: scored from his tiles, or as entered. A hand that
    does not win is an error about ``events[index].winners[position].hand``.

    The checks below name the field within the winner (``fan``, ``hand``); the winner's path is joined to it
    here, only for an error: it is not built for each of the many winners a replay scores."""
    winner = event.winners[position]
    try:
        return (
            _entered(winner, rules)
            if winner.hand is None
            else _scored(winner, event, win_by, void_suit, rules)
        )
    except EngineError as error:
        raise error.within(f"events[{event.index}].winners[{position}]", event=event.index) from None


def _scored(
    winner: WinnerSpec, event: WinEvent, win_by: str, void_suit: str | None, rules: Rules
) -> WinScore:
    """The winner's hand scored by the calculator: a win at or above 起胡, within the payment bound."""
    assert winner.hand is not None  # noqa: S101 - called for a winner who gave his hand
    try:
        result = score_hand(
            concealed=winner.hand.concealed,
            win_tile=winner.hand.win_tile,
            melds=winner.hand.melds,
            win_by=win_by,
            after_kong=event.after_kong,
            last_tile=event.last_tile,
            tian_hu=winner.tian_hu,
            di_hu=winner.di_hu,
            void_suit=void_suit,
            rules=rules,
        )
    except EngineError as error:
        raise error.within("hand") from None
    if result.reason_code == BELOW_MIN_FAN:
        _check_min_fan(winner.player, result.fan, rules, "hand")
    if not result.win:
        raise EngineError(
            "hand_does_not_win",
            field="hand",
            player=winner.player,
            reason=result.reason,
            reason_zh=result.reason_zh,
        )
    check_payment(result.points, "hand", None)
    assert result.pattern is not None  # noqa: S101 - a win has its pattern
    shape = composition_of(result.pattern.key, [meld["kind"] for meld in winner.hand.melds])
    return _win_score(
        winner.player,
        result.fan,
        result.points,
        result.capped,
        "hand",
        result.to_dict(),
        shape.key if shape else None,
    )


def _check_min_fan(player: int, fan: int, rules: Rules, field: str) -> None:
    """起胡 (RULES.md 3.6): a win below ``min_fan_to_win`` is refused, naming the winner, fan and minimum."""
    if fan < rules.min_fan_to_win:
        raise EngineError(
            "win_below_min_fan", field=field, player=player, fan=fan, minimum=rules.min_fan_to_win
        )


def _entered(winner: WinnerSpec, rules: Rules) -> WinScore:
    player, fan = winner.player, winner.fan
    assert fan is not None  # noqa: S101 - the parser guarantees a fan without a hand
    _check_min_fan(player, fan, rules, "fan")
    points = check_payment(rules.amount(fan), "fan", None)
    return _win_score(player, fan, points, points < rules.base_points * multiplier_of(fan), "fan", {})


def check_payment(points: int, path: str, index: int | None) -> int:
    """A fan-based amount no real table reaches is refused (``limits.MAX_PAYMENT_POINTS``), naming the fan
    or the hand that makes it, before any total can overflow (a winner's, by ``fan`` or ``hand`` alone:
    ``score_winner`` joins his path to it)."""
    if points <= MAX_PAYMENT_POINTS:
        return points
    raise EngineError("payment_too_large", field=path, event=index, points=points, maximum=MAX_PAYMENT_POINTS)


class Readiness(NamedTuple):
    """A player's position at a 流局: 花猪, not ready, or ready with his best possible fan (RULES.md 3.4)."""

    player: int
    status: DrawStatus
    fan: int | None
    points: int  # what a not-ready player pays him at 查大叫: amount(best fan), 0 when not ready
    source: str
    waits: Mapping[str, Any] = MappingProxyType({})

    @property
    def ready(self) -> bool:
        return self.status is DrawStatus.READY

    @property
    def huazhu(self) -> bool:
        return self.status is DrawStatus.HUAZHU

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "status": self.status.value,
            "fan": self.fan,
            "multiplier": None if self.fan is None else multiplier_of(self.fan),
            "points": self.points,
            "source": self.source,
            **(
                {
                    "waits": self.waits.get("waits", []),
                    "best": self.waits.get("best"),
                    "discards": self.waits.get("discards", []),
                }
                if self.waits
                else {}
            ),
        }


def readiness(
    report: PlayerReport, *, void_suit: str | None, rules: Rules, path: str, index: int
) -> Readiness:
    """Decide 花猪 / ready / best fan from the player's tiles, or take the status as entered."""
    if report.hand is None:
        assert report.status is not None  # noqa: S101 - the parser guarantees a status without a hand
        fan = report.fan if report.status is DrawStatus.READY else None
        if fan is not None and fan < rules.min_fan_to_win:
            raise EngineError(
                "ready_below_min_fan",
                field=f"{path}.fan",
                event=index,
                player=report.player,
                fan=fan,
                minimum=rules.min_fan_to_win,
            )
        points = 0 if fan is None else check_payment(rules.amount(fan), f"{path}.fan", index)
        return Readiness(report.player, report.status, fan, points, "status")
    try:
        result = find_waits(
            concealed=report.hand.concealed, melds=report.hand.melds, void_suit=void_suit, rules=rules
        )
    except EngineError as error:
        raise error.within(f"{path}.hand", event=index) from None
    if result.huazhu:
        return Readiness(report.player, DrawStatus.HUAZHU, None, 0, "hand", result.to_dict())
    if result.ready and result.best is not None:
        fan = int(result.best.fan)
        points = check_payment(rules.amount(fan), f"{path}.hand", index)
        return Readiness(report.player, DrawStatus.READY, fan, points, "hand", result.to_dict())
    return Readiness(report.player, DrawStatus.NOT_READY, None, 0, "hand", result.to_dict())
