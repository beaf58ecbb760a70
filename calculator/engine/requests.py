"""The request parsers: a parsed JSON body in, an engine result out.

The API views and the pages both call these, so a bad hand gets the same field and the same message
whichever way it came in. They check only the envelope (an object, known keys, the required ones present,
booleans that are booleans) and hand every value to the engine, which validates tiles, melds, suits and
rules itself. Kept small because they sit on the hot path of every request.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from functools import lru_cache
from typing import Any

from .errors import EngineError
from .fan import ScoreResult, score_hand
from .rules import DEFAULT_RULES, Rules
from .tiles import json_kind
from .waits import WaitsResult, find_waits

SCORE_FIELDS = frozenset(
    {
        "concealed",
        "melds",
        "win_tile",
        "win_by",
        "after_kong",
        "last_tile",
        "tian_hu",
        "di_hu",
        "void_suit",
        "rules",
    }
)
SCORE_REQUIRED = ("concealed", "win_tile")
SCORE_FLAGS = ("after_kong", "last_tile", "tian_hu", "di_hu")
WAITS_FIELDS = frozenset({"concealed", "melds", "void_suit", "rules"})
WAITS_REQUIRED = ("concealed",)
MAX_CACHED_RULES_JSON = 4096


def score_from_payload(payload: object) -> ScoreResult:
    """``POST /api/v1/score/``: the body checked and passed to ``score_hand``."""
    body = request_object(payload, SCORE_FIELDS, SCORE_REQUIRED)
    check_flags(body, SCORE_FLAGS)
    return score_hand(**{**body, "rules": rules_from(body.get("rules"))})


def waits_from_payload(payload: object) -> WaitsResult:
    """``POST /api/v1/waits/``: the body checked and passed to ``find_waits``."""
    body = request_object(payload, WAITS_FIELDS, WAITS_REQUIRED)
    return find_waits(**{**body, "rules": rules_from(body.get("rules"))})


def request_object(payload: object, allowed: Collection[str], required: Collection[str]) -> dict[str, Any]:
    """The body as a dict of known keys, or an EngineError naming the first field that is wrong."""
    if not isinstance(payload, Mapping):
        got, got_zh = json_kind(payload)
        raise EngineError("body_not_an_object", field="body", got=got, got_zh=got_zh)
    for key in payload:
        if key not in allowed:
            names = ", ".join(sorted(allowed))
            raise EngineError("unknown_field", field=str(key), key=key, names=names)
    for key in required:
        if key not in payload:
            raise EngineError("field_required", field=key, key=key)
    return dict(payload)


def check_flags(body: Mapping[str, Any], flags: Collection[str]) -> None:
    """Each of ``flags`` present in ``body`` must be a JSON boolean: "false" as a string is a mistake."""
    for key in flags:
        value = body.get(key, False)
        if not isinstance(value, bool):
            raise EngineError("not_a_boolean", field=key, name=key, value=value)


def rules_from(raw: object) -> Rules:
    """The table's rules, built once per distinct ``rules`` object: clients send the same few again."""
    if raw is None:
        return DEFAULT_RULES
    try:
        key = json.dumps(raw, sort_keys=True)
    except (TypeError, ValueError):  # not plain JSON (a page's own values): no cache, same validation
        return Rules.from_dict(raw)
    if len(key) > MAX_CACHED_RULES_JSON:  # a real table's rules are short; a padded one must not fill memory
        return Rules.from_dict(raw)
    return _cached_rules(key)


@lru_cache(maxsize=256)
def _cached_rules(key: str) -> Rules:
    return Rules.from_dict(json.loads(key))
