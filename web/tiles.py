"""Tiles as the pages draw them: faces, the picker's three rows of nine, the hand being built.

Tile names come from ``web.notation`` (the engine's parser and the melds notation); this module turns
them into what a template draws, with each tile's spoken label and each meld's word in the page's language.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from calculator.engine import COPIES, HAND_TILES, MELD_SIZES, SUITS, MeldKind

from .notation import MELD_TEXT, ReadHand, sorted_tiles

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


def tile_label(name: str) -> str:
    """A tile in words for screen readers and tooltips: ``5p`` is 5筒 / "5 Dots"."""
    return f"{name[0]} {SUIT_LABELS[name[1]]}"


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
    return tuple(tile_view(name) for name in sorted_tiles(names))


@dataclass(frozen=True, slots=True)
class HandView:
    """The hand as the page draws it: concealed tiles sorted, the winning tile apart, melds apart."""

    concealed: tuple[TileView, ...]
    win: TileView | None
    melds: tuple[MeldView, ...]
    counts: Mapping[str, int]


EMPTY_HAND = HandView((), None, (), {})


def hand_view(hand: ReadHand) -> HandView:
    """The hand as read (tile names), drawn: faces with their spoken labels, each meld with its word."""
    melds = tuple(
        MeldView(meld.kind, MELD_LABELS[meld.kind], (tile_view(meld.tile),) * MELD_SIZES[MeldKind(meld.kind)])
        for meld in hand.melds
    )
    return HandView(
        tuple(tile_view(name) for name in hand.concealed),
        tile_view(hand.win) if hand.win else None,
        melds,
        hand.counts(),
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
