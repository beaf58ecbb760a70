"""The hand-scoring engine: pure Python, no Django (ARCHITECTURE.md layer 1).

``score_hand`` scores one winning hand, ``find_waits`` says whether a position is ready and for how much;
both take tiles in notation, validate them and raise ``EngineError`` (field + message) on bad input.
"""

from .errors import EngineError
from .fan import (
    AFTER_KONG,
    DISCARD,
    LAST_TILE,
    ROBBING,
    SELF_DRAW,
    ExtraScore,
    ScoreResult,
    Wait,
    fan_of_pattern,
    score_hand,
)
from .hand import Meld, MeldKind
from .patterns import PATTERN_BY_KEY, PatternScore
from .requests import score_from_payload, waits_from_payload
from .rules import OPTIONS, Option, Preset, Rules, ZimoBonus
from .tiles import SUITS, TILE_NAMES, format_tiles, parse_tiles
from .waits import DiscardWaits, WaitsResult, find_waits

__all__ = [
    "AFTER_KONG",
    "DISCARD",
    "LAST_TILE",
    "OPTIONS",
    "PATTERN_BY_KEY",
    "ROBBING",
    "SELF_DRAW",
    "SUITS",
    "TILE_NAMES",
    "DiscardWaits",
    "EngineError",
    "ExtraScore",
    "Meld",
    "MeldKind",
    "Option",
    "PatternScore",
    "Preset",
    "Rules",
    "ScoreResult",
    "Wait",
    "WaitsResult",
    "ZimoBonus",
    "fan_of_pattern",
    "find_waits",
    "format_tiles",
    "parse_tiles",
    "score_from_payload",
    "score_hand",
    "waits_from_payload",
]
