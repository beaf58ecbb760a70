"""What a form posts, read as the API's body: tiles, melds as players write them, the house-rules fields.

No Django here (the engine and the standard library only): the browser's offline engine runs this module
in Pyodide beside the engine (docs/offline.md), so a hand typed offline is read exactly as the server
reads it. The engine is the only tile parser (``parse_tiles``); the one notation of our own is the melds
field (``碰5p 暗杠3m``), because the API has no text form for melds.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from calculator.engine import (
    MELD_SIZES,
    OPTIONS,
    TILE_NAMES,
    Catalogue,
    EngineError,
    MeldKind,
    Message,
    Preset,
    parse_tiles,
)

# Every word a player may type for a meld kind, and the one the page writes back.
MELD_TEXT: Mapping[str, str] = {
    MeldKind.PUNG: "碰",
    MeldKind.KONG_DIRECT: "明杠",
    MeldKind.KONG_ADDED: "弯杠",
    MeldKind.KONG_CONCEALED: "暗杠",
}
MELD_WORDS: Mapping[str, str] = {
    **{word: str(kind) for kind, word in MELD_TEXT.items()},
    "直杠": MeldKind.KONG_DIRECT.value,
    "面下杠": MeldKind.KONG_ADDED.value,
    **{kind.value: kind.value for kind in MeldKind},
}
_MELD_WORD = "|".join(sorted(MELD_WORDS, key=len, reverse=True))  # longest first: 明杠 before 碰
_MELD_TOKEN = re.compile(rf"({_MELD_WORD})\s*[:：]?\s*([^\s,，;；]+)")
_MELD_SEPARATORS = re.compile(r"[\s,，;；]*")


def tile_names(text: str, field: str) -> tuple[str, ...]:
    """Tile names (``5p``) in the order typed, through the engine's own parser."""
    return tuple(TILE_NAMES[index] for index in parse_tiles(text, field))


def sorted_tiles(names: Iterable[str]) -> tuple[str, ...]:
    """Tile names in the picker's order: 万, then 筒, then 条, each by rank."""
    return tuple(sorted(names, key=TILE_NAMES.index))


@dataclass(frozen=True, slots=True)
class Meld:
    kind: str
    tile: str  # as typed; the engine validates it


# The pages' one refusal of their own: melds typed in a notation the API does not take.
MESSAGES: Catalogue = {
    "meld_notation": Message(
        "'{leftover}' is not a meld: write each as 碰5p, 明杠5p, 弯杠5p or 暗杠5p.",
        "“{leftover}”不是碰或杠：请写成 碰5p、明杠5p、弯杠5p 或 暗杠5p。",
    )
}


class NotationError(EngineError):
    """Typed melds the page cannot read, an ``EngineError`` worded by ``MESSAGES``."""

    catalogue = MESSAGES


def parse_melds(text: str, field: str = "melds") -> tuple[Meld, ...]:
    """``碰5p 暗杠3m`` or ``pung:5p kong_concealed:3m`` as melds; anything else is named to the player."""
    melds = tuple(Meld(MELD_WORDS[word], tile) for word, tile in _MELD_TOKEN.findall(text))
    leftover = _MELD_SEPARATORS.sub("", _MELD_TOKEN.sub(" ", text))
    if leftover:
        raise NotationError("meld_notation", field=field, leftover=leftover)
    return melds


def melds_text(melds: Iterable[Meld]) -> str:
    """Melds as players write them (碰5p 暗杠3m), the way the picker script writes them too."""
    return " ".join(f"{MELD_TEXT[meld.kind]}{meld.tile}" for meld in melds)


def melds_payload(melds: Iterable[Meld]) -> list[dict[str, str]]:
    return [{"kind": meld.kind, "tile": meld.tile} for meld in melds]


@dataclass(frozen=True, slots=True)
class ReadHand:
    """A hand as the page draws it, in tile names: the concealed tiles sorted, the winning tile apart, and
    each meld whose tile reads as one tile (the engine judges the rest when it scores)."""

    concealed: tuple[str, ...]
    win: str | None
    melds: tuple[Meld, ...]

    def counts(self) -> Counter[str]:
        """How many of each tile the hand holds, a kong's four included: the picker greys out a fifth."""
        counts = Counter([*self.concealed, *([self.win] if self.win else [])])
        for meld in self.melds:
            counts[meld.tile] += MELD_SIZES[MeldKind(meld.kind)]
        return counts

    def state(self) -> dict[str, Any]:
        """What the picker script adopts after the tiles were typed rather than tapped."""
        tiles = [*self.concealed, *([self.win] if self.win else [])]
        return {"tiles": tiles, "win": self.win, "melds": melds_payload(self.melds)}

    def state_json(self) -> str:
        return json.dumps(self.state())


def read_hand(concealed: Sequence[str], win: str | None, melds: Sequence[Meld]) -> ReadHand:
    """The hand to draw; raises the engine's EngineError for a meld tile it cannot read."""
    read_melds = []
    for position, meld in enumerate(melds):
        names = tile_names(meld.tile, f"melds[{position}].tile")
        if len(names) == 1:
            read_melds.append(Meld(meld.kind, names[0]))
    return ReadHand(sorted_tiles(concealed), win if win in TILE_NAMES else None, tuple(read_melds))


def whole_number(raw: str) -> Any:
    """Digits become a number; anything else goes to the engine as typed, for its own message.

    ASCII digits only, and few of them: "²".isdigit() is true but int("²") fails, and int() refuses
    strings of more than 4,300 digits."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else raw


# A rules value in JSON is one flat object ({"qing_yi_se": 5}). Text with more brackets than this is not one
# and goes to the engine as text, for its message: deeply nested input would otherwise exhaust the browser's
# stack under Pyodide before Python's recursion limit notices (CPython raises RecursionError instead).
MAX_JSON_BRACKETS = 32


def _json_or_text(raw: str) -> Any:
    if raw.count("[") + raw.count("{") > MAX_JSON_BRACKETS:
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw


# How each kind of option travels from a text box or select to the rules object of the API.
_OPTION_VALUE: Mapping[str, Callable[[str], Any]] = {
    "enum": str,
    "bool": lambda raw: {"true": True, "false": False}.get(raw, raw),
    "int": whole_number,
    "zero_or_one": whole_number,
    "cap_multiplier": lambda raw: None if raw in ("none", "null") else whole_number(raw),
    "penalty": lambda raw: raw if raw == "cap" else whole_number(raw),
    "rate": str,
    "pattern_fan": _json_or_text,
}


def rules_payload(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ``rules`` object of the API from the preset select and the ``rule_<key>`` option fields."""
    rules: dict[str, Any] = {"preset": str(data.get("preset", "")).strip() or Preset.CHENGDU.value}
    for option in OPTIONS:
        raw = str(data.get(f"rule_{option.key}", "")).strip()
        if raw:
            rules[option.key] = _OPTION_VALUE[option.kind](raw)
    return rules
