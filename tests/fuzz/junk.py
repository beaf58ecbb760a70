"""What the fuzz tests throw: values of every JSON kind, tile-like text, and text no parser expects."""

import json
from typing import Any

from hypothesis import strategies as st

# Characters a player might type into a tile box, and some no one should.
TILE_ALPHABET = (
    "0123456789mpsMPSzwtb万筒条饼索 ,.-+_/\t\n\u00b9\u00b2\u2460\uff11\uff4d\u0000\ud800\U0001f004"
)

tile_text = st.one_of(
    st.text(alphabet=TILE_ALPHABET, max_size=40),
    st.text(max_size=20),
    st.from_regex(r"\A(?:[0-9]{1,9}[mps万筒条]){1,6}\Z"),
    st.integers(-(10**30), 10**30).map(str),
)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    tile_text,
    st.sampled_from(
        [
            "5p",
            "direct",
            "added",
            "concealed",
            "ready",
            "huazhu",
            "not_ready",
            "win",
            "kong",
            "draw",
            "escape",
            "self_draw",
            "discard",
            "robbing_kong",
            "m",
            "p",
            "s",
            "chengdu",
            "house",
            "",
        ]
    ),
)

json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.text(max_size=8), children, max_size=5),
    ),
    max_leaves=12,
)


def paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON-like value where another value could go."""
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*path, key))
    elif isinstance(node, list):
        for position, value in enumerate(node):
            found += paths(value, (*path, position))
    return found


def put(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``node`` with ``value`` at ``path`` (the root itself when the path is empty)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(node, dict):
        return {**node, head: put(node[head], rest, value)}
    return [put(item, rest, value) if index == head else item for index, item in enumerate(node)]


def post_json(client: Any, url: str, body: Any) -> Any:
    """POST ``body`` as a real client would send it: JSON with every non-ASCII character escaped (so a lone
    surrogate travels as ``\\ud800``, which the test client's own encoder would refuse to send)."""
    return client.post(url, json.dumps(body), content_type="application/json")


def assert_clean_refusal(response: Any) -> None:
    """A 400 of the API's one error shape, naming a field, with a message in both languages.

    The field is the key at fault as sent, so an unknown key "" is named "" (reported: h1 may prefer
    "body"); what must hold is that it is a string and ``errors`` carries the message under it.
    """
    assert response.status_code == 400, (response.status_code, response.content[:300])
    body = response.json()
    assert isinstance(body["field"], str), body
    assert isinstance(body["detail"], str) and body["detail"], body
    assert isinstance(body["detail_zh"], str) and body["detail_zh"], body
    assert body["errors"][body["field"]], body
