"""Tiles as the pages draw them: faces, the picker's three rows of nine, the hand being built, melds typed.

The engine is the only tile parser (``parse_tiles``); this module turns its tile names into what a
template draws and reads the one notation the API lacks, melds typed as players write them (``碰5p 暗杠3m``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from calculator.engine import (
    COPIES,
    HAND_TILES,
    MELD_SIZES,
    SUITS,
    TILE_NAMES,
    Catalogue,
    EngineError,
    MeldKind,
    Message,
    parse_tiles,
)

PICKER_ROWS = tuple(tuple(f"{rank}{suit}" for rank in range(1, 10)) for suit in SUITS)

SUIT_LABELS: Mapping[str, Any] = {"m": _("Characters"), "p": _("Dots"), "s": _("Bamboo")}
SUIT_SHORT_LABELS: Mapping[str, Any] = {"m": _("Cracks"), "p": _("Dots"), "s": _("Bams")}

MELD_KINDS = tuple(kind.value for kind in MeldKind)
MELD_LABELS: Mapping[str, Any] = {
    MeldKind.PUNG: _("Pung"),
    MeldKind.KONG_DIRECT: _("Direct kong"),
    MeldKind.KONG_ADDED: _("Added kong"),
    MeldKind.KONG_CONCEALED: _("Concealed kong"),
}
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
    **{kind: kind for kind in MELD_KINDS},
}
_MELD_WORD = "|".join(sorted(MELD_WORDS, key=len, reverse=True))  # longest first: 明杠 before 碰
_MELD_TOKEN = re.compile(rf"({_MELD_WORD})\s*[:：]?\s*([^\s,，;；]+)")
_MELD_SEPARATORS = re.compile(r"[\s,，;；]*")


def tile_label(name: str) -> str:
    """A tile in words for screen readers and tooltips: ``5p`` is 5筒 / "5 Dots"."""
    return f"{name[0]} {SUIT_LABELS[name[1]]}"


def tile_names(text: str, field: str) -> tuple[str, ...]:
    """Tile names (``5p``) in the order typed, through the engine's own parser."""
    return tuple(TILE_NAMES[index] for index in parse_tiles(text, field))


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
class TileView:
    name: str
    label: str


@dataclass(frozen=True, slots=True)
class MeldView:
    kind: str
    label: Any
    tiles: tuple[TileView, ...]


def tile_view(name: str) -> TileView:
    return TileView(name, tile_label(name))


def tile_views(names: Iterable[str]) -> tuple[TileView, ...]:
    return tuple(tile_view(name) for name in sorted(names, key=TILE_NAMES.index))


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


EMPTY_HAND = HandView((), None, (), {})


def hand_view(concealed: Sequence[str], win: str | None, melds: Sequence[Meld]) -> HandView:
    """The hand for display; raises the engine's EngineError for a meld tile it cannot read."""
    win_name = win if win in TILE_NAMES else None
    meld_views = []
    for position, meld in enumerate(melds):
        names = tile_names(meld.tile, f"melds[{position}].tile")
        if len(names) == 1:
            tiles = (tile_view(names[0]),) * MELD_SIZES[MeldKind(meld.kind)]
            meld_views.append(MeldView(meld.kind, MELD_LABELS[meld.kind], tiles))
    counts = Counter([*concealed, *([win_name] if win_name else [])])
    for meld_view in meld_views:
        counts[meld_view.tiles[0].name] += len(meld_view.tiles)
    return HandView(
        tile_views(concealed), tile_view(win_name) if win_name else None, tuple(meld_views), counts
    )


def picker_rows(counts: Mapping[str, int]) -> list[list[dict[str, Any]]]:
    """The picker's three rows of nine, each tile with how many copies are already used."""
    return [[{"view": tile_view(name), "count": counts.get(name, 0)} for name in row] for row in PICKER_ROWS]


def meld_tools() -> list[tuple[str, Any, str]]:
    """The 碰 / 明杠 / 弯杠 / 暗杠 buttons: kind, label, and the word the script writes into the melds box."""
    return [(kind, MELD_LABELS[kind], MELD_TEXT[kind]) for kind in MELD_KINDS]


def picker_config_json() -> str:
    """What ``picker.js`` needs to know of the engine's vocabulary, rendered by the server into the page."""
    return json.dumps(
        {
            "suits": SUITS,
            "handTiles": HAND_TILES,
            "copies": COPIES,
            "meldSize": {kind.value: size for kind, size in MELD_SIZES.items()},
        }
    )
