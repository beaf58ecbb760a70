"""The calculator page's input: what a browser posts, reshaped into the JSON body of the score and waits APIs.

Validation belongs to the engine (``score_from_payload``, ``waits_from_payload``): this module only turns
strings and checkboxes into that body, so a bad hand gets exactly the API's field and message on the page.
The one notation of its own is the melds field (``碰5p 暗杠3m``, ``web.notation.parse_melds``), because the
API has no text form for melds. No Django here: the offline engine reads the form in the browser with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from calculator.engine import HAND_TILES, WinBy
from web.notation import Meld, melds_payload, melds_text, parse_melds, rules_payload, tile_names

MODES = ("win", "waits")
FLAGS = ("after_kong", "last_tile", "tian_hu", "di_hu")
# The engine's ways to win in the page's order: a self-draw first, the default of the form.
WIN_BY = tuple(how.value for how in (WinBy.SELF_DRAW, WinBy.DISCARD, WinBy.ROBBING_KONG))


@dataclass(frozen=True, slots=True)
class HandInput:
    """One post of the calculator form, still as strings: the engine judges every value."""

    mode: str
    concealed: str
    win_tile: str
    melds: tuple[Meld, ...]
    win_by: str
    flags: frozenset[str]
    void_suit: str
    rules: dict[str, Any]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> HandInput:
        """Read a QueryDict (or any mapping of strings); raises EngineError only for the melds notation."""
        return cls(
            mode=data.get("mode", "win") if data.get("mode") in MODES else "win",
            concealed=data.get("concealed", "").strip(),
            win_tile=data.get("win_tile", "").strip(),
            melds=parse_melds(data.get("melds", "")),
            win_by=data.get("win_by", WIN_BY[0]).strip() or WIN_BY[0],
            flags=frozenset(flag for flag in FLAGS if data.get(flag) in ("on", "true", "1")),
            void_suit=data.get("void_suit", "").strip(),
            rules=rules_payload(data),
        )

    def concealed_and_win(self) -> tuple[tuple[str, ...], str | None]:
        """The concealed tiles and the winning tile; with no winning tile given, the last one typed wins.

        Raises the engine's EngineError (field ``concealed`` or ``win_tile``) for text that is not tiles.
        """
        concealed = tile_names(self.concealed, "concealed")
        if self.win_tile:
            win = tile_names(self.win_tile, "win_tile")
            return concealed, win[0] if len(win) == 1 else self.win_tile
        if self.mode == "win" and concealed and len(concealed) + 3 * len(self.melds) >= HAND_TILES:
            return concealed[:-1], concealed[-1]
        return concealed, None

    def tiles_missing(self) -> int:
        """How many tiles the hand still lacks, so a hand being built shows a hint rather than an error."""
        needed = HAND_TILES if self.mode == "win" else HAND_TILES - 1
        return max(needed - self.tiles_held(), 0)

    def tiles_held(self) -> int:
        """Every tile of the hand as a player counts them: a meld counts 3 (a kong's fourth is replaced)."""
        concealed, win = self.concealed_and_win()
        return len(concealed) + (win is not None and self.mode == "win") + 3 * len(self.melds)

    def payload(self) -> dict[str, Any]:
        """The JSON body of ``POST /api/v1/score/`` (mode ``win``) or ``/api/v1/waits/`` (mode ``waits``)."""
        concealed, win = self.concealed_and_win()
        body: dict[str, Any] = {
            "concealed": list(concealed),
            "melds": melds_payload(self.melds),
            "void_suit": self.void_suit or None,
            "rules": self.rules,
        }
        if self.mode == "waits":
            return body
        return {
            **body,
            "win_tile": win if win is not None else "",
            "win_by": self.win_by,
            **{flag: flag in self.flags for flag in FLAGS},
        }

    def melds_text(self) -> str:
        """The melds field as players write it (碰5p 暗杠3m), the way the page's script writes it too."""
        return melds_text(self.melds)
