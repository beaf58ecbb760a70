"""Bad input never crashes: any value anywhere in a valid round gives a result or an EngineError."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from settlement.engine import EngineError, settle_round

from .random_rounds import random_round

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 200),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.lists(st.integers(-1, 5), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sampled_from(
        ["5p", "direct", "added", "ready", "huazhu", "win", "kong", "draw", "escape", "m", "cap"]
    ),
)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON-like value that another value could be put."""
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*path, key))
    elif isinstance(node, list):
        for position, value in enumerate(node):
            found += _paths(value, (*path, position))
    return found


def _put(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    if not path:
        return {"dealer": 0, "events": value}
    changed = copy.deepcopy(body)
    node = changed
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return changed


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), JUNK)
def test_any_value_anywhere_gives_a_result_or_an_engine_error(rng: random.Random, junk: Any):
    body = random_round(rng)
    body["rules"] = {"preset": "chengdu"}  # the rules' own validation belongs to calculator.engine.rules
    path = rng.choice([path for path in _paths(body) if path[:1] != ("rules",)])
    try:
        settle_round(**_put(body, path, junk))
    except EngineError as error:
        assert error.field and error.message and error.message_zh
