"""The hand-scoring engine: pure Python, no Django (ARCHITECTURE.md layer 1).

``score_hand`` scores one winning hand, ``find_waits`` says whether a position is ready and for how much;
both take tiles in notation, validate them and raise ``EngineError`` (field + message) on bad input.
"""

from .errors import EngineError
from .fan import ExtraScore, ScoreResult, Wait, score_hand
from .patterns import PatternScore
from .requests import request_object, rules_from
from .rules import PATTERN_DEFAULT_FAN, Rules
from .tiles import format_tiles, parse_tiles
from .waits import DiscardWaits, WaitsResult, find_waits

__all__ = [
    "PATTERN_DEFAULT_FAN",
    "DiscardWaits",
    "EngineError",
    "ExtraScore",
    "PatternScore",
    "Rules",
    "ScoreResult",
    "Wait",
    "WaitsResult",
    "find_waits",
    "format_tiles",
    "parse_tiles",
    "request_object",
    "rules_from",
    "score_hand",
]
