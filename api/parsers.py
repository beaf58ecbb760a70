"""The one JSON body reader of every API endpoint, the calculators' fast path and DRF's parser alike.

``json.loads`` alone lets three kinds of body through to become a 500: nesting deep enough to exhaust
the recursion limit (RecursionError is not a ValueError), nesting that parses but is deep enough to
overflow whatever walks it later, and ``\\ud800`` escapes that decode to a lone surrogate, which no
response or database can encode. Each is a 400 on ``body`` here (``ParseError``, shaped by
``api.errors``).
"""

import json
import re
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

# Far deeper than any request of API.md (a settle body's meld is 8 levels down), far below Python's limit.
MAX_DEPTH = 32
# An escaped UTF-16 surrogate, paired or not: the only way a JSON body can carry a lone one.
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def read_json(body: bytes) -> Any:
    """The parsed body, or ParseError: not JSON, NaN or Infinity, too deep, or a lone surrogate."""
    try:
        # Decoded strictly first: json.loads of bytes lets UTF-8-encoded surrogates through (surrogatepass).
        data = json.loads(body.decode("utf-8"), parse_constant=_reject_constant)
    except RecursionError:
        raise _too_deep() from None
    except ValueError as exc:  # UnicodeDecodeError included
        raise ParseError(f"JSON parse error - {exc}") from exc
    # Both checks cost a walk, so they run only when a cheap scan of the bytes says they might fail.
    if body.count(b"[") + body.count(b"{") > MAX_DEPTH and depth_exceeds(data, MAX_DEPTH):
        raise _too_deep()
    if SURROGATE_ESCAPE.search(body) and not _encodable(data):
        raise ParseError("JSON parse error - the body holds a lone surrogate escape (\\ud800 to \\udfff).")
    return data


def depth_exceeds(data: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` deep, found without recursion."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _encodable(data: Any) -> bool:
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return False
    return True


def _too_deep() -> ParseError:
    return ParseError(f"JSON parse error - arrays and objects nest more than {MAX_DEPTH} deep.")


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")  # NaN and Infinity, as DRF's strict parser does


class SiteJSONParser(JSONParser):
    """DRF's JSON parser with the same limits as the calculators' fast path (DEFAULT_PARSER_CLASSES)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return read_json(stream.read() if stream is not None else b"")
